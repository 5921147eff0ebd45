import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../lib/schemas.js';
import { type Principal, principalOf, scopeOf } from '../../plugins/auth.js';
import {
  AcceptInviteBody,
  CodeBody,
  LoginBody,
  LoginResponse,
  MeResponse,
  PasswordBody,
  RegisterBody,
  RegisterResponse,
  UpdateMeBody,
  VerifyTwoFactorBody,
} from './auth.schemas.js';
import * as auth from './auth.service.js';

const COOKIE = 'refreshToken';

function presentMe(p: Principal, profile: { fullName: string; operatorOib: string | null }) {
  const { user, organization } = p;
  return {
    id: user.id,
    email: user.email,
    fullName: profile.fullName,
    role: user.role,
    twoFactorEnabled: user.twoFactorEnabled,
    lastLoginAt: user.lastLoginAt,
    operatorOib: profile.operatorOib,
    organization,
  };
}
const COOKIE_PATH = '/api/v1/auth';

export function authRoutes(ctx: AppContext) {
  const secure = ctx.config.nodeEnv === 'production';
  const setRefreshCookie = (reply: FastifyReply, token: string, expires: Date) =>
    reply.setCookie(COOKIE, token, { httpOnly: true, sameSite: 'strict', path: COOKIE_PATH, secure, expires });
  const clearRefreshCookie = (reply: FastifyReply) =>
    reply.clearCookie(COOKIE, { httpOnly: true, sameSite: 'strict', path: COOKIE_PATH, secure });
  const tags = ['Authentication'];

  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/register',
      {
        config: { public: true, lockout: true, fieldCodes: { baseCurrency: 'SVC-2002', language: 'SVC-2003' } },
        schema: { tags, body: RegisterBody, response: { 201: RegisterResponse, ...errorResponses(409, 422, 429) } },
      },
      async (request, reply) => {
        const result = await auth.register(ctx, request.body, request.id);
        setRefreshCookie(reply, result.login.refreshToken, result.login.refreshExpiresAt);
        return reply.status(201).send(result.body);
      },
    );

    app.post(
      '/login',
      {
        config: { public: true, lockout: true },
        schema: { tags, body: LoginBody, response: { 200: LoginResponse, ...errorResponses(401, 403, 422, 429) } },
      },
      async (request, reply) => {
        const result = await auth.login(ctx, request.body, request.id);
        setRefreshCookie(reply, result.login.refreshToken, result.login.refreshExpiresAt);
        return result.body;
      },
    );

    app.post(
      '/verify-2fa',
      {
        config: { public: true, lockout: true },
        schema: {
          tags,
          body: VerifyTwoFactorBody,
          response: { 200: LoginResponse, ...errorResponses(401, 403, 422, 429) },
        },
      },
      async (request, reply) => {
        const result = await auth.login(ctx, request.body, request.id);
        setRefreshCookie(reply, result.login.refreshToken, result.login.refreshExpiresAt);
        return result.body;
      },
    );

    app.post(
      '/refresh',
      {
        config: { public: true },
        schema: {
          tags,
          description: 'Rotates the refresh token cookie and returns a new access token.',
          response: {
            200: Type.Object({ accessToken: Type.String(), expiresIn: Type.Integer() }),
            ...errorResponses(401),
          },
        },
      },
      async (request, reply) => {
        const issued = await auth.refresh(ctx, request.cookies[COOKIE], request.id);
        setRefreshCookie(reply, issued.refreshToken, issued.refreshExpiresAt);
        return { accessToken: issued.accessToken, expiresIn: issued.expiresIn };
      },
    );

    app.post(
      '/logout',
      {
        schema: { tags, response: { 204: Type.Null(), ...errorResponses(401) } },
      },
      async (request, reply) => {
        await auth.logout(scopeOf(request), principalOf(request));
        clearRefreshCookie(reply);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/me',
      {
        schema: { tags, response: { 200: MeResponse, ...errorResponses(401, 404) } },
      },
      async (request) => {
        // Everything it shows comes with the principal: no statement of its own.
        const p = principalOf(request);
        return presentMe(p, p.user);
      },
    );

    app.put(
      '/me',
      {
        config: { perMinute: 10 },
        schema: {
          tags,
          body: UpdateMeBody,
          response: { 200: MeResponse, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const profile = await auth.updateProfile(scopeOf(request), p, request.body);
        return presentMe(p, profile);
      },
    );

    app.put(
      '/password',
      {
        config: { perMinute: 10 },
        schema: {
          tags,
          body: PasswordBody,
          response: { 204: Type.Null(), ...errorResponses(401, 422) },
        },
      },
      async (request, reply) => {
        await auth.changePassword(scopeOf(request), ctx, principalOf(request), request.body);
        clearRefreshCookie(reply);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/2fa/setup',
      {
        config: { perMinute: 10 },
        schema: {
          tags,
          response: {
            200: Type.Object({ secret: Type.String(), otpauthUrl: Type.String() }),
            ...errorResponses(401, 422),
          },
        },
      },
      async (request) => auth.setupTwoFactor(scopeOf(request), principalOf(request)),
    );

    app.post(
      '/2fa/enable',
      {
        config: { perMinute: 10 },
        schema: {
          tags,
          body: CodeBody,
          response: { 200: Type.Object({ twoFactorEnabled: Type.Boolean() }), ...errorResponses(401, 422) },
        },
      },
      async (request) => auth.setTwoFactor(scopeOf(request), principalOf(request), request.body.code, { enable: true }),
    );

    app.post(
      '/2fa/disable',
      {
        config: { perMinute: 10 },
        schema: {
          tags,
          body: CodeBody,
          response: { 200: Type.Object({ twoFactorEnabled: Type.Boolean() }), ...errorResponses(401, 403, 422) },
        },
      },
      async (request) =>
        auth.setTwoFactor(scopeOf(request), principalOf(request), request.body.code, {
          enable: false,
          reauthMaxAgeMs: ctx.config.reauthMaxAgeMs,
        }),
    );

    app.post(
      '/accept-invite',
      {
        config: { public: true, perMinute: 10 },
        schema: { tags, body: AcceptInviteBody, response: { 201: LoginResponse, ...errorResponses(401, 422) } },
      },
      async (request, reply) => {
        const result = await auth.acceptInvite(ctx, request.body, request.id);
        setRefreshCookie(reply, result.login.refreshToken, result.login.refreshExpiresAt);
        return reply.status(201).send(result.body);
      },
    );
  };
}

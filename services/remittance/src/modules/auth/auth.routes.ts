import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { AppError, notFound } from '../../errors.js';
import { clientInfo } from '../../lib/client-info.js';
import { LIMIT_AUTH } from '../../lib/limits.js';
import type { Surface } from '../../lib/tokens.js';
import { authOf, scopeOf, WEB_COOKIE } from '../../plugins/authenticate.js';
import { errors, Message } from '../../schemas.js';
import { MeResponse, RefreshResponse } from './auth.schemas.js';
import type { SessionService } from './sessions.service.js';

export function webCookieOptions(config: Config, expiresAt: Date) {
  return {
    httpOnly: true,
    secure: config.nodeEnv === 'production',
    sameSite: 'strict' as const,
    path: '/',
    expires: expiresAt,
  };
}

export function clearWebCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(WEB_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: config.nodeEnv === 'production',
  });
}

const GONE = new AppError(
  'gone',
  'Password sign-in was removed; sign in with eID: GET /api/auth/eid (web) or GET /v1/auth/eid/initiate (mobile)',
);

export function authRoutes(surface: Surface, deps: { config: Readonly<Config>; sessions: SessionService }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['auth'];

    app.get(
      '/auth/me',
      { config: { remitProfile: true }, schema: { tags, response: { 200: MeResponse, ...errors(401) } } },
      async (req) => {
        // The session look-up answered the whole `data` (sessions.repository SESSION_PROFILE_SQL).
        const profile = authOf(req).profile;
        if (!profile) throw notFound();
        return { data: profile };
      },
    );

    app.post(
      '/auth/logout',
      { schema: { tags, response: { 200: Message, ...errors(401, 403) } } },
      async (req, reply) => {
        await deps.sessions.logout(scopeOf(req));
        if (surface === 'web') clearWebCookie(reply, deps.config);
        return { message: 'Signed out on all devices' };
      },
    );

    app.post(
      '/auth/refresh',
      { schema: { tags, response: { 200: RefreshResponse, ...errors(401, 403) } } },
      async (req, reply) => {
        const auth = authOf(req);
        const issued = await deps.sessions.refresh(scopeOf(req), auth, surface, clientInfo(req));
        const data = { userId: auth.userId, email: auth.email, role: auth.role };
        if (surface === 'web') {
          reply.setCookie(WEB_COOKIE, issued.token, webCookieOptions(deps.config, issued.expiresAt));
          return { data };
        }
        return { data: { ...data, token: issued.token } };
      },
    );

    for (const path of ['/auth/login', '/auth/register', '/auth/verify-otp']) {
      app.post(
        path,
        { config: { public: true, ...LIMIT_AUTH }, schema: { tags, deprecated: true, response: errors(410, 429) } },
        async () => {
          throw GONE;
        },
      );
    }
  };
}

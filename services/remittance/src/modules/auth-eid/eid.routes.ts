import type { Database } from '@app/shared/db/database';
import { randomToken } from '@app/shared/secrets';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { DB } from '../../db/types.js';
import { AppError, badRequest, type ErrorCode } from '../../errors.js';
import { clientInfo } from '../../lib/client-info.js';
import { LIMIT_AUTH } from '../../lib/limits.js';
import type { Surface } from '../../lib/tokens.js';
import { WEB_COOKIE } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import { webCookieOptions } from '../auth/auth.routes.js';
import { toUserBody } from '../users/users.dto.js';
import { insertMockCode } from './eid.repository.js';
import {
  MobileCallbackBody,
  MobileCallbackResponse,
  MobileInitiateQuery,
  MobileInitiateResponse,
  MockAuthorizeQuery,
  WebCallbackQuery,
  WebStartResponse,
} from './eid.schemas.js';
import type { EidService } from './eid.service.js';
import { EidError, type EidFailure } from './eid.service.js';

const STATE_COOKIE = 'eid_state';
const STATE_COOKIE_PATH = '/api/auth/eid';
/** Synthetic Test Norge number (month + 80) of an adult born 1985-05-15. */
export const MOCK_DEFAULT_PID = '15858512309';

const MOBILE_ERRORS: Record<EidFailure, ErrorCode> = {
  state_mismatch: 'bad_request',
  invalid_national_id: 'validation_error',
  age_restricted: 'age_restricted',
  eid_provider_error: 'eid_provider_error',
};

function mobileError(err: unknown): unknown {
  if (!(err instanceof EidError)) return err;
  const code = MOBILE_ERRORS[err.failure];
  const message =
    err.failure === 'eid_provider_error' ? 'The identity provider could not complete the sign-in' : err.message;
  return new AppError(code, message);
}

function logFailure(app: FastifyInstance, err: EidError): void {
  app.log.warn({ failure: err.failure, reason: err.message }, 'eID sign-in failed');
}

interface EidRouteDeps {
  config: Readonly<Config>;
  db: Database<DB>;
  eid: EidService;
}

export function eidRoutes(surface: Surface, deps: EidRouteDeps) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['auth'];
    const publicLimited = { public: true, ...LIMIT_AUTH };
    const stateCookie = {
      httpOnly: true,
      secure: deps.config.nodeEnv === 'production',
      // Lax: the cookie must come back on the provider's top-level redirect to the callback.
      sameSite: 'lax' as const,
      path: STATE_COOKIE_PATH,
      maxAge: Math.floor(deps.config.eid.flowTtlMs / 1000),
    };

    if (surface === 'web') {
      app.get(
        '/auth/eid',
        { config: publicLimited, schema: { tags, response: { 200: WebStartResponse, ...errors(429, 502) } } },
        async (req, reply) => {
          const started = await deps.eid
            .start('web', { startedOrigin: `${req.protocol}://${req.host}`.slice(0, 200) })
            .catch((e) => Promise.reject(mobileError(e)));
          reply.setCookie(STATE_COOKIE, started.state, stateCookie);
          return { redirectUrl: started.redirectUrl };
        },
      );

      app.get(
        '/auth/eid/callback',
        {
          config: publicLimited,
          schema: {
            tags,
            querystring: WebCallbackQuery,
            response: { 302: { description: 'to /dashboard, or /login?error=<code>' } },
          },
        },
        async (req, reply) => {
          // A state mismatch carries its reason, so the login page (and a newcomer) can tell why.
          const fail = (code: string, reason?: string) => {
            reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
            const why = reason ? `&reason=${encodeURIComponent(reason)}` : '';
            return reply.redirect(`/login?error=${encodeURIComponent(code)}${why}`, 302);
          };
          const q = req.query;
          if (q.error) return fail(q.error === 'access_denied' ? 'access_denied' : 'eid_provider_error');
          if (!q.code || !q.state) return fail('state_mismatch', 'the callback has no code or no state');
          try {
            const { session } = await deps.eid.complete(
              {
                platform: 'web',
                code: q.code,
                state: q.state,
                iss: q.iss,
                expectedState: req.cookies[STATE_COOKIE] ?? null,
              },
              clientInfo(req),
            );
            reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
            reply.setCookie(WEB_COOKIE, session.token, webCookieOptions(deps.config, session.expiresAt));
            return reply.redirect('/dashboard', 302);
          } catch (err) {
            if (!(err instanceof EidError)) throw err;
            logFailure(app, err);
            return fail(err.failure, err.failure === 'state_mismatch' ? err.message : undefined);
          }
        },
      );

      if (deps.config.eid.mock) registerMockProvider(app, deps);
      return;
    }

    app.get(
      '/auth/eid/initiate',
      {
        config: publicLimited,
        schema: {
          tags,
          querystring: MobileInitiateQuery,
          response: { 200: MobileInitiateResponse, ...errors(400, 429, 502) },
        },
      },
      async (req) =>
        deps.eid
          .start('mobile', { codeChallenge: req.query.code_challenge })
          .catch((e) => Promise.reject(mobileError(e))),
    );

    app.post(
      '/auth/eid/callback',
      {
        config: publicLimited,
        schema: {
          tags,
          body: MobileCallbackBody,
          response: { 200: MobileCallbackResponse, ...errors(400, 403, 422, 429, 502) },
        },
      },
      async (req) => {
        try {
          const { session, user } = await deps.eid.complete(
            {
              platform: 'mobile',
              code: req.body.code,
              state: req.body.state,
              iss: req.body.iss,
              codeVerifier: req.body.code_verifier,
            },
            clientInfo(req),
          );
          return { token: session.token, data: toUserBody(user) };
        } catch (err) {
          if (err instanceof EidError) logFailure(app, err);
          throw mobileError(err);
        }
      },
    );
  };
}

/** R3: the simulated provider's authorize page (EID_MOCK=true only, never in production). */
function registerMockProvider(scope: FastifyInstance, deps: EidRouteDeps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const eid = deps.config.eid;
  app.get(
    '/auth/eid/mock/authorize',
    {
      config: { public: true, ...LIMIT_AUTH },
      schema: {
        tags: ['auth'],
        summary: 'Mock eID provider (development)',
        querystring: MockAuthorizeQuery,
        response: errors(400),
      },
    },
    async (req, reply) => {
      const q = req.query;
      if (q.client_id !== eid.clientId) throw badRequest('unknown client_id');
      if (q.redirect_uri !== eid.callbackUrl && q.redirect_uri !== eid.callbackUrlMobile)
        throw badRequest('redirect_uri is not registered');
      const code = randomToken(24);
      await insertMockCode(deps.db.system, {
        code,
        clientId: q.client_id,
        redirectUri: q.redirect_uri,
        codeChallenge: q.code_challenge,
        nonce: q.nonce ?? null,
        claims: {
          sub: `mock-${q.pid ?? MOCK_DEFAULT_PID}`,
          pid: q.pid ?? MOCK_DEFAULT_PID,
          given_name: q.given_name ?? 'Kari',
          family_name: q.family_name ?? 'Nordmann',
          ...(q.email ? { email: q.email } : {}),
          ...(q.birthdate ? { birthdate: q.birthdate } : {}),
        },
        expiresAt: new Date(Date.now() + eid.mockCodeTtlMs),
      });
      const target = new URL(q.redirect_uri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', q.state);
      return reply.redirect(target.toString(), 302);
    },
  );
}

import type { Database } from '@app/shared/db/database';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import '@app/shared/routes';
import type { DB } from '../db/types.js';
import { type UserScope, userScope } from '../db/user-scope.js';
import { forbidden, unauthorized } from '../errors.js';
import type { LiveSession, SessionProof } from '../lib/session.js';
import type { Surface } from '../lib/tokens.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Remittance: the surface whose session the route requires (set by registerSurfaceAuth). */
    surface?: Surface;
    /** Remittance: load the user's profile and accounts with the session (one query). */
    remitProfile?: boolean;
    /**
     * Remittance: the hook checks the token only; the route checks the session row inside its
     * own transaction, in the round trip of its first statement (sessionProofOf). Only for
     * routes whose every path does that check before it answers.
     */
    sessionInTransaction?: boolean;
    /**
     * Remittance: the roles the route is for (absent: every signed-in user), checked after validation, before the
     * handler (403 forbidden). Accounting names its roles in `auth`; the key differs because both services share
     * one TypeScript program and their roles differ.
     */
    roles?: readonly LiveSession['role'][];
  }
  interface FastifyRequest {
    /**
     * Remittance: the caller, set by the surface's auth hook (null on public routes); read it with authOf,
     * scopeOf and sessionProofOf. Named apart from accounting's `auth`: both services share one TypeScript
     * program, so both declarations merge into this one interface.
     */
    remitAuth: RemitAuth | null;
  }
}

/** What the surface's auth hook leaves on the request. */
export interface RemitAuth {
  session: LiveSession;
  scope: UserScope;
  proof: SessionProof | undefined;
}

export const WEB_COOKIE = 'app_token';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_PROFILE = { withProfile: true } as const;

/** The two session checks the hook makes (the session service in modules/auth). */
export interface SessionCheck {
  /** The token and the session row (with the profile for `remitProfile` routes). */
  authenticate(token: string, surface: Surface, opts?: { withProfile?: boolean }): Promise<LiveSession>;
  /** The token only; the route checks the row in its own transaction with the proof. */
  verifyToken(token: string, surface: Surface): Promise<LiveSession & { proof: SessionProof }>;
}

function bearerToken(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m?.[1];
}

function requestOrigin(req: FastifyRequest): string | null {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin.replace(/\/$/, '');
  const referer = req.headers.referer;
  if (typeof referer === 'string') {
    try {
      return new URL(referer).origin;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Every route of a surface requires a live session unless it is marked public. The web surface
 * reads the app_token cookie and, for state-changing methods, requires an allowed Origin or
 * Referer (R4); the standalone API reads the Bearer header. The session check is one indexed query.
 */
export function registerSurfaceAuth(
  scope: FastifyInstance,
  opts: { surface: Surface; sessions: SessionCheck; db: Database<DB>; allowedOrigins: readonly string[] },
): void {
  const allowed = new Set(opts.allowedOrigins);
  // On each surface's scope (siblings, so each declares it once): the request objects of that scope
  // carry the property from the start, and the hook below only assigns it.
  if (!scope.hasRequestDecorator('remitAuth')) scope.decorateRequest('remitAuth', null);
  // A new object: route files share one config object between routes.
  scope.addHook('onRoute', (route: RouteOptions) => {
    route.config = { ...(route.config as FastifyContextConfig), surface: opts.surface };
    const roles = route.config.roles;
    // Only the routes that name roles get the check: the others run no extra hook.
    if (roles) route.preHandler = [...[route.preHandler ?? []].flat(), requireRole(roles)];
  });
  // A callback hook: public routes (rates, health) pass without a promise or a microtask.
  scope.addHook('onRequest', (req, _reply, done) => {
    if (!req.routeOptions.url || req.routeOptions.config?.public) return done();
    const token = opts.surface === 'web' ? req.cookies[WEB_COOKIE] : bearerToken(req.headers.authorization);
    if (!token) return done(unauthorized());
    if (opts.surface === 'web' && UNSAFE.has(req.method)) {
      const origin = requestOrigin(req);
      if (!origin || !allowed.has(origin)) return done(forbidden('Origin not allowed'));
    }
    const config = req.routeOptions.config;
    const checked = config?.sessionInTransaction
      ? opts.sessions.verifyToken(token, opts.surface)
      : opts.sessions.authenticate(token, opts.surface, config?.remitProfile ? WITH_PROFILE : undefined);
    checked.then(
      (session) => {
        req.remitAuth = {
          session,
          scope: userScope(opts.db, session.userId, req.id),
          proof: 'proof' in session ? (session.proof as SessionProof) : undefined,
        };
        done();
      },
      (err: Error) => done(err),
    );
  });
}

function requireRole(roles: readonly LiveSession['role'][]): preHandlerHookHandler {
  const message = `${roles.map((r) => r.charAt(0).toUpperCase() + r.slice(1)).join(' or ')} role required`;
  return function checkRole(req, _reply, done) {
    if (roles.includes(authOf(req).role)) done();
    else done(forbidden(message));
  };
}

/**
 * Closed by default outside the two surfaces as well: a route there (API reference, OpenAPI
 * document) is public or answers 401, so nothing is open because it sits outside /api and /v1.
 */
export function requireSurfaceOrPublic(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const config = req.routeOptions.config;
    if (!req.routeOptions.url || config?.public || config?.surface) return done();
    done(unauthorized());
  });
}

/** The session of an authenticated route (the hook above guarantees it). */
export function authOf(req: FastifyRequest): LiveSession {
  const entry = req.remitAuth;
  if (!entry) throw unauthorized();
  return entry.session;
}

/**
 * What a `sessionInTransaction` route must check inside its transaction before it answers (null
 * when the hook has already checked the session row).
 */
export function sessionProofOf(req: FastifyRequest): SessionProof | null {
  const entry = req.remitAuth;
  if (!entry) throw unauthorized();
  return entry.proof ?? null;
}

/** The caller's data scope (row-level security as this user), for the services a route calls. */
export function scopeOf(req: FastifyRequest): UserScope {
  const entry = req.remitAuth;
  if (!entry) throw unauthorized();
  return entry.scope;
}

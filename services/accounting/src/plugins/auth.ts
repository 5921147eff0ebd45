import type { Database } from '@app/shared/db/database';
import { NotifiedCache } from '@app/shared/notified-cache';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Transaction } from 'kysely';
import '@app/shared/routes';
import { type TenantScope, tenantScope } from '../db/tenant-scope.js';
import type { DB, OrganizationCountry, OrganizationLanguage } from '../db/types.js';
import type { Language } from '../lib/catalog.js';
import { AppError } from '../lib/errors.js';
import type { AccessTokens, Role } from '../lib/jwt.js';

export interface Principal {
  userId: string;
  orgId: string;
  role: Role;
  sessionId: string;
  user: {
    id: string;
    email: string;
    fullName: string;
    role: Role;
    twoFactorEnabled: boolean;
    /** ISO 8601, UTC, milliseconds (as Date#toISOString writes it). */
    lastLoginAt: string | null;
    /** Croatian operator OIB for fiscal documents (E1), or null. */
    operatorOib: string | null;
  };
  organization: {
    id: string;
    name: string;
    country: OrganizationCountry;
    baseCurrency: string;
    language: OrganizationLanguage;
  };
}

/** The handle a service's transaction gives to the repositories and posting functions it calls. */
export type TenantTx = Transaction<DB>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Roles allowed on the route; absent = any signed-in user (the default is never restated). A route
     * open to callers without a token says `public: true` instead (closed by default).
     */
    auth?: readonly Role[];
  }
  interface FastifyRequest {
    /** Accounting: the signed-in caller, set by the auth hook (null on public routes); read it with principalOf. */
    auth: Principal | null;
    /** Accounting: builds the caller's organization scope on first use; read it with scopeOf. */
    scope(): TenantScope;
    /** scope()'s cache: built on first use, so a route that needs no statement builds none. */
    tenantScope: TenantScope | null;
  }
}

/**
 * The signed-in caller's scope, for the service the route calls (route handlers never open a
 * transaction themselves; see db/tenant-scope.ts).
 */
export function scopeOf(request: FastifyRequest): TenantScope {
  return request.tenantScope ?? request.scope();
}

/** The signed-in caller of an authenticated route (the auth hook guarantees it; 401 SVC-1005 otherwise). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.auth) throw new AppError('SVC-1005');
  return request.auth;
}

// The one query every authenticated request runs, written once as SQL (no builder work per
// request). Row-level security limits all three tables to the token's organization. It answers
// one JSON column in the Principal's shape rather than thirteen columns: node-postgres's work per
// column of every result (the field parsers and the row object it builds from the row
// description) was about a tenth of GET /auth/me's CPU; JSON.parse of one value costs far less.
// lastLoginAt is written as Date#toISOString writes it.
const PRINCIPAL_SQL = `SELECT json_build_object(
    'user', json_build_object('id', u.id, 'email', u.email, 'fullName', u.full_name, 'role', u.role,
      'twoFactorEnabled', u.two_factor_enabled,
      'lastLoginAt', to_char(u.last_login_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'operatorOib', u.operator_oib),
    'organization', json_build_object('id', o.id, 'name', o.name, 'country', o.country, 'baseCurrency', o.base_currency,
      'language', o.language),
    'isActive', u.is_active, 'revoked', s.revoked_at IS NOT NULL) AS principal
  FROM users u JOIN organizations o ON o.id = u.organization_id
  JOIN sessions s ON s.id = $2 AND s.user_id = u.id
  WHERE u.id = $1`;

interface PrincipalRow {
  principal: { user: Principal['user']; organization: Principal['organization']; isActive: boolean; revoked: boolean };
}

/** The signed-in callers this instance has read, by session id (see NotifiedCache). */
export type PrincipalCache = NotifiedCache<Pick<Principal, 'user' | 'organization'>>;

/** The cache's notification channel; migration 20261127000100 sends on it. */
export const PRINCIPAL_CHANNEL = 'principal_cache';

export function principalCache(maxAgeMs: number): PrincipalCache {
  return new NotifiedCache({ maxEntries: 10_000, maxAgeMs });
}

/** Who may call a route: null = anybody (public), else the roles, 'all' = any signed-in user. */
export function rolesOf(config: FastifyContextConfig | undefined): readonly Role[] | 'all' | null {
  if (config?.public) return null;
  return config?.auth ?? 'all';
}

/** The OpenAPI security requirement of a route: the bearer token, unless the route is public. */
export function openApiSecurity(route: RouteOptions): Array<Record<string, string[]>> | undefined {
  return rolesOf(route.config as FastifyContextConfig | undefined) ? [{ bearerAuth: [] }] : undefined;
}

/**
 * Checks the caller on every authenticated request: the token, then the live user, organization
 * and login, read once per session and kept in `principals` until PostgreSQL notifies a change
 * to one of them (docs/session-cache.md).
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Database<DB>; tokens: AccessTokens; principals: PrincipalCache }) => {
    const { db, tokens, principals } = opts;

    app.decorateRequest('auth', null);
    app.decorateRequest('tenantScope', null);
    app.decorateRequest('scope', function (this: FastifyRequest) {
      const p = principalOf(this);
      this.tenantScope ??= tenantScope(db, p.orgId, p.userId, this.id);
      return this.tenantScope;
    });

    app.addHook('onRoute', (route: RouteOptions) => {
      const config = route.config as FastifyContextConfig | undefined;
      if (config?.public && config.auth)
        throw new Error(`${route.url}: a route is either public or has roles, not both`);
    });

    // A callback hook: public routes and unknown URLs (which fall through to the not-found answer)
    // pass without a promise or a microtask.
    app.addHook('onRequest', (request, _reply, done) => {
      if (!request.routeOptions.url) return done();
      const allowed = rolesOf(request.routeOptions.config);
      if (!allowed) return done();
      authenticate(request, allowed).then(
        () => done(),
        (err: Error) => done(err),
      );
    });

    async function authenticate(
      request: FastifyRequest,
      allowed: NonNullable<ReturnType<typeof rolesOf>>,
    ): Promise<void> {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match) throw new AppError('SVC-1005');
      const claims = await tokens.verify(match[1]);
      let known = principals.get(claims.sid);
      // A session belongs to one user of one organization; the statement below checks the token's
      // user and organization against it, and so does a hit.
      if (!known || known.user.id !== claims.sub || known.organization.id !== claims.org) {
        const ticket = principals.ticket();
        const [row] = await db.query<PrincipalRow>({ kind: 'tenant', orgId: claims.org }, PRINCIPAL_SQL, [
          claims.sub,
          claims.sid,
        ]);
        if (!row) {
          const org = await db.system
            .selectFrom('organizations')
            .select('id')
            .where('id', '=', claims.org)
            .executeTakeFirst();
          throw new AppError(org ? 'SVC-1004' : 'SVC-2001');
        }
        const { user, organization, isActive, revoked } = row.principal;
        // The refusals below answer in the organization's language.
        request.lang = organization.language as Language;
        if (revoked) throw new AppError('SVC-1004');
        if (!isActive) throw new AppError('SVC-1002');
        // Shared by every request of the session from now on: frozen, so no route can change it.
        known = { user: Object.freeze(user), organization: Object.freeze(organization) };
        principals.set(claims.sid, known, [`s:${claims.sid}`, `u:${user.id}`, `o:${organization.id}`], ticket);
      }
      const { user, organization } = known;
      request.lang = organization.language as Language;
      const role = user.role;
      request.auth = { userId: user.id, orgId: organization.id, role, sessionId: claims.sid, user, organization };
      if (allowed !== 'all' && !allowed.includes(role)) {
        throw new AppError('SVC-9001', { required: [...allowed], current: [role] });
      }
    }
  },
);

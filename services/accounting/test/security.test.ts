import { randomUUID } from 'node:crypto';
import { createHttp } from '@app/shared/http';
import { DOCS_ROUTES } from '@app/shared/openapi';
import type { RouteEntry } from '@app/shared/routes';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/jwt.js';
import { authPlugin, principalCache, rolesOf } from '../src/plugins/auth.js';
import { registerErrorHandling } from '../src/plugins/errors.js';
import { crossOrgFixtures } from './cross-org-fixtures.js';
import { addMember, buildTestApp, login, registerOrg, type Session, type TestApp } from './helpers.js';

/**
 * One suite over every route of the app (STYLE 10, 14), read from the route table the app itself
 * builds, so a new route cannot skip it: the public ones are exactly the list below, and every
 * other one is checked with no token, an expired token, a forged token, each role, and another
 * organization's token.
 */
let h: TestApp;
let owner: Session;
const sessions: Record<string, Session> = {};
let routes: RouteEntry[];

/** Routes anybody may call. A new entry here is a decision, reviewed like one. */
const PUBLIC_ROUTES = [
  'OPTIONS *',
  ...DOCS_ROUTES,
  'GET /health',
  'POST /api/v1/auth/register',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/verify-2fa',
  'POST /api/v1/auth/refresh',
  'POST /api/v1/auth/accept-invite',
  'GET /api/v1/public/invoices/:token',
  // The web app (W1, W3): its bundles and index.html for client routes.
  'GET /assets/*',
  'GET /*',
];

beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(h.app);
  sessions.owner = owner;
  for (const role of ['admin', 'accountant', 'viewer'] as const) sessions[role] = await addMember(h.app, owner, role);
  routes = h.app.routeTable.filter((r) => !r.public);
});
afterAll(() => h?.close());

const concrete = (url: string, id: string = randomUUID()) => url.replace(/:[A-Za-z]+/g, id);
const request = (route: RouteEntry, token?: string, id?: string, payload: object = {}) =>
  h.app.inject({
    method: route.method as 'GET',
    url: concrete(route.url, id),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload }),
  });

describe('public routes', () => {
  it('are exactly the listed ones; every other route needs a token', () => {
    const open = h.app.routeTable.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('are only those that say so: a route whose config says nothing needs a token', async () => {
    const app = createHttp({ logLevel: 'silent', trustProxy: false });
    registerErrorHandling(app);
    await app.register(authPlugin, {
      db: h.t.db,
      tokens: new AccessTokens(h.config.jwtSecret, 60_000),
      principals: principalCache(60_000),
    });
    app.get('/forgotten', async () => 'open');
    app.get('/declared', { config: { public: true } }, async () => 'open');
    const forgotten = await app.inject({ url: '/forgotten' });
    expect([forgotten.statusCode, forgotten.json().error.code]).toEqual([401, 'SVC-1005']);
    expect((await app.inject({ url: '/declared' })).statusCode).toBe(200);
    await app.close();
  });

  it('are answered without a token (never the missing-token 401)', async () => {
    for (const route of h.app.routeTable.filter((r) => r.public)) {
      const res = await request(route);
      const code = res.headers['content-type']?.toString().startsWith('application/json')
        ? res.json().error?.code
        : undefined;
      expect({ route: `${route.method} ${route.url}`, code }).not.toEqual({
        route: `${route.method} ${route.url}`,
        code: 'SVC-1005',
      });
    }
  });
});

describe('every authenticated route', () => {
  it('is listed (the suite sees the whole map)', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /api/v1/auth/me',
        'PUT /api/v1/organization',
        'DELETE /api/v1/users/:id',
        'GET /api/v1/audit-log',
      ]),
    );
    expect(routes.length).toBeGreaterThan(10);
  });

  it('answers 401 SVC-1005 without a token', async () => {
    for (const route of routes) {
      const res = await request(route);
      expect({ route: `${route.method} ${route.url}`, status: res.statusCode, code: res.json().error?.code }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
        code: 'SVC-1005',
      });
    }
  });

  it('answers 401 SVC-1003 for an expired token and SVC-1004 for a forged one', async () => {
    const claims = JSON.parse(Buffer.from(owner.token.split('.')[1], 'base64url').toString());
    const key = new TextEncoder().encode(h.config.jwtSecret);
    const expired = await new SignJWT({ org: claims.org, role: 'owner', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(claims.sub)
      .setJti('e')
      .setIssuedAt(1_700_000_000)
      .setExpirationTime(1_700_000_060)
      .sign(key);
    const forged = await new SignJWT({ org: claims.org, role: 'owner', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(claims.sub)
      .setJti('f')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-of-sufficient-length-000000'));
    for (const route of routes) {
      expect([route.url, (await request(route, expired)).json().error.code]).toEqual([route.url, 'SVC-1003']);
      expect([route.url, (await request(route, forged)).json().error.code]).toEqual([route.url, 'SVC-1004']);
    }
  });

  it('answers 403 SVC-9001 with required and current roles to a role the route does not allow, and lets allowed roles through', async () => {
    for (const route of routes) {
      for (const role of ['owner', 'admin', 'accountant', 'viewer']) {
        // Logout ends the session it is called with: give it a throw-away login.
        const token = route.url.endsWith('/logout')
          ? (await login(h.app, sessions[role].email)).json().tokens.accessToken
          : sessions[role].token;
        const res = await request(route, token);
        const roles = rolesOf(route.config)!;
        const allowed = roles === 'all' || (roles as readonly string[]).includes(role);
        if (allowed) {
          expect({ url: route.url, method: route.method, role, status: res.statusCode }).not.toMatchObject({
            status: 403,
          });
          expect(res.statusCode).not.toBe(401);
        } else {
          expect({ url: route.url, role, status: res.statusCode, body: res.json().error }).toEqual({
            url: route.url,
            role,
            status: 403,
            body: {
              code: 'SVC-9001',
              message: expect.any(String),
              details: { required: [...(roles as string[])], current: [role] },
            },
          });
        }
      }
    }
  });

  it("answers another organization's records as 404 and changes nothing", async () => {
    const intruder = await registerOrg(h.app);
    const withIds = routes.filter((r) => r.url.includes(':'));
    for (const route of withIds) {
      const fixture = crossOrgFixtures[`${route.method} ${route.url}`];
      if (!fixture) continue;
      const { id, payload } = fixture(sessions);
      const res = await request(route, intruder.token, id, payload);
      expect([route.method, route.url, res.statusCode]).toEqual([route.method, route.url, 404]);
    }
    const viewer = await h.t.db.system
      .selectFrom('users')
      .select(['role', 'is_active'])
      .where('id', '=', sessions.viewer.userId)
      .executeTakeFirstOrThrow();
    expect(viewer).toEqual({ role: 'viewer', is_active: true });
    // Lists only ever show the caller's organization.
    const users = await h.app.inject({
      method: 'GET',
      url: '/api/v1/users',
      headers: { authorization: `Bearer ${intruder.token}` },
    });
    expect(users.json().data.map((u: { id: string }) => u.id)).toEqual([intruder.userId]);
  });
});

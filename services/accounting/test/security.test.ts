import { randomUUID } from 'node:crypto';
import { createHttp } from '@app/shared/http';
import { DOCS_ROUTES } from '@app/shared/openapi';
import type { RouteEntry } from '@app/shared/routes';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/jwt.js';
import { authPlugin, principalCache } from '../src/plugins/auth.js';
import { registerErrorHandling } from '../src/plugins/errors.js';
import { buildWorld, type CrossOrgFixture, crossOrgFixtures } from './cross-org-fixtures.js';
import { addMember, authed, buildTestApp, login, registerOrg, type Session, type TestApp } from './helpers.js';
import { ROLE_POLICY } from './role-policy.js';

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
  // SEF's notifications (issue 28): the secret URL token is the capability.
  'POST /api/v1/sef/webhook/:token',
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

  it('has an entry in the role policy written from the specification (test/role-policy.ts), and the policy no stale one', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    expect(keys.filter((k) => !ROLE_POLICY[k])).toEqual([]);
    expect(Object.keys(ROLE_POLICY).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('answers 403 SVC-9001 with required and current roles to a role the policy does not allow, and lets allowed roles through', async () => {
    for (const route of routes) {
      const policy = ROLE_POLICY[`${route.method} ${route.url}`];
      expect(policy, `${route.method} ${route.url} has no role policy`).toBeDefined();
      for (const role of ['owner', 'admin', 'accountant', 'viewer'] as const) {
        // Logout ends the session it is called with: give it a throw-away login.
        const token = route.url.endsWith('/logout')
          ? (await login(h.app, sessions[role].email)).json().tokens.accessToken
          : sessions[role].token;
        const res = await request(route, token);
        if (policy.includes(role)) {
          expect({ method: route.method, url: route.url, role, status: res.statusCode }).not.toMatchObject({
            status: 403,
          });
          expect({ method: route.method, url: route.url, role, status: res.statusCode }).not.toMatchObject({
            status: 401,
          });
        } else {
          const error = res.json().error;
          expect({ method: route.method, url: route.url, role, status: res.statusCode, code: error?.code }).toEqual({
            method: route.method,
            url: route.url,
            role,
            status: 403,
            code: 'SVC-9001',
          });
          expect([...error.details.required].sort()).toEqual([...policy].sort());
          expect(error.details.current).toEqual([role]);
        }
      }
    }
  });

  it("answers another organization's records as 404 and changes nothing", async () => {
    const intruder = await registerOrg(h.app);
    const world = await buildWorld(h.app, sessions, h.t.db.system);
    const withIds = routes.filter((r) => r.url.includes(':'));
    const keys = withIds.map((r) => `${r.method} ${r.url}`);
    // Every route with an id has a fixture (a new route without one fails here), and no fixture is stale.
    expect(keys.filter((k) => !crossOrgFixtures[k])).toEqual([]);
    expect(Object.keys(crossOrgFixtures).filter((k) => !keys.includes(k))).toEqual([]);
    const fixtures = withIds.map((route) => ({ route, ...crossOrgFixtures[`${route.method} ${route.url}`](world) }));
    const send = (route: RouteEntry, token: string, f: CrossOrgFixture) =>
      h.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url, f.id),
        headers: { authorization: `Bearer ${token}`, ...(f.multipart?.headers ?? {}) },
        ...(f.multipart
          ? { payload: f.multipart.payload }
          : route.method === 'GET' || route.method === 'DELETE'
            ? {}
            : { payload: f.payload ?? {} }),
      });
    // What organization A sees of its records before: each readable one answers its owner 200, so
    // the intruder's 404 below is about ownership and not about a record that is not there.
    const reads = fixtures.filter((f) => f.route.method === 'GET');
    const lists = [
      '/api/v1/transactions',
      '/api/v1/invoices',
      '/api/v1/expenses',
      '/api/v1/contacts',
      '/api/v1/bank-accounts',
    ];
    const ownerView = async () => ({
      records: await Promise.all(
        reads.map(async (f) => {
          const res = await send(f.route, world.owner.token, f);
          const json = res.headers['content-type']?.toString().startsWith('application/json');
          return { route: f.route.url, status: res.statusCode, body: json ? res.json() : res.rawPayload.length > 0 };
        }),
      ),
      lists: await Promise.all(
        lists.map(async (url) => (await h.app.inject(authed(world.owner.token, { url: `${url}?perPage=100` }))).json()),
      ),
    });
    const before = await ownerView();
    expect(before.records.filter((r) => r.status !== 200)).toEqual([]);
    for (const f of fixtures) {
      const res = await send(f.route, intruder.token, f);
      expect([f.route.method, f.route.url, res.statusCode]).toEqual([f.route.method, f.route.url, f.status ?? 404]);
    }
    expect(await ownerView()).toEqual(before);
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

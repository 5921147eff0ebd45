import { createHttp } from '@app/shared/http';
import { DOCS_ROUTES } from '@app/shared/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../src/errors.js';
import { requireSurfaceOrPublic } from '../src/plugins/authenticate.js';
import { buildTestApp, signInMobile, signInWeb } from './helpers.js';

/**
 * One suite over every route of the app (STYLE 10, 14; R1, R4), read from the route table the app
 * builds: the public ones are exactly the list below, every other one needs a session.
 */
let env: Awaited<ReturnType<typeof buildTestApp>>;
let cookie: string;
let token: string;

beforeAll(async () => {
  env = await buildTestApp();
  cookie = (await signInWeb(env.app)).cookie;
  token = (await signInMobile(env.app)).token;
});
afterAll(async () => env?.close());

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x_unknown');
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Routes anybody may call. A new entry here is a decision, reviewed like one. */
const PUBLIC_ROUTES = [
  'OPTIONS *',
  ...DOCS_ROUTES,
  'GET /api/health',
  'GET /api/rates',
  'GET /api/rates/:currency',
  'GET /api/auth/eid',
  'GET /api/auth/eid/callback',
  'GET /api/auth/eid/mock/authorize',
  'POST /api/auth/login',
  'POST /api/auth/register',
  'POST /api/auth/verify-otp',
  'GET /api/open-banking/callback',
  'GET /api/open-banking/sandbox/authorize',
  'GET /api/payments/callback',
  'GET /v1/health',
  'GET /v1/rates',
  'GET /v1/rates/:currency',
  'GET /v1/auth/eid/initiate',
  'POST /v1/auth/eid/callback',
  'POST /v1/auth/login',
  'POST /v1/auth/register',
  'POST /v1/auth/verify-otp',
  // The web app (W2, W3): its hashed assets and index.html for client routes.
  'GET /assets/*',
  'GET /*',
];

describe('public routes', () => {
  it('are exactly the listed ones; every other route needs a session', () => {
    const open = env.app.remitRoutes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('are only those that say so: a route outside the surfaces whose config says nothing answers 401', async () => {
    const app = createHttp({ logLevel: 'silent', trustProxy: false });
    registerErrorHandling(app);
    requireSurfaceOrPublic(app);
    app.get('/forgotten', async () => 'open');
    app.get('/declared', { config: { public: true } }, async () => 'open');
    expect((await app.inject({ url: '/forgotten' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/declared' })).statusCode).toBe(200);
    await app.close();
  });

  it('are answered without a token (never 401)', async () => {
    for (const r of env.app.remitRoutes.filter((x) => x.public)) {
      const res = await env.app.inject({
        method: r.method as Method,
        url: concrete(r.url),
        headers: { origin: 'http://127.0.0.1:3001' },
      });
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).not.toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      });
    }
  });
});

describe('every authenticated route', () => {
  const routes = () => env.app.remitRoutes.filter((r) => !r.public);
  const onSurface = (url: string) => url.startsWith('/api/') || url.startsWith('/v1/');

  it('exists on both surfaces', () => {
    const api = routes()
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url.slice(4)}`)
      .sort();
    const v1 = routes()
      .filter((r) => r.url.startsWith('/v1/'))
      .map((r) => `${r.method} ${r.url.slice(3)}`)
      .sort();
    expect(api.length).toBeGreaterThan(5);
    expect(v1).toEqual(api);
  });

  it("answers 401 without a token, and to the other surface's token", async () => {
    for (const r of routes()) {
      const url = concrete(r.url);
      const method = r.method as Method;
      const none = await env.app.inject({ method, url, headers: { origin: 'http://127.0.0.1:3001' } });
      expect(none.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(none.json().error).toBe('unauthorized');
      if (!onSurface(url)) continue;
      const crossed = url.startsWith('/v1/')
        ? await env.app.inject({ method, url, headers: { authorization: `Bearer ${cookie}` } })
        : await env.app.inject({
            method,
            url,
            cookies: { app_token: token },
            headers: { origin: 'http://127.0.0.1:3001' },
          });
      expect(crossed.statusCode, `${r.method} ${r.url} with the other surface's token`).toBe(401);
    }
  });

  it('refuses cookie-authenticated state changes on /api without an allowed Origin', async () => {
    const unsafe = routes().filter((r) => r.url.startsWith('/api/') && UNSAFE.has(r.method));
    expect(unsafe.length).toBeGreaterThan(3);
    for (const r of unsafe) {
      const res = await env.app.inject({
        method: r.method as Method,
        url: concrete(r.url),
        cookies: { app_token: cookie },
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });
});

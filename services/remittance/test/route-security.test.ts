import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInMobile, signInWeb, startApp } from './helpers.js';

/** One suite over every authenticated route of both surfaces (STYLE 10, R1, R4). */
let env: Awaited<ReturnType<typeof startApp>>;
let cookie: string;
let token: string;

beforeAll(async () => {
  env = await startApp();
  cookie = (await signInWeb(env.app)).cookie;
  token = (await signInMobile(env.app)).token;
});
afterAll(async () => env?.close());

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x_unknown');
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe('every authenticated route', () => {
  const routes = () => env.app.remitRoutes.filter((r) => !r.isPublic && (r.url.startsWith('/api/') || r.url.startsWith('/v1/')));

  it('exists on both surfaces', () => {
    const api = routes().filter((r) => r.url.startsWith('/api/')).map((r) => `${r.method} ${r.url.slice(4)}`).sort();
    const v1 = routes().filter((r) => r.url.startsWith('/v1/')).map((r) => `${r.method} ${r.url.slice(3)}`).sort();
    expect(api.length).toBeGreaterThan(5);
    expect(v1).toEqual(api);
  });

  it('answers 401 without a token, and to the other surface\'s token', async () => {
    for (const r of routes()) {
      const url = concrete(r.url);
      const method = r.method as Method;
      const none = await env.app.inject({ method, url, headers: { origin: 'http://localhost:3001' } });
      expect(none.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(none.json().error).toBe('unauthorized');
      const crossed = url.startsWith('/v1/')
        ? await env.app.inject({ method, url, headers: { authorization: `Bearer ${cookie}` } })
        : await env.app.inject({ method, url, cookies: { app_token: token }, headers: { origin: 'http://localhost:3001' } });
      expect(crossed.statusCode, `${r.method} ${r.url} with the other surface's token`).toBe(401);
    }
  });

  it('refuses cookie-authenticated state changes on /api without an allowed Origin', async () => {
    const unsafe = routes().filter((r) => r.url.startsWith('/api/') && UNSAFE.has(r.method));
    expect(unsafe.length).toBeGreaterThan(3);
    for (const r of unsafe) {
      const res = await env.app.inject({ method: r.method as Method, url: concrete(r.url), cookies: { app_token: cookie } });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });
});

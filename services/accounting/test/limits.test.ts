import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, STRONG_PASSWORD, type TestApp, uniqueEmail } from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

describe('sign-in lockout (A17)', () => {
  it('answers the 6th register/login request within 60 s with 429 SVC-1007 and locks the IP for 900 s', async () => {
    const ip = '192.0.2.10';
    const attempt = (i: number) =>
      i % 2 === 0
        ? h.app.inject({
            method: 'POST',
            url: '/api/v1/auth/login',
            remoteAddress: ip,
            payload: { email: uniqueEmail(), password: 'Wrong-pass1' },
          })
        : h.app.inject({ method: 'POST', url: '/api/v1/auth/register', remoteAddress: ip, payload: {} });
    for (let i = 0; i < 5; i++) {
      const res = await attempt(i);
      expect(res.statusCode).not.toBe(429);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const before = Math.floor(Date.now() / 1000);
    const sixth = await attempt(5);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.code).toBe('SVC-1007');
    expect(sixth.headers['retry-after']).toBe('900');
    expect(sixth.headers['x-ratelimit-limit']).toBe('5');
    expect(sixth.headers['x-ratelimit-remaining']).toBe('0');
    const reset = Number(sixth.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThanOrEqual(before + 899);
    expect(reset).toBeLessThanOrEqual(before + 902);

    // Still locked, even with valid credentials, while another IP is unaffected.
    const owner = await registerOrg(h.app);
    const locked = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: ip,
      payload: { email: owner.email, password: STRONG_PASSWORD },
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(890);
    const other = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '192.0.2.11',
      payload: { email: owner.email, password: STRONG_PASSWORD },
    });
    expect(other.statusCode).toBe(200);
  });

  it('keys on X-Forwarded-For only when TRUST_PROXY is on', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: 'true' });
    try {
      const send = (client: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { email: uniqueEmail(), password: 'x' },
        });
      for (let i = 0; i < 5; i++) await send('198.51.100.1');
      expect((await send('198.51.100.1')).statusCode).toBe(429);
      expect((await send('198.51.100.2')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY the header is ignored: every request counts for the socket address.
    const direct = await buildTestApp();
    try {
      for (let i = 0; i < 5; i++) {
        await direct.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          remoteAddress: '203.0.113.5',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: { email: uniqueEmail(), password: 'x' },
        });
      }
      const res = await direct.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '203.0.113.5',
        headers: { 'x-forwarded-for': '198.51.100.99' },
        payload: { email: uniqueEmail(), password: 'x' },
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe('trusted proxies (issue 33 item 2)', () => {
  // The proxy appends the address it saw; everything left of it is the client's own writing.
  const forged = (i: number) => `198.51.100.${i}, 203.0.113.77`;
  for (const trust of ['1', '127.0.0.0/8']) {
    it(`TRUST_PROXY=${trust}: a forged X-Forwarded-For entry does not give the lockout a new address`, async () => {
      const proxied = await buildTestApp({ TRUST_PROXY: trust });
      try {
        const codes: number[] = [];
        for (let i = 0; i < 12; i++) {
          const res = await proxied.app.inject({
            method: 'POST',
            url: '/api/v1/auth/login',
            remoteAddress: '127.0.0.1',
            headers: { 'x-forwarded-for': forged(i) },
            payload: { email: uniqueEmail(), password: 'x' },
          });
          codes.push(res.statusCode);
        }
        expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
        expect(codes.slice(5)).toEqual(Array(7).fill(429));
        // The client behind the proxy is the rightmost untrusted entry, not the socket address.
        const other = await proxied.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '203.0.113.78' },
          payload: { email: uniqueEmail(), password: 'x' },
        });
        expect(other.statusCode).toBe(401);
      } finally {
        await proxied.close();
      }
    });
  }
});

describe('per-route limits', () => {
  it('answers 429 SVC-9005 with Retry-After past the route limit, per user', async () => {
    const a = await registerOrg(h.app);
    const b = await registerOrg(h.app);
    const put = (token: string) =>
      h.app.inject(authed(token, { method: 'PUT', url: '/api/v1/organization', payload: {} }));
    for (let i = 0; i < 10; i++) expect((await put(a.token)).statusCode).toBe(200);
    const over = await put(a.token);
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('SVC-9005');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another user and another route keep their own budgets.
    expect((await put(b.token)).statusCode).toBe(200);
    expect((await h.app.inject(authed(a.token, { method: 'GET', url: '/api/v1/organization' }))).statusCode).toBe(200);
  });

  it('disables every limit with RATE_LIMITS=off', async () => {
    const off = await buildTestApp({ RATE_LIMITS: 'off' });
    try {
      for (let i = 0; i < 8; i++) {
        const res = await off.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          remoteAddress: '192.0.2.99',
          payload: { email: uniqueEmail(), password: 'x' },
        });
        expect(res.statusCode).toBe(401);
      }
    } finally {
      await off.close();
    }
  });
});

describe.runIf(process.env.REDIS_URL)('limits shared through Redis (G4)', () => {
  it('enforces one lockout window across two instances', async () => {
    const first = await buildTestApp({ REDIS_URL: process.env.REDIS_URL! });
    const second = await buildTestApp({ REDIS_URL: process.env.REDIS_URL! });
    try {
      const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const send = (app: TestApp) =>
        app.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          remoteAddress: ip,
          payload: { email: uniqueEmail(), password: 'x' },
        });
      for (let i = 0; i < 5; i++) expect((await send(i % 2 ? first : second)).statusCode).toBe(401);
      expect((await send(first)).statusCode).toBe(429);
      expect((await send(second)).statusCode).toBe(429);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

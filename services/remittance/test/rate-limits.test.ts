import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { partPresent } from '@app/shared/test/parts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, nextPid, signInMobile } from './helpers.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const u = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const s = connect({ host: u.hostname, port: Number(u.port || 6379) });
    s.setTimeout(300);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

describe('rate limits (R15)', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    env = await buildTestApp({ RATE_LIMITS: 'on', TRUST_PROXY: 'true' });
  });
  afterAll(async () => env?.close());

  const hit = (url: string, ip: string, method: 'GET' | 'POST' = 'GET') =>
    env.app.inject({ method, url, headers: { 'x-forwarded-for': ip } });

  it('allows 10 eID starts a minute per IP, then answers 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 10; i++) expect((await hit('/api/auth/eid', '10.0.0.1')).statusCode).toBe(200);
    const limited = await hit('/api/auth/eid', '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another client (X-Forwarded-For with TRUST_PROXY) has its own budget.
    expect((await hit('/api/auth/eid', '10.0.0.2')).statusCode).toBe(200);
  });

  it('limits the mobile callback and the old password endpoints at 10 a minute too', async () => {
    for (let i = 0; i < 10; i++) expect((await hit('/v1/auth/login', '10.0.1.1', 'POST')).statusCode).toBe(410);
    expect((await hit('/v1/auth/login', '10.0.1.1', 'POST')).statusCode).toBe(429);
  });

  it('allows 120 rate reads a minute', async () => {
    for (let i = 0; i < 120; i++) expect((await hit('/api/rates', '10.0.2.1')).statusCode).toBe(200);
    expect((await hit('/api/rates', '10.0.2.1')).statusCode).toBe(429);
  });

  it('limits every other route at 100 a minute', async () => {
    for (let i = 0; i < 100; i++) expect((await hit('/v1/health', '10.0.3.1')).statusCode).toBe(200);
    const limited = await hit('/v1/health', '10.0.3.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('allows 10 remittances and 10 QR payments a minute per IP, each route its own budget', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    const post = (url: string, ip: string) =>
      env.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip },
        payload: {},
      });
    for (const url of ['/v1/transactions/remittance', '/v1/transactions/qr-payment']) {
      // Refused bodies count too: the limit guards the route, not only successful payments.
      for (let i = 0; i < 10; i++) expect((await post(url, '10.0.4.1')).statusCode, url).toBe(400);
      const limited = await post(url, '10.0.4.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('rate_limited');
      expect((await post(url, '10.0.4.2')).statusCode).toBe(400);
    }
  });

  it('RATE_LIMITS=off disables them', async () => {
    const off = await buildTestApp({ RATE_LIMITS: 'off' });
    try {
      for (let i = 0; i < 12; i++)
        expect((await off.app.inject({ method: 'GET', url: '/api/auth/eid' })).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('rate limits with Redis down (issue 33 item 12)', () => {
  it('count in memory instead of letting every request through', async () => {
    // Nothing listens on port 1: every Redis command fails.
    const down = await buildTestApp({ RATE_LIMITS: 'on', REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      for (let i = 0; i < 10; i++)
        expect((await down.app.inject({ method: 'GET', url: '/api/auth/eid' })).statusCode).toBe(200);
      const limited = await down.app.inject({ method: 'GET', url: '/api/auth/eid' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await down.close();
    }
  });
});

describe('rate limits shared through Redis (G4)', async () => {
  const reachable = partPresent(
    'Redis',
    (await redisReachable()) ? null : `nothing answers at ${REDIS_URL}`,
    'rate-limits (shared through Redis)',
  );
  it.skipIf(!reachable)('two instances with REDIS_URL enforce one limit', async () => {
    const prefix = `remittance-rl-test-${randomBytes(4).toString('hex')}:`;
    const a = await buildTestApp({ RATE_LIMITS: 'on', REDIS_URL, RATE_LIMIT_PREFIX: prefix });
    const b = await buildTestApp({ RATE_LIMITS: 'on', REDIS_URL, RATE_LIMIT_PREFIX: prefix });
    try {
      for (let i = 0; i < 6; i++)
        expect((await a.app.inject({ method: 'GET', url: '/api/auth/eid' })).statusCode).toBe(200);
      for (let i = 0; i < 4; i++)
        expect((await b.app.inject({ method: 'GET', url: '/api/auth/eid' })).statusCode).toBe(200);
      const limited = await b.app.inject({ method: 'GET', url: '/api/auth/eid' });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await a.app.inject({ method: 'GET', url: '/api/auth/eid' })).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.js';

describe('trusted proxies (issue 33 item 2)', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    // One proxy hop: the proxy appends the address it saw, the entries left of it are the client's.
    env = await buildTestApp({ RATE_LIMITS: 'on', TRUST_PROXY: '1' });
  });
  afterAll(async () => env?.close());

  it('a client writing a new X-Forwarded-For entry on each request stays one address for the limits', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await env.app.inject({
        method: 'GET',
        url: '/api/auth/eid',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(codes.slice(10)).toEqual([429, 429]);
    const other = await env.app.inject({
      method: 'GET',
      url: '/api/auth/eid',
      headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.10' },
    });
    expect(other.statusCode).toBe(200);
  });
});

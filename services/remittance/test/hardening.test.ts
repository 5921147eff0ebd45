import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signInMobile, type TestApp } from './helpers.js';

// CONTRACT G14 (strings PostgreSQL cannot hold) and G15 (framework errors and outages in the
// R2 envelope). The robustness suite walks every operation; these pin the answers themselves.
let s: Awaited<ReturnType<typeof buildTestApp>>;
let app: TestApp;
let token: string;
beforeAll(async () => {
  s = await buildTestApp();
  app = s.app;
  token = (await signInMobile(app)).token;
});
afterAll(() => s?.close());

function expectR2(
  res: { statusCode: number; json(): any; headers: Record<string, unknown> },
  status: number,
  error: string,
) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body).toEqual(expect.objectContaining({ error, message: expect.any(String) }));
  expect(Object.keys(body).every((k) => ['error', 'message', 'details'].includes(k))).toBe(true);
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
}

describe('strings PostgreSQL cannot hold (G14)', () => {
  it('refuses a NUL in the eID callback state with 400 bad_request naming the field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      payload: { code: 'abc', state: 'st\u0000ate', platform: 'mobile' },
    });
    expectR2(res, 400, 'bad_request');
    expect(res.json().details).toEqual([{ field: 'state', message: expect.any(String) }]);
  });

  it('refuses a lone surrogate in a body string', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      headers: { 'content-type': 'application/json' },
      payload: '{"code":"\\udc00","state":"s","platform":"mobile"}',
    });
    expectR2(res, 400, 'bad_request');
    expect(res.json().details).toEqual([{ field: 'code', message: expect.any(String) }]);
  });

  it('refuses a NUL in a path id and in a query value', async () => {
    const path = await app.inject({ method: 'DELETE', url: '/v1/open-banking/consents/%00', ...bearer(token) });
    expectR2(path, 400, 'bad_request');
    expect(path.json().details).toEqual([{ field: 'id', message: expect.any(String) }]);
    const primary = await app.inject({ method: 'POST', url: '/v1/bank-accounts/%00/primary', ...bearer(token) });
    expectR2(primary, 400, 'bad_request');
    const query = await app.inject({ method: 'GET', url: '/api/open-banking/callback?consentId=%00&state=x' });
    expectR2(query, 400, 'bad_request');
    expect(query.json().details).toEqual([{ field: 'consentId', message: expect.any(String) }]);
  });
});

describe('errors raised before a handler runs (G15)', () => {
  it('answers an over-long path parameter with 404 not_found', async () => {
    const res = await app.inject({
      method: 'DELETE',
      url: `/v1/open-banking/consents/${'a'.repeat(3000)}`,
      ...bearer(token),
    });
    expectR2(res, 404, 'not_found');
  });

  it('answers a bad percent-encoding in the path with 400 bad_request', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/v1/open-banking/consents/%E0%A4%A', ...bearer(token) });
    expectR2(res, 400, 'bad_request');
  });

  it('answers malformed JSON 400, an unknown content type 415 and a too large body 413', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      headers: { 'content-type': 'application/json' },
      payload: '{"code":',
    });
    expectR2(bad, 400, 'bad_request');
    const xml = await app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expectR2(xml, 415, 'unsupported_media_type');
    // text/plain has a parser: the string then fails the body schema like any wrong type.
    const text = await app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expectR2(text, 400, 'bad_request');
    const big = await app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ code: 'c'.repeat(2 * 1024 * 1024), state: 's', platform: 'mobile' }),
    });
    expectR2(big, 413, 'payload_too_large');
  });
});

describe('a database that is gone (G15)', () => {
  it('answers 503 service_unavailable with Retry-After: 1 and health 503', async () => {
    const own = await buildTestApp();
    try {
      const { token: t } = await signInMobile(own.app);
      await own.db.close();
      const res = await own.app.inject({ method: 'GET', url: '/v1/bank-accounts', ...bearer(t) });
      expectR2(res, 503, 'service_unavailable');
      expect(res.headers['retry-after']).toBe('1');
      const health = await own.app.inject({ method: 'GET', url: '/v1/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'error', db: 'disconnected' });
    } finally {
      await own.app.close();
    }
  });
});

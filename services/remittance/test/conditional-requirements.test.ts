import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signInMobile, signInWeb, web } from './helpers.js';

// Issue 25 item 3: every "required when" / "required for" rule of the remittance specification
// follows R2: a missing field is 400 bad_request naming it. The specification has one such rule:
// POST /transactions/disclosure, recipientId "required for remittance".
let env: Awaited<ReturnType<typeof buildTestApp>>;
let cookie: string;
let token: string;

beforeAll(async () => {
  env = await buildTestApp();
  cookie = (await signInWeb(env.app)).cookie;
  token = (await signInMobile(env.app)).token;
}, 60_000);
afterAll(() => env?.close());

describe('POST /transactions/disclosure: recipientId required for a remittance', () => {
  it.each(['/api', '/v1'])(
    '%s: type remittance without recipientId is 400 bad_request naming recipientId',
    async (surface) => {
      const res = await env.app.inject({
        method: 'POST',
        url: `${surface}/transactions/disclosure`,
        ...(surface === '/api' ? web(cookie) : bearer(token)),
        payload: { type: 'remittance', amount: 1000 },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'bad_request',
        message: expect.any(String),
        details: [{ field: 'recipientId', message: 'is required when type is remittance' }],
      });
    },
  );

  it('type qr_payment needs no recipientId', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/v1/transactions/disclosure',
      ...bearer(token),
      payload: { type: 'qr_payment', amount: 1000 },
    });
    expect([res.statusCode, res.json().estimatedDelivery]).toEqual([200, 'Instant']);
  });
});

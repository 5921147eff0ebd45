import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemittanceResponse } from '../src/modules/payments/payments.schemas.js';
import { RatesResponse } from '../src/modules/rates/rates.schemas.js';
import { buildTestApp, linkSandboxBank, nextPid, signInWeb, web } from './helpers.js';

/**
 * The hand-written statements of payments.sql.ts (the remittance context, the debit with its
 * transaction and initiation) run on a migrated database through the route that uses them, and the
 * rates page (JSON text sent as built), held to their routes' response schemas with Value.Check:
 * every required key present with its type, so a key renamed in the SQL fails here.
 */
let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp({ SANDBOX_SETTLEMENT_SECONDS: '0' });
});
afterAll(async () => env?.close());

function expectSchema(schema: TSchema, value: unknown, what: string) {
  const errors = [...Value.Errors(schema, value)].map((e) => `${e.instancePath} ${e.message}`);
  expect(errors, what).toEqual([]);
}

describe('payments.sql.ts', () => {
  it('REMIT_CONTEXT_SQL, DEBIT_RECORD_SQL and INITIATION_SQL: the remittance matches RemittanceResponse', async () => {
    const auth = web(
      (await signInWeb(env.app, { pid: nextPid(), given_name: 'Kari', family_name: 'Nordmann' })).cookie,
    );
    await linkSandboxBank(env.app, auth, '/api');
    const recipient = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...auth,
      payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
    });
    expect(recipient.statusCode, recipient.body).toBe(201);
    for (const key of [undefined, 'hot-sql-key-1']) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/transactions/remittance',
        ...auth,
        headers: { ...auth.headers, ...(key ? { 'idempotency-key': key } : {}) },
        payload: { recipientId: recipient.json().data.id, amount: 1000 },
      });
      expect(res.statusCode, res.body).toBe(201);
      expectSchema(RemittanceResponse, res.json(), `POST /api/transactions/remittance, key ${key ?? 'none'}`);
    }
  });
});

describe('rates', () => {
  it('the rates page built as JSON text matches RatesResponse', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/rates' });
    expect(res.statusCode).toBe(200);
    expectSchema(RatesResponse, JSON.parse(res.body), 'GET /api/rates');
  });
});

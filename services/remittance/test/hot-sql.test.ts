import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemittanceResponse } from '../src/modules/payments/payments.schemas.js';
import { RatesResponse } from '../src/modules/rates/rates.schemas.js';
import { TransactionListResponse } from '../src/modules/transactions/transactions.schemas.js';
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

describe('transactions.sql.ts', () => {
  it('the history page built as JSON text matches TransactionListResponse, the detail of each row and JSON.stringify', async () => {
    const auth = web((await signInWeb(env.app, { pid: nextPid(), given_name: 'Ola', family_name: 'Nordmann' })).cookie);
    await linkSandboxBank(env.app, auth, '/api');
    const recipient = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...auth,
      payload: {
        name: 'Đorđe "Đoka" Šćekić \\ ✓',
        country: 'RS',
        currency: 'RSD',
        bankAccount: 'RS35260005601001611379',
      },
    });
    expect(recipient.statusCode, recipient.body).toBe(201);
    const amounts = [1000, 250.5, 199.99, 100.1];
    for (const amount of amounts) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/transactions/remittance',
        ...auth,
        payload: { recipientId: recipient.json().data.id, amount },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const url of [
      '/api/transactions',
      '/api/transactions?limit=2&page=2',
      '/api/transactions?type=remittance&status=completed',
      '/api/transactions?type=qr_payment',
      '/api/transactions?page=9',
    ]) {
      const res = await env.app.inject({ method: 'GET', url, ...auth });
      expect(res.statusCode, res.body).toBe(200);
      const body = JSON.parse(res.body);
      expectSchema(TransactionListResponse, body, `GET ${url}`);
      // The text is what Fastify would have written for the same object.
      expect(res.body, url).toBe(JSON.stringify(body));
      for (const item of body.data) {
        const detail = (await env.app.inject({ method: 'GET', url: `/api/transactions/${item.id}`, ...auth })).json()
          .data;
        expect(item).toEqual({
          id: detail.id,
          type: detail.type,
          status: detail.status,
          amount: -detail.sendAmount,
          currency: detail.sendCurrency,
          recipientName: 'Đorđe "Đoka" Šćekić \\ ✓',
          createdAt: detail.createdAt,
        });
      }
    }
    const all = JSON.parse((await env.app.inject({ method: 'GET', url: '/api/transactions', ...auth })).body);
    expect(all.pagination).toEqual({ page: 1, limit: 20, total: amounts.length });
    // Newest first.
    expect(all.data.map((t: { amount: number }) => t.amount)).toEqual(amounts.map((a) => -a).reverse());
    const second = JSON.parse(
      (await env.app.inject({ method: 'GET', url: '/api/transactions?limit=2&page=2', ...auth })).body,
    );
    expect(second.data.map((t: { id: string }) => t.id)).toEqual(all.data.slice(2, 4).map((t: { id: string }) => t.id));
    const none = JSON.parse((await env.app.inject({ method: 'GET', url: '/api/transactions?page=9', ...auth })).body);
    expect(none).toEqual({ data: [], pagination: { page: 9, limit: 20, total: amounts.length } });
  });
});

describe('rates', () => {
  it('the rates page built as JSON text matches RatesResponse', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/rates' });
    expect(res.statusCode).toBe(200);
    expectSchema(RatesResponse, JSON.parse(res.body), 'GET /api/rates');
  });
});

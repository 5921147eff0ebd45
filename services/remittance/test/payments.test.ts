import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { type UserScope, userScope } from '../src/db/user-scope.js';
import { ProviderError } from '../src/modules/open-banking/providers/provider.js';
import { storeIdempotentResponse } from '../src/modules/payments/idempotency.js';
import type { StoredOrder } from '../src/modules/payments/payments.repository.js';
import { loadPayment, recordAnswer } from '../src/modules/payments/payments.repository.js';
import {
  driveIntent,
  payQr,
  qrIntent,
  remit as remitPayment,
  remittanceIntent,
  resumePayments,
  settle,
} from '../src/modules/payments/payments.service.js';
import { DEBIT_RECORD_SQL, REMIT_CONTEXT_SQL } from '../src/modules/payments/payments.sql.js';
import { bearer, buildTestApp, linkSandboxBank, nextPid, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  env = await buildTestApp({ SANDBOX_SETTLEMENT_SECONDS: '0' });
});
afterAll(async () => env?.close());

type Auth = ReturnType<typeof web> | ReturnType<typeof bearer>;

/** A user with the sandbox accounts linked and one recipient in the given corridor. */
async function payer(
  surface: '/api' | '/v1' = '/api',
  recipient = { country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
) {
  const auth: Auth =
    surface === '/api'
      ? web((await signInWeb(env.app, { pid: nextPid(), given_name: 'Kari', family_name: 'Nordmann' })).cookie)
      : bearer((await signInMobile(env.app, { pid: nextPid() })).token);
  const userId = (await env.app.inject({ method: 'GET', url: `${surface}/auth/me`, ...auth })).json().data.id as string;
  const { primaryId } = await linkSandboxBank(env.app, auth, surface);
  const r = await env.app.inject({
    method: 'POST',
    url: `${surface}/recipients`,
    ...auth,
    payload: { name: 'Marko Marković', ...recipient },
  });
  return { auth, surface, userId, primaryId, recipientId: r.json().data.id as string };
}

const balanceOf = async (accountId: string) =>
  (
    await env.db.system
      .selectFrom('bank_accounts')
      .select('balance')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow()
  ).balance;

/** A remittance intent stored by the service (debit reserved, nothing sent to the bank yet): its id. */
async function intentOf(p: Awaited<ReturnType<typeof payer>>, amount: number) {
  const intent = await remittanceIntent(
    env.app.ctx.payments,
    userScope(env.db, p.userId),
    { recipientId: p.recipientId, amount },
    null,
  );
  if (!('transactionId' in intent)) throw new Error('expected an intent');
  return intent.transactionId;
}

/** The intent's lease run out, so the recovery job takes it now. */
const dueNow = (id: string) =>
  sql`UPDATE payment_initiations SET lease_until = now() - interval '1 second' WHERE transaction_id = ${id}`.execute(
    env.db.system,
  );

const remit = (
  p: { auth: Auth; surface: string },
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  env.app.inject({
    method: 'POST',
    url: `${p.surface}/transactions/remittance`,
    ...p.auth,
    headers: { ...p.auth.headers, ...headers },
    payload,
  });

describe('POST /transactions/remittance (R9)', () => {
  it('debits amount plus 0.5 % fee, records a processing transaction and its payment initiation, on both surfaces', async () => {
    for (const surface of ['/api', '/v1'] as const) {
      const p = await payer(surface);
      const res = await remit(p, { recipientId: p.recipientId, amount: 1000 });
      expect(res.statusCode).toBe(201);
      const rate = (
        await env.db.system
          .selectFrom('exchange_rates')
          .select('rate')
          .where('currency', '=', 'RSD')
          .executeTakeFirstOrThrow()
      ).rate;
      expect(res.json().data).toEqual({
        id: expect.stringMatching(/^tx_rem_[0-9a-f]{16}$/),
        type: 'remittance',
        status: 'processing',
        sendAmount: 1000,
        sendCurrency: 'NOK',
        receiveAmount: Math.round(1000 * Number(rate) * 100) / 100,
        receiveCurrency: 'RSD',
        exchangeRate: Number(rate),
        fee: 5,
        feePercent: 0.5,
        total: 1005,
        recipientName: 'Marko Marković',
        recipientCountry: 'RS',
        fromAccount: 'Sandbox Bank',
        eta: '2-4 business days',
        createdAt: expect.any(String),
      });
      expect(await balanceOf(p.primaryId)).toBe('48995.00');
      const init = await env.db.system
        .selectFrom('payment_initiations')
        .selectAll()
        .where('transaction_id', '=', res.json().data.id)
        .executeTakeFirstOrThrow();
      expect(init).toMatchObject({ user_id: p.userId, provider: 'sandbox', amount: '1005.00' });
      const bank = await env.db.system
        .selectFrom('sandbox_bank_payments')
        .selectAll()
        .where('id', '=', init.external_payment_id)
        .executeTakeFirstOrThrow();
      expect(bank).toMatchObject({ amount: '1005.00', creditor_account: 'RS35260005601001611379', status: 'pending' });
    }
  });

  it('answers createdAt as the stored time and refuses a consent past its expiry that the job has not marked yet', async () => {
    const p = await payer('/v1');
    const res = await remit(p, { recipientId: p.recipientId, amount: 200 });
    expect(res.statusCode).toBe(201);
    const row = await env.db.system
      .selectFrom('transactions')
      .select('created_at')
      .where('id', '=', res.json().data.id)
      .executeTakeFirstOrThrow();
    expect(res.json().data.createdAt).toBe(row.created_at.toISOString());
    const consent = (
      await env.db.system
        .selectFrom('bank_accounts')
        .select('consent_id')
        .where('id', '=', p.primaryId)
        .executeTakeFirstOrThrow()
    ).consent_id!;
    await env.db.system
      .updateTable('ob_consents')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', consent)
      .execute();
    const expired = await remit(p, { recipientId: p.recipientId, amount: 200 });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ error: 'no_bank_account', message: expect.stringContaining('expired') });
    expect(await balanceOf(p.primaryId)).toBe('49799.00');
    await env.db.system
      .updateTable('ob_consents')
      .set({ expires_at: new Date(Date.now() + 60_000) })
      .where('id', '=', consent)
      .execute();
    expect((await remit(p, { recipientId: p.recipientId, amount: 200 })).statusCode).toBe(201);
  });

  it('rounds the fee and the receive amount half-up to cents and gives the EEA eta for PL', async () => {
    const p = await payer('/api', { country: 'PL', currency: 'PLN', bankAccount: 'PL61109010140000071219812874' });
    await env.db.system
      .updateTable('exchange_rates')
      .set({ rate: '0.36215000' })
      .where('currency', '=', 'PLN')
      .execute();
    const res = await remit(p, { recipientId: p.recipientId, amount: 100.9 });
    expect(res.statusCode).toBe(201);
    // fee 100.90 * 0.005 = 0.5045 -> 0.50; receive 100.90 * 0.36215 = 36.540935 -> 36.54
    expect(res.json().data).toMatchObject({ fee: 0.5, total: 101.4, receiveAmount: 36.54, eta: '1-2 business days' });
  });

  it('accepts 100.00 and 50000.00 and refuses 99.99, 50000.01 and 100.001 with 422', async () => {
    const p = await payer('/v1');
    for (const amount of [99.99, 50000.01, 100.001]) {
      const res = await remit(p, { recipientId: p.recipientId, amount });
      expect(res.statusCode, String(amount)).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'amount' }] });
    }
    expect((await remit(p, { recipientId: p.recipientId, amount: 100 })).statusCode).toBe(201);
    // 50000 + 250 fee exceeds the 49899.50 left: the upper bound itself is accepted, then the balance decides.
    const top = await remit(p, { recipientId: p.recipientId, amount: 50000 });
    expect(top.statusCode).toBe(402);
    await env.db.system
      .updateTable('bank_accounts')
      .set({ balance: '60000.00' })
      .where('id', '=', p.primaryId)
      .execute();
    await env.db.system
      .updateTable('sandbox_bank_accounts')
      .set({ balance: '60000.00' })
      .where('is_checking', '=', true)
      .execute();
    expect((await remit(p, { recipientId: p.recipientId, amount: 50000 })).statusCode).toBe(201);
  });

  it('pays with the exact balance and refuses one cent short with 402 insufficient_balance, debiting nothing', async () => {
    const p = await payer('/api');
    await env.db.system
      .updateTable('bank_accounts')
      .set({ balance: '1005.00' })
      .where('id', '=', p.primaryId)
      .execute();
    const short = await remit(p, { recipientId: p.recipientId, amount: 1000.01 });
    expect(short.statusCode).toBe(402);
    expect(short.json().error).toBe('insufficient_balance');
    expect(await balanceOf(p.primaryId)).toBe('1005.00');
    const exact = await remit(p, { recipientId: p.recipientId, amount: 1000 });
    expect(exact.statusCode).toBe(201);
    expect(await balanceOf(p.primaryId)).toBe('0.00');
  });

  it('refuses non-numbers and missing fields with 400 bad_request', async () => {
    const p = await payer('/v1');
    for (const payload of [
      { recipientId: p.recipientId, amount: 'Infinity' },
      { recipientId: p.recipientId, amount: '1000' },
      { amount: 1000 },
      {},
    ]) {
      const res = await remit(p, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
    const currency = await remit(p, { recipientId: p.recipientId, amount: 1000, currency: 'EUR' });
    expect(currency.statusCode).toBe(422);
  });

  it("answers 404 for another user's recipient and 403 kyc_required without approved KYC", async () => {
    const a = await payer('/api');
    const b = await payer('/api');
    const foreign = await remit(a, { recipientId: b.recipientId, amount: 500 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('not_found');
    expect(foreign.json().message).toBe('Recipient not found');
    await env.db.system.updateTable('users').set({ kyc_status: 'pending' }).where('id', '=', a.userId).execute();
    const kyc = await remit(a, { recipientId: a.recipientId, amount: 500 });
    expect(kyc.statusCode).toBe(403);
    expect(kyc.json().error).toBe('kyc_required');
    expect(kyc.json().message).toBe('Identity verification (KYC) is required before sending money');
    expect(await balanceOf(a.primaryId)).toBe('50000.00');
  });

  it('answers 400 no_bank_account without a linked account, and uses bankAccountId when given', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const r = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...web(cookie),
      payload: { name: 'Ana', country: 'RS', currency: 'EUR', bankAccount: 'RS35260005601001611379' },
    });
    const none = await env.app.inject({
      method: 'POST',
      url: '/api/transactions/remittance',
      ...web(cookie),
      payload: { recipientId: r.json().data.id, amount: 500 },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('no_bank_account');

    const p = await payer('/v1');
    const accounts = (await env.app.inject({ method: 'GET', url: '/v1/bank-accounts', ...p.auth })).json().data;
    const savings = accounts.find((a: { isPrimary: boolean }) => !a.isPrimary);
    const res = await remit(p, { recipientId: p.recipientId, amount: 1000, bankAccountId: savings.id });
    expect(res.statusCode).toBe(201);
    expect(await balanceOf(savings.id)).toBe('495.00');
    expect(await balanceOf(p.primaryId)).toBe('50000.00');
    const other = await remit(p, { recipientId: p.recipientId, amount: 1000, bankAccountId: 'bac_unknown' });
    expect(other.statusCode).toBe(404);
  });

  it("answers 400 no_bank_account when the account's consent is revoked", async () => {
    const p = await payer('/api');
    const consents = (await env.app.inject({ method: 'GET', url: '/api/open-banking/consents', ...p.auth })).json()
      .data;
    await env.app.inject({ method: 'DELETE', url: `/api/open-banking/consents/${consents[0].id}`, ...p.auth });
    const res = await remit(p, { recipientId: p.recipientId, amount: 500 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('no_bank_account');
    expect(await balanceOf(p.primaryId)).toBe('50000.00');
  });

  it('answers 422 validation_error when the corridor has no rate in force', async () => {
    const p = await payer('/api', { country: 'TR', currency: 'TRY', bankAccount: 'TR330006100519786457841326' });
    const saved = await env.db.system
      .selectFrom('exchange_rates')
      .selectAll()
      .where('currency', '=', 'TRY')
      .executeTakeFirstOrThrow();
    await env.db.system.deleteFrom('exchange_rates').where('currency', '=', 'TRY').execute();
    try {
      const res = await remit(p, { recipientId: p.recipientId, amount: 500 });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        error: 'validation_error',
        message: 'Unsupported corridor',
        details: [{ field: 'recipientId', message: 'no rate for TRY' }],
      });
    } finally {
      await env.db.system.insertInto('exchange_rates').values(saved).execute();
    }
  });
});

describe('Idempotency-Key (R9)', () => {
  it('returns the first response for the same key and body and debits once', async () => {
    const p = await payer('/v1');
    const first = await remit(p, { recipientId: p.recipientId, amount: 200 }, { 'idempotency-key': 'order-1' });
    expect(first.statusCode).toBe(201);
    const again = await remit(p, { amount: 200, recipientId: p.recipientId }, { 'idempotency-key': 'order-1' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(p.primaryId)).toBe('49799.00');
    const count = await env.db.system
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', p.userId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('answers 422 idempotency_mismatch for the same key with another body', async () => {
    const p = await payer('/api');
    expect((await remit(p, { recipientId: p.recipientId, amount: 300 }, { 'idempotency-key': 'k2' })).statusCode).toBe(
      201,
    );
    const other = await remit(p, { recipientId: p.recipientId, amount: 301 }, { 'idempotency-key': 'k2' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('idempotency_mismatch');
    expect(await balanceOf(p.primaryId)).toBe('49698.50');
  });

  it('treats a key older than 24 hours as new, and keys of other users as theirs', async () => {
    const p = await payer('/api');
    const q = await payer('/api');
    expect(
      (await remit(p, { recipientId: p.recipientId, amount: 100 }, { 'idempotency-key': 'same' })).statusCode,
    ).toBe(201);
    expect(
      (await remit(q, { recipientId: q.recipientId, amount: 100 }, { 'idempotency-key': 'same' })).statusCode,
    ).toBe(201);
    expect(await balanceOf(q.primaryId)).toBe('49899.50');
    await env.db.system
      .updateTable('idempotency_keys')
      .set({ created_at: sql<Date>`now() - interval '25 hours'` })
      .where('user_id', '=', p.userId)
      .execute();
    expect(
      (await remit(p, { recipientId: p.recipientId, amount: 100 }, { 'idempotency-key': 'same' })).statusCode,
    ).toBe(201);
    expect(await balanceOf(p.primaryId)).toBe('49799.00');
  });

  it('does not keep the key of a refused payment: a retry after topping up goes through', async () => {
    const p = await payer('/api');
    await env.db.system.updateTable('bank_accounts').set({ balance: '10.00' }).where('id', '=', p.primaryId).execute();
    expect(
      (await remit(p, { recipientId: p.recipientId, amount: 100 }, { 'idempotency-key': 'retry' })).statusCode,
    ).toBe(402);
    await env.db.system
      .updateTable('bank_accounts')
      .set({ balance: '1000.00' })
      .where('id', '=', p.primaryId)
      .execute();
    expect(
      (await remit(p, { recipientId: p.recipientId, amount: 100 }, { 'idempotency-key': 'retry' })).statusCode,
    ).toBe(201);
  });

  it('checks the session inside the payment: a signed-out or expired session gets 401, debits nothing and replays nothing', async () => {
    for (const surface of ['/api', '/v1'] as const) {
      const p = await payer(surface);
      expect(
        (await remit(p, { recipientId: p.recipientId, amount: 200 }, { 'idempotency-key': 'before-logout' }))
          .statusCode,
      ).toBe(201);
      const balance = await balanceOf(p.primaryId);
      const count = async () =>
        Number(
          (
            await env.db.system
              .selectFrom('transactions')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('user_id', '=', p.userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const transactions = await count();
      // Revoked (the token itself is still well signed and unexpired).
      await env.db.system
        .updateTable('sessions')
        .set({ revoked: 1, revoked_at: new Date() })
        .where('user_id', '=', p.userId)
        .execute();
      for (const headers of [{}, { 'idempotency-key': 'before-logout' }, { 'idempotency-key': 'fresh' }] as Array<
        Record<string, string>
      >) {
        const res = await remit(p, { recipientId: p.recipientId, amount: 200 }, headers);
        expect(res.statusCode, `${surface} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toMatchObject({ error: 'unauthorized' });
      }
      // Expired by time, not revoked.
      await env.db.system
        .updateTable('sessions')
        .set({ revoked: 0, expires_at: new Date(Date.now() - 1000) })
        .where('user_id', '=', p.userId)
        .execute();
      expect((await remit(p, { recipientId: p.recipientId, amount: 200 })).statusCode).toBe(401);
      expect(await balanceOf(p.primaryId)).toBe(balance);
      expect(await count()).toBe(transactions);
      const fresh = await env.db.system
        .selectFrom('idempotency_keys')
        .select('key')
        .where('user_id', '=', p.userId)
        .where('key', '=', 'fresh')
        .executeTakeFirst();
      expect(fresh).toBeUndefined();
      // Live again: the same token pays.
      await env.db.system
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + 3_600_000) })
        .where('user_id', '=', p.userId)
        .execute();
      expect((await remit(p, { recipientId: p.recipientId, amount: 200 })).statusCode).toBe(201);
    }
  });

  it('refuses a malformed key with 400', async () => {
    const p = await payer('/v1');
    const res = await remit(p, { recipientId: p.recipientId, amount: 100 }, { 'idempotency-key': 'x'.repeat(256) });
    expect(res.statusCode).toBe(400);
    // Refused before any money moved: no debit, no transaction, no key kept.
    expect(await balanceOf(p.primaryId)).toBe('50000.00');
    const rows = await env.db.system
      .selectFrom('transactions')
      .select('id')
      .where('user_id', '=', p.userId)
      .union(env.db.system.selectFrom('idempotency_keys').select('key as id').where('user_id', '=', p.userId))
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('settlement job (R9, G12)', () => {
  it('completes processing remittances: completedAt and a transaction_complete notification', async () => {
    const p = await payer('/api');
    const id = (await remit(p, { recipientId: p.recipientId, amount: 1000 })).json().data.id;
    const moved = await settle(env.app.ctx.payments);
    expect(moved.completed).toBeGreaterThanOrEqual(1);
    const tx = await env.db.system
      .selectFrom('transactions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(tx.status).toBe('completed');
    expect(tx.completed_at).toBeInstanceOf(Date);
    const notes = await env.db.system
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', p.userId)
      .where('type', '=', 'transaction_complete')
      .execute();
    expect(notes).toHaveLength(1);
    expect(notes[0].title).toBe('Overføring fullført');
    expect(notes[0].body).toContain('Marko Marković');
    expect(await balanceOf(p.primaryId)).toBe('48995.00');
    // Settled once: a second run changes nothing.
    await settle(env.app.ctx.payments);
    expect(
      (
        await env.db.system
          .selectFrom('notifications')
          .select('id')
          .where('user_id', '=', p.userId)
          .where('type', '=', 'transaction_complete')
          .execute()
      ).length,
    ).toBe(1);
  });

  it('fails a payment the bank rejects (account ending 0000): debit restored and a system notification', async () => {
    // A valid RS IBAN whose account ends in 0000.
    const p = await payer('/v1', { country: 'RS', currency: 'EUR', bankAccount: 'RS35160000000000300000' });
    const id = (await remit(p, { recipientId: p.recipientId, amount: 2000 })).json().data.id;
    expect(await balanceOf(p.primaryId)).toBe('47990.00');
    await settle(env.app.ctx.payments);
    const tx = await env.db.system
      .selectFrom('transactions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(tx.status).toBe('failed');
    expect(tx.completed_at).toBeNull();
    expect(await balanceOf(p.primaryId)).toBe('50000.00');
    const note = await env.db.system
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', p.userId)
      .where('type', '=', 'system')
      .executeTakeFirstOrThrow();
    expect(note.title).toBe('Overføring mislyktes');
    // The payer's own account at the bank (the one the payment was ordered from) has its money back.
    const init = await env.db.system
      .selectFrom('payment_initiations')
      .select('external_payment_id')
      .where('transaction_id', '=', id)
      .executeTakeFirstOrThrow();
    const bank = await env.db.system
      .selectFrom('sandbox_bank_payments as p')
      .innerJoin('sandbox_bank_accounts as a', 'a.id', 'p.account_id')
      .innerJoin('bank_accounts as b', 'b.external_account_id', 'a.id')
      .select(['a.balance', 'p.status', 'b.id as bankAccountId'])
      .where('p.id', '=', init.external_payment_id)
      .execute();
    expect(bank).toEqual([{ balance: '50000.00', status: 'rejected', bankAccountId: p.primaryId }]);
  });
});

describe('payment state machine with the sandbox bank (issue 30)', () => {
  const initiation = (id: string) =>
    env.db.system
      .selectFrom('payment_initiations as p')
      .innerJoin('transactions as t', 't.id', 'p.transaction_id')
      .select(['t.status', 'p.end_to_end_id', 'p.external_payment_id', 'p.payment_order'])
      .where('p.transaction_id', '=', id)
      .executeTakeFirstOrThrow();
  const bankPayments = (e2e: string) =>
    env.db.system.selectFrom('sandbox_bank_payments').selectAll().where('end_to_end_id', '=', e2e).execute();

  it("the request's own call (issue 11): the order it stored goes to the bank unread, the answer and the move are recorded in one statement, once, and read back as stored", async () => {
    const p = await payer('/api');
    const intent = await remittanceIntent(
      env.app.ctx.payments,
      userScope(env.db, p.userId),
      { recipientId: p.recipientId, amount: 1000 },
      null,
    );
    if (!('transactionId' in intent)) throw new Error('expected an intent');
    const id = intent.transactionId;
    const stored = await initiation(id);
    expect(intent.call).toEqual({
      order: stored.payment_order,
      endToEndId: stored.end_to_end_id,
      callbackState: expect.any(String),
    });
    const recorded = await driveIntent(env.app.ctx.payments, id, { leased: true, call: intent.call });
    // The payment the answer is built from is the payment as a read finds it (types and formats alike).
    expect(recorded).toEqual(await loadPayment(env.db.system, id));
    expect(recorded).toMatchObject({ status: 'processing', bank_status: 'ACSP', lease_until: null });
    expect(recorded?.external_payment_id).toEqual(expect.any(String));
    // Called again with the same order (a bug, a replayed call): the bank answers the payment it
    // has under the end-to-end id, the first recorded answer stays, nothing is booked or moved twice.
    expect(await driveIntent(env.app.ctx.payments, id, { leased: true, call: intent.call })).toBeUndefined();
    expect(await loadPayment(env.db.system, id)).toEqual(recorded);
    expect(await bankPayments(stored.end_to_end_id)).toHaveLength(1);
    expect(await balanceOf(p.primaryId)).toBe('48995.00');
  });

  it('an answer that does not accept the payment at once (waiting for the user) is recorded without a move', async () => {
    const p = await payer('/api');
    const id = await intentOf(p, 1000);
    const answer = {
      paymentId: 'bank-payment-1',
      bankStatus: 'RCVD',
      authorizationUrl: 'https://bank.test/authorize/1',
    };
    const row = await recordAnswer(env.db.system, id, answer, new Date(), false);
    expect(row).toMatchObject({ status: 'initiating', external_payment_id: 'bank-payment-1', bank_status: 'RCVD' });
    expect(row).toEqual(await loadPayment(env.db.system, id));
    // Only the first answer is recorded, and a later one moves nothing.
    expect(await recordAnswer(env.db.system, id, { ...answer, paymentId: 'bank-payment-2' }, new Date(), true)).toBe(
      undefined,
    );
    expect(await loadPayment(env.db.system, id)).toEqual(row);
  });

  it('a crash after the intent: nothing at the bank until the lease runs out, then recovery initiates it once', async () => {
    const p = await payer('/api');
    const id = await intentOf(p, 1000);
    const before = await initiation(id);
    expect(before).toMatchObject({ status: 'initiating', external_payment_id: null });
    expect(await bankPayments(before.end_to_end_id)).toHaveLength(0);
    expect(await balanceOf(p.primaryId)).toBe('48995.00');
    expect((await resumePayments(env.app.ctx.payments)).resumed).toBe(0);
    await dueNow(id);
    await resumePayments(env.app.ctx.payments);
    await dueNow(id);
    await resumePayments(env.app.ctx.payments);
    expect(await initiation(id)).toMatchObject({ status: 'processing', external_payment_id: expect.any(String) });
    expect(await bankPayments(before.end_to_end_id)).toHaveLength(1);
    await settle(env.app.ctx.payments);
    expect((await initiation(id)).status).toBe('completed');
    expect(await balanceOf(p.primaryId)).toBe('48995.00');
  });

  it("a crash between the bank's answer and recording it: the same end-to-end id gets the same payment, booked once", async () => {
    const p = await payer('/v1');
    const id = await intentOf(p, 2000);
    const { end_to_end_id: e2e, payment_order } = await initiation(id);
    const order = payment_order as unknown as StoredOrder;
    // The bank booked it; the process died before recording the answer.
    await env.app.ctx.payments.provider.initiatePayment(
      order.externalConsentId,
      { ...order, endToEndId: e2e },
      { redirectUri: env.app.ctx.payments.callbackUrl, state: 's' },
    );
    await dueNow(id);
    await resumePayments(env.app.ctx.payments);
    const bank = await bankPayments(e2e);
    expect(bank).toHaveLength(1);
    expect(await initiation(id)).toMatchObject({ status: 'processing', external_payment_id: bank[0].id });
    const sandboxBalance = await env.db.system
      .selectFrom('sandbox_bank_accounts')
      .select('balance')
      .where('id', '=', order.externalAccountId)
      .executeTakeFirstOrThrow();
    expect(sandboxBalance.balance).toBe('47990.00');
    expect(await balanceOf(p.primaryId)).toBe('47990.00');
  });

  // A request with the key of a payment whose first request is still at the bank (or died there):
  // answerInFlight (issue 34, idempotency mutants).
  it('a same-key request while the first holds the call waits, never calls the bank itself, and answers where the payment stands', async () => {
    const p = await payer('/api');
    const input = { recipientId: p.recipientId, amount: 500 };
    // The first request committed its intent and holds the call's lease (60 s), then died or is slow.
    const intent = await remittanceIntent(env.app.ctx.payments, userScope(env.db, p.userId), input, 'inflight-1');
    if (!('transactionId' in intent)) throw new Error('expected an intent');
    const id = intent.transactionId;
    const { end_to_end_id: e2e } = await initiation(id);
    // A twin that waits at most its own lease and a second (300 ms here) for the first's answer.
    const impatient = { ...env.app.ctx.payments, timing: { ...env.app.ctx.payments.timing, leaseMs: 300 } };
    const waiting = await remitPayment(impatient, userScope(env.db, p.userId), input, 'inflight-1');
    expect(waiting.statusCode).toBe(201);
    expect(waiting.body).toMatchObject({ data: { id, status: 'initiating' } });
    // The lease was not over: nothing asked at the bank, and nothing kept under the key.
    expect(await bankPayments(e2e)).toHaveLength(0);
    const kept = await env.db.system
      .selectFrom('idempotency_keys')
      .select(['response'])
      .where('user_id', '=', p.userId)
      .where('key', '=', 'inflight-1')
      .executeTakeFirstOrThrow();
    expect(kept.response).toBeNull();
    // Once the lease ran out, the same key takes the call over: the bank is asked once, with the
    // intent's end-to-end id, and the answer is kept and replayed.
    await dueNow(id);
    const taken = await remit(p, input, { 'idempotency-key': 'inflight-1' });
    expect(taken.statusCode).toBe(201);
    expect(taken.json().data).toMatchObject({ id, status: 'processing' });
    expect(await bankPayments(e2e)).toHaveLength(1);
    expect(await balanceOf(p.primaryId)).toBe('49497.50');
    const replay = await remit(p, input, { 'idempotency-key': 'inflight-1' });
    expect(replay.json()).toEqual(taken.json());
    expect(await bankPayments(e2e)).toHaveLength(1);
  });

  it('a same-key request while the first holds the call answers what the first keeps under the key once it arrives', async () => {
    const p = await payer('/v1');
    const input = { recipientId: p.recipientId, amount: 400 };
    const intent = await remittanceIntent(env.app.ctx.payments, userScope(env.db, p.userId), input, 'inflight-2');
    if (!('transactionId' in intent)) throw new Error('expected an intent');
    // The twin's look-ups of the key, so the first's answer is kept only after the twin looked once.
    let looked!: () => void;
    const lookedOnce = new Promise<void>((resolve) => {
      looked = resolve;
    });
    const system = env.db.system;
    const watched = new Proxy(system, {
      get(target, prop) {
        if (prop === 'selectFrom')
          return (table: Parameters<typeof system.selectFrom>[0]) => {
            if (table === 'idempotency_keys') looked();
            return target.selectFrom(table);
          };
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const deps = {
      ...env.app.ctx.payments,
      system: watched,
      // The twin gives up after 5 s (its lease and a second): long enough for the answer below.
      timing: { ...env.app.ctx.payments.timing, leaseMs: 4000 },
    };
    const waiting = remitPayment(deps, userScope(env.db, p.userId), input, 'inflight-2');
    await lookedOnce;
    // The first request's answer, kept under the key while the twin waits.
    const firstAnswer = {
      statusCode: 201,
      body: { data: { id: intent.transactionId, status: 'processing', first: true } },
    };
    await storeIdempotentResponse(system, p.userId, 'inflight-2', firstAnswer);
    expect(await waiting).toEqual(firstAnswer);
    expect(await bankPayments((await initiation(intent.transactionId)).end_to_end_id)).toHaveLength(0);
  });

  it('a same-key request after the first answered replays that answer, not where the payment stands now', async () => {
    const p = await payer('/api');
    const input = { recipientId: p.recipientId, amount: 700 };
    const first = await remit(p, input, { 'idempotency-key': 'kept-1' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data.status).toBe('processing');
    await settle(env.app.ctx.payments);
    expect((await initiation(first.json().data.id)).status).toBe('completed');
    const again = await remit(p, input, { 'idempotency-key': 'kept-1' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(p.primaryId)).toBe('49296.50');
  });
});

describe('Idempotency-Key on QR payments (R9, R12)', () => {
  let merchantId: string;
  beforeAll(async () => {
    const m = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const reg = await env.app.inject({
      method: 'POST',
      url: '/api/merchants/register',
      ...m,
      payload: { businessName: 'Kafé Sol', orgNumber: '923609016', bankAccount: '12345678903' },
    });
    expect(reg.statusCode).toBe(201);
    merchantId = reg.json().data.merchantId;
  });
  const qr = (p: { auth: Auth; surface: string }, amount: number, headers: Record<string, string> = {}) =>
    env.app.inject({
      method: 'POST',
      url: `${p.surface}/transactions/qr-payment`,
      ...p.auth,
      headers: { ...p.auth.headers, ...headers },
      payload: { merchantId, amount },
    });
  const qrCount = async (userId: string) =>
    Number(
      (
        await env.db.system
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .where('type', '=', 'qr_payment')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('replays the first response for the same key and body and debits once', async () => {
    const p = await payer('/v1');
    const first = await qr(p, 100, { 'idempotency-key': 'qr-1' });
    expect(first.statusCode).toBe(201);
    const again = await qr(p, 100, { 'idempotency-key': 'qr-1' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    // 100 + the 1 % fee, once.
    expect(await balanceOf(p.primaryId)).toBe('49899.00');
    expect(await qrCount(p.userId)).toBe(1);
    // Without a key, the same body is a new payment.
    expect((await qr(p, 100)).statusCode).toBe(201);
    expect(await balanceOf(p.primaryId)).toBe('49798.00');
  });

  it('answers 422 idempotency_mismatch for the same key with another amount, debiting nothing more', async () => {
    const p = await payer('/api');
    expect((await qr(p, 200, { 'idempotency-key': 'qr-2' })).statusCode).toBe(201);
    const other = await qr(p, 201, { 'idempotency-key': 'qr-2' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('idempotency_mismatch');
    expect(await balanceOf(p.primaryId)).toBe('49798.00');
    expect(await qrCount(p.userId)).toBe(1);
  });

  it('answers concurrent requests with one key alike and debits once', async () => {
    const p = await payer('/v1');
    const results = await Promise.all([1, 2, 3, 4].map(() => qr(p, 300, { 'idempotency-key': 'qr-race' })));
    for (const r of results) expect(r.statusCode).toBe(201);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    expect(await balanceOf(p.primaryId)).toBe('49697.00');
    expect(await qrCount(p.userId)).toBe(1);
  });
});

// The balance pre-check and the conditional debit are each other's second wall (issue 34, payments
// mutants): the pre-check answers from the balance it read, before anything is written; the debit
// decides on the balance at the moment it runs. A scope whose statements are watched makes each
// one answer alone, deterministically: the debit statements are counted, and the balance can be
// changed on the payment's own connection between the context's read and the debit.
describe('the balance pre-check and the conditional debit (issue 34)', () => {
  let merchantId: string;
  beforeAll(async () => {
    const m = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const reg = await env.app.inject({
      method: 'POST',
      url: '/api/merchants/register',
      ...m,
      payload: { businessName: 'Kafé Vegg', orgNumber: '912345688', bankAccount: '12345678903' },
    });
    expect(reg.statusCode).toBe(201);
    merchantId = reg.json().data.merchantId;
  });

  /**
   * The user's scope with its statements watched: `seen.debits` counts the debit statements sent;
   * `between` runs on the payment's connection after its context is read and before the debit (a
   * remittance reads it inside its transaction, a QR payment before the transaction begins).
   */
  const watched = (
    userId: string,
    kind: 'remittance' | 'qr',
    between: (db: Kysely<DB>) => Promise<void> = async () => {},
  ) => {
    const scope = userScope(env.db, userId);
    const seen = { debits: 0 };
    const watch = <T extends Kysely<DB>>(db: T): T =>
      new Proxy(db, {
        get(target, prop) {
          if (prop === 'executeQuery')
            return async (q: CompiledQuery, ...rest: unknown[]) => {
              if (q.sql === DEBIT_RECORD_SQL) seen.debits += 1;
              const result = await (target.executeQuery as (...a: unknown[]) => Promise<unknown>)(q, ...rest);
              if (q.sql === REMIT_CONTEXT_SQL) await between(target);
              return result;
            };
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    const user: UserScope = {
      userId,
      run: (fn) => scope.run((db) => fn(watch(db))),
      transaction: (fn, options) =>
        scope.transaction(async (trx, end) => {
          if (kind === 'qr') await between(trx);
          return fn(watch(trx), end);
        }, options),
    };
    return { user, seen };
  };
  const setBalance = (accountId: string, balance: string) => async (db: Kysely<DB>) => {
    await sql`UPDATE bank_accounts SET balance = ${balance}::numeric WHERE id = ${accountId}`.execute(db);
  };
  const paymentsOf = (userId: string) =>
    env.db.system.selectFrom('transactions').select('id').where('user_id', '=', userId).execute();
  const keysOf = (userId: string) =>
    env.db.system.selectFrom('idempotency_keys').select('key').where('user_id', '=', userId).execute();

  it('a remittance the read balance does not cover is refused before the debit statement is sent', async () => {
    const p = await payer('/api');
    await env.db.system
      .updateTable('bank_accounts')
      .set({ balance: '1004.99' })
      .where('id', '=', p.primaryId)
      .execute();
    for (const key of [null, 'short-rem']) {
      const { user, seen } = watched(p.userId, 'remittance');
      await expect(
        remitPayment(env.app.ctx.payments, user, { recipientId: p.recipientId, amount: 1000 }, key),
      ).rejects.toMatchObject({ code: 'insufficient_balance' });
      expect(seen.debits).toBe(0);
    }
    expect(await balanceOf(p.primaryId)).toBe('1004.99');
    expect(await paymentsOf(p.userId)).toEqual([]);
  });

  it('a QR payment the read balance does not cover is refused before the debit statement is sent', async () => {
    const p = await payer('/v1');
    await env.db.system.updateTable('bank_accounts').set({ balance: '100.99' }).where('id', '=', p.primaryId).execute();
    for (const key of [null, 'short-qr']) {
      const { user, seen } = watched(p.userId, 'qr');
      await expect(payQr(env.app.ctx.payments, user, { merchantId, amount: 100 }, key)).rejects.toMatchObject({
        code: 'insufficient_balance',
      });
      expect(seen.debits).toBe(0);
    }
    expect(await balanceOf(p.primaryId)).toBe('100.99');
    expect(await paymentsOf(p.userId)).toEqual([]);
  });

  it('a remittance whose balance fell after the check is refused by the debit: nothing written, the key not kept', async () => {
    const p = await payer('/v1');
    for (const key of [null, 'fell-rem']) {
      const { user, seen } = watched(p.userId, 'remittance', setBalance(p.primaryId, '1004.99'));
      await expect(
        remitPayment(env.app.ctx.payments, user, { recipientId: p.recipientId, amount: 1000 }, key),
      ).rejects.toMatchObject({ code: 'insufficient_balance' });
      expect(seen.debits).toBe(1);
      await env.db.system
        .updateTable('bank_accounts')
        .set({ balance: '50000.00' })
        .where('id', '=', p.primaryId)
        .execute();
    }
    expect(await paymentsOf(p.userId)).toEqual([]);
    expect(await keysOf(p.userId)).toEqual([]);
  });

  it('a QR payment whose balance fell after the check is refused by the debit: nothing written, the key not kept', async () => {
    const p = await payer('/api');
    for (const key of [null, 'fell-qr']) {
      const { user, seen } = watched(p.userId, 'qr', setBalance(p.primaryId, '100.99'));
      await expect(payQr(env.app.ctx.payments, user, { merchantId, amount: 100 }, key)).rejects.toMatchObject({
        code: 'insufficient_balance',
      });
      expect(seen.debits).toBe(1);
      await env.db.system
        .updateTable('bank_accounts')
        .set({ balance: '50000.00' })
        .where('id', '=', p.primaryId)
        .execute();
    }
    expect(await paymentsOf(p.userId)).toEqual([]);
    expect(await keysOf(p.userId)).toEqual([]);
  });

  /**
   * The recovery job takes the payment and the bank refuses it for good; `first` runs while the refusal
   * is on its way. What the refusal left: the payment, the account's balance, the users whose cached
   * balances were dropped, the user's system notifications.
   */
  async function refusedByBank(p: Awaited<ReturnType<typeof payer>>, id: string, first?: () => Promise<unknown>) {
    const moved: string[] = [];
    await dueNow(id);
    await resumePayments({
      ...env.app.ctx.payments,
      provider: {
        ...env.app.ctx.payments.provider,
        initiatePayment: async () => {
          await first?.();
          throw new ProviderError('refused', 'sandbox: refused');
        },
      },
      balancesMoved: (userId: string) => {
        moved.push(userId);
      },
    });
    const tx = await env.db.system
      .selectFrom('transactions')
      .select(['status', 'failure_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const notes = await env.db.system
      .selectFrom('notifications')
      .select(['title', 'body'])
      .where('user_id', '=', p.userId)
      .where('type', '=', 'system')
      .execute();
    return { tx, balance: await balanceOf(p.primaryId), moved, notes };
  }

  it('a payment the bank refuses while it is still initiating fails: the debit restored, the user told, cached balances dropped', async () => {
    const p = await payer('/api');
    const id = await intentOf(p, 1000);
    expect(await balanceOf(p.primaryId)).toBe('48995.00');
    const after = await refusedByBank(p, id);
    expect(after.tx).toEqual({ status: 'failed', failure_reason: 'refused: sandbox: refused' });
    expect(after.balance).toBe('50000.00');
    expect(after.moved).toEqual([p.userId]);
    expect(after.notes.map((n) => n.title)).toEqual(['Overføring mislyktes']);
  });

  it('a refusal that arrives after another path has already moved the payment changes nothing: no second credit, no notification, cached balances kept', async () => {
    const p = await payer('/api');
    const id = await intentOf(p, 1000);
    // While the bank's refusal is on its way, another worker records the payment's end first.
    const after = await refusedByBank(p, id, () =>
      env.db.system
        .updateTable('transactions')
        .set({ status: 'failed', failure_reason: 'recorded by the other worker' })
        .where('id', '=', id)
        .execute(),
    );
    expect(after.tx).toEqual({ status: 'failed', failure_reason: 'recorded by the other worker' });
    // The reservation is the other path's to restore: this refusal credits nothing.
    expect(after.balance).toBe('48995.00');
    expect(after.moved).toEqual([]);
    expect(after.notes).toEqual([]);
  });

  it('a QR payment the bank refuses fails with the QR failure notification, the debit restored', async () => {
    const p = await payer('/v1');
    const intent = await qrIntent(env.app.ctx.payments, userScope(env.db, p.userId), { merchantId, amount: 100 }, null);
    if (!('transactionId' in intent)) throw new Error('expected an intent');
    expect(await balanceOf(p.primaryId)).toBe('49899.00');
    const after = await refusedByBank(p, intent.transactionId);
    expect(after.tx.status).toBe('failed');
    expect(after.balance).toBe('50000.00');
    expect(after.notes).toHaveLength(1);
    expect(after.notes[0].title).toBe('QR-betaling mislyktes');
    expect(after.notes[0].body).toContain('Kafé Vegg');
  });
});

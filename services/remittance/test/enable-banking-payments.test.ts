import { generateKeyPairSync } from 'node:crypto';
import { D } from '@app/shared/money';
import { freshDatabase } from '@app/shared/test/clone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/types.js';
import { userScope } from '../src/db/user-scope.js';
import {
  completeAuthorization,
  type PaymentDeps,
  remittanceIntent,
  resumePayments,
  settle,
} from '../src/modules/payments/payments.service.js';
import { type EnableBankingMock, follow, startEnableBankingMock } from './enable-banking-mock.js';
import { bearer, nextPid, pathOf, signInMobile, signInWeb, testConfig, web } from './helpers.js';

/**
 * Payments through Enable Banking (issue 30): the intent committed before the API is called, the
 * 201 carrying the bank's authorization URL, the browser following it to the bank and back to the
 * payment callback, status polling, refusals, lost answers and crashes with recovery. On PGlite
 * by default; with TEST_DATABASE_URL the same tests run on real PostgreSQL, and the 50 concurrent
 * payments run too.
 */
const APP_ID = 'c2b1a3d4-0000-4000-8000-000000000002';
const ASPSP = 'Mock Norsk Bank';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const onPostgres = !!process.env.TEST_DATABASE_URL;

let mock: EnableBankingMock;
let t: Awaited<ReturnType<typeof freshDatabase<DB>>>;
let app: Awaited<ReturnType<typeof buildApp>>;

const config = () =>
  testConfig({
    OPEN_BANKING_PROVIDER: 'enablebanking',
    ENABLE_BANKING_APP_ID: APP_ID,
    ENABLE_BANKING_PRIVATE_KEY: privateKeyPem,
    ENABLE_BANKING_API_URL: mock.url,
    ENABLE_BANKING_ASPSP: ASPSP,
    ENABLE_BANKING_TIMEOUT: '2s',
  });

beforeAll(async () => {
  mock = await startEnableBankingMock({ appId: APP_ID, publicKey: keys.publicKey, aspspName: ASPSP });
  t = await freshDatabase<DB>('remittance', 'remittance_app', { poolSize: 30 });
  app = await buildApp(config(), t.db);
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await t?.destroy();
  await mock?.close();
});

type Auth = ReturnType<typeof web> | ReturnType<typeof bearer>;

/** A user with the mock bank linked (through its consent redirect) and one recipient. */
async function payer(
  surface: '/api' | '/v1' = '/api',
  bankAccount = 'RS35260005601001611379',
  bank?: { name: string; country: string },
) {
  const auth: Auth =
    surface === '/api'
      ? web((await signInWeb(app, { pid: nextPid() })).cookie)
      : bearer((await signInMobile(app, { pid: nextPid() })).token);
  const userId = (await app.inject({ method: 'GET', url: `${surface}/auth/me`, ...auth })).json().data.id as string;
  const created = await app.inject({
    method: 'POST',
    url: `${surface}/open-banking/consents`,
    ...auth,
    payload: bank ? { bank } : {},
  });
  expect(created.statusCode, created.body).toBe(201);
  const back = await app.inject({ method: 'GET', url: pathOf(await follow(created.json().data.redirectUrl)) });
  expect(back.statusCode).toBe(302);
  const accounts = (await app.inject({ method: 'GET', url: `${surface}/bank-accounts`, ...auth })).json().data;
  const primaryId = accounts.find((a: { isPrimary: boolean }) => a.isPrimary).id as string;
  const r = await app.inject({
    method: 'POST',
    url: `${surface}/recipients`,
    ...auth,
    payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount },
  });
  expect(r.statusCode, r.body).toBe(201);
  return { auth, surface, userId, primaryId, recipientId: r.json().data.id as string };
}
type Payer = Awaited<ReturnType<typeof payer>>;

const remit = (p: Payer, amount: number, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `${p.surface}/transactions/remittance`,
    ...p.auth,
    headers: { ...p.auth.headers, ...headers },
    payload: { recipientId: p.recipientId, amount },
  });

const balanceOf = async (id: string) =>
  (await t.db.system.selectFrom('bank_accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow())
    .balance;
const paymentOf = (transactionId: string) =>
  t.db.system
    .selectFrom('transactions as t')
    .innerJoin('payment_initiations as p', 'p.transaction_id', 't.id')
    .select(['t.status', 't.failure_reason', 'p.end_to_end_id', 'p.external_payment_id', 'p.attempts', 'p.bank_status'])
    .where('t.id', '=', transactionId)
    .executeTakeFirstOrThrow();
const notes = async (userId: string, type: 'transaction_complete' | 'system') =>
  t.db.system
    .selectFrom('notifications')
    .select(['title', 'body'])
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .execute();
/** What waiting out the lease (or the poll interval) would do. */
const dueNow = (transactionId: string) =>
  sql`UPDATE payment_initiations SET lease_until = now() - interval '1 second' WHERE transaction_id = ${transactionId}`.execute(
    t.db.system,
  );

describe('payments through Enable Banking (issue 30)', { timeout: 60_000 }, () => {
  it('answers 201 initiating with the bank URL; the browser authorizes at the bank and comes back; settlement completes it', async () => {
    const p = await payer('/api');
    const res = await remit(p, 1000);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'initiating', total: 1005, fromAccount: ASPSP });
    expect(data.authorizationUrl).toMatch(new RegExp(`^${mock.url}/bank/pay\\?payment=`));
    // The reservation: the cached balance is debited at the intent.
    expect(await balanceOf(p.primaryId)).toBe(new D('12345.67').minus('1005').toFixed(2));
    const row = await paymentOf(data.id);
    expect(row).toMatchObject({ status: 'initiating', attempts: 1, bank_status: 'RCVD' });
    expect(mock.paymentsFor(row.end_to_end_id)).toHaveLength(1);
    const sent = mock.paymentsFor(row.end_to_end_id)[0].body as Record<string, any>;
    expect(sent.payment_request.credit_transfer_transaction[0].instructed_amount).toEqual({
      amount: '1005.00',
      currency: 'NOK',
    });
    // Linked without choosing: the default bank (ENABLE_BANKING_ASPSP), recorded with the consent.
    expect(sent.aspsp).toEqual({ name: ASPSP, country: 'NO' });

    // The browser: to the bank, which answers 302 to our payment callback.
    const callback = new URL(await follow(data.authorizationUrl));
    expect(callback.pathname).toBe('/api/payments/callback');
    const back = await app.inject({ method: 'GET', url: pathOf(callback.toString()) });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`/transactions/${data.id}?status=processing`);
    expect((await paymentOf(data.id)).status).toBe('processing');
    // A replayed callback changes nothing.
    const again = await app.inject({ method: 'GET', url: pathOf(callback.toString()) });
    expect(again.headers.location).toBe(`/transactions/${data.id}?status=processing`);

    await dueNow(data.id);
    const moved = await settle(app.ctx.payments);
    expect(moved.completed).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(data.id)).status).toBe('completed');
    expect(await notes(p.userId, 'transaction_complete')).toHaveLength(1);
    expect(await balanceOf(p.primaryId)).toBe('11340.67');
    expect(mock.paymentsFor(row.end_to_end_id)).toHaveLength(1);
  });

  it('a payment from an account linked at a chosen bank goes to that bank, and so does the consent renewal', async () => {
    const p = await payer('/api', 'RS35260005601001611379', { name: 'dnb', country: 'no' });
    const consents = (await app.inject({ method: 'GET', url: '/api/open-banking/consents', ...p.auth })).json().data;
    expect(consents[0]).toMatchObject({ status: 'active', bank: { name: 'DNB', country: 'NO' } });
    const res = await remit(p, 250);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.fromAccount).toBe('DNB');
    const row = await paymentOf(res.json().data.id);
    expect(mock.paymentsFor(row.end_to_end_id).map((x) => x.aspsp)).toEqual([{ name: 'DNB', country: 'NO' }]);

    const renewed = await app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${consents[0].id}/renew`,
      ...p.auth,
    });
    expect(renewed.statusCode, renewed.body).toBe(201);
    const after = (await app.inject({ method: 'GET', url: '/api/open-banking/consents', ...p.auth })).json().data;
    expect(after.find((c: { id: string }) => c.id === renewed.json().data.consentId)).toMatchObject({
      status: 'pending',
      renewsConsentId: consents[0].id,
      bank: { name: 'DNB', country: 'NO' },
    });
    // At the bank: the authorization was started at DNB (its session will name DNB).
    const back = new URL(await follow(renewed.json().data.redirectUrl));
    expect((await app.inject({ method: 'GET', url: pathOf(back.toString()) })).statusCode).toBe(302);
    expect([...mock.sessions.values()].at(-1)!.aspsp.name).toBe('DNB');
  });

  it('a payment waiting for the user at the bank keeps its answer under its key: a replay after the user authorized answers that first answer', async () => {
    const p = await payer('/api');
    const first = await remit(p, 600, { 'idempotency-key': 'await-user-1' });
    expect(first.statusCode, first.body).toBe(201);
    const data = first.json().data;
    expect(data).toMatchObject({ status: 'initiating' });
    expect(data.authorizationUrl).toBeTruthy();
    const back = await app.inject({ method: 'GET', url: pathOf(await follow(data.authorizationUrl)) });
    expect(back.statusCode).toBe(302);
    expect((await paymentOf(data.id)).status).toBe('processing');
    // The bank answered the first request (its payment id and the authorization page): that answer
    // is the key's, whatever the payment did since.
    const replay = await remit(p, 600, { 'idempotency-key': 'await-user-1' });
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(mock.paymentsFor((await paymentOf(data.id)).end_to_end_id)).toHaveLength(1);
    expect(await balanceOf(p.primaryId)).toBe(new D('12345.67').minus('603').toFixed(2));
  });

  it('sends a payment created on /v1 back to the app, and a declined one fails with the bank reason, the reservation restored', async () => {
    const p = await payer('/v1');
    const res = await remit(p, 500);
    expect(res.statusCode).toBe(201);
    const { id, authorizationUrl } = res.json().data;
    expect(await balanceOf(p.primaryId)).toBe('11843.17');
    const callback = await follow(authorizationUrl, { decision: 'deny' });
    const back = await app.inject({ method: 'GET', url: pathOf(callback) });
    expect(back.headers.location).toBe(
      `app://payments/callback?transactionId=${id}&status=failed&error=payment_failed`,
    );
    expect(await paymentOf(id)).toMatchObject({
      status: 'failed',
      failure_reason: 'rejected: DS02: Order cancelled by the PSU',
    });
    expect(await balanceOf(p.primaryId)).toBe('12345.67');
    expect(await notes(p.userId, 'system')).toHaveLength(1);
    // An unknown state goes to the history with an error, touching nothing.
    const unknown = await app.inject({ method: 'GET', url: '/api/payments/callback?state=nope' });
    expect(unknown.headers.location).toBe('/transactions?error=payment_unknown');
  });

  it('RJCT at settlement (closed account) fails with the reason; a payment never authorized fails when its time is up', async () => {
    const p = await payer('/api', 'RS35160000000000300000');
    const closed = (await remit(p, 200)).json().data;
    await app.inject({ method: 'GET', url: pathOf(await follow(closed.authorizationUrl)) });
    expect(await paymentOf(closed.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'rejected: AC04: Closed account number',
    });

    const abandoned = (await remit(p, 300)).json().data;
    // Polled while the user has not authorized: it waits.
    await dueNow(abandoned.id);
    expect((await resumePayments(app.ctx.payments)).polled).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(abandoned.id)).status).toBe('initiating');
    await t.db.system
      .updateTable('transactions')
      .set({ created_at: new Date(Date.now() - app.ctx.payments.timing.authorizationTtlMs - 1000) })
      .where('id', '=', abandoned.id)
      .execute();
    await dueNow(abandoned.id);
    await resumePayments(app.ctx.payments);
    expect(await paymentOf(abandoned.id)).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringMatching(/^not_authorized/),
    });
    expect(await balanceOf(p.primaryId)).toBe('12345.67');
  });

  it('a refusal of the order (422) answers 502 with the reason, records it failed and keeps nothing reserved; the key is released', async () => {
    const p = await payer('/api');
    mock.fail('POST', '/payments', 422, {
      code: 422,
      message: 'Creditor account not valid',
      error: 'WRONG_REQUEST_PARAMETERS',
    });
    const res = await remit(p, 150, { 'idempotency-key': 'refused-1' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      error: 'bank_unavailable',
      message: expect.stringContaining('Creditor account not valid'),
    });
    expect(await balanceOf(p.primaryId)).toBe('12345.67');
    const failed = await t.db.system
      .selectFrom('transactions')
      .select(['status', 'failure_reason'])
      .where('user_id', '=', p.userId)
      .execute();
    expect(failed).toEqual([{ status: 'failed', failure_reason: expect.stringMatching(/^refused: /) }]);
    // The same key again is a new payment, which the bank now takes.
    const retry = await remit(p, 150, { 'idempotency-key': 'refused-1' });
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.status).toBe('initiating');
  });

  it('5xx or a timeout at creation: 201 initiating without a URL; the same key asks again; recovery sends the same end-to-end id', async () => {
    const p = await payer('/api');
    mock.fail('POST', '/payments', 503, { code: 503, message: 'ASPSP error', error: 'ASPSP_ERROR' });
    const first = await remit(p, 100, { 'idempotency-key': 'outage-1' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data.status).toBe('initiating');
    expect(first.json().data.authorizationUrl).toBeUndefined();
    const id = first.json().data.id;
    const e2e = (await paymentOf(id)).end_to_end_id;
    expect(mock.paymentsFor(e2e)).toHaveLength(0);
    // Backing off: the same key answers where it stands at once, without calling the bank.
    const early = await remit(p, 100, { 'idempotency-key': 'outage-1' });
    expect(early.json().data).toMatchObject({ id, status: 'initiating' });
    expect(early.json().data.authorizationUrl).toBeUndefined();
    expect(mock.paymentsFor(e2e)).toHaveLength(0);
    // Once the back-off is over, the same key takes the call over.
    await dueNow(id);
    const again = await remit(p, 100, { 'idempotency-key': 'outage-1' });
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toMatchObject({ id, status: 'initiating', authorizationUrl: expect.any(String) });
    expect(mock.paymentsFor(e2e)).toHaveLength(1);
    // Now answered: the key replays that answer.
    expect((await remit(p, 100, { 'idempotency-key': 'outage-1' })).json()).toEqual(again.json());

    // A timeout: the recovery job resumes it with the same end-to-end id.
    mock.fail('POST', '/payments', 200, { payment_id: 'late', url: 'x' }, 3000);
    const slow = (await remit(p, 120)).json().data;
    expect(slow).toMatchObject({ status: 'initiating' });
    const slowE2e = (await paymentOf(slow.id)).end_to_end_id;
    await dueNow(slow.id);
    expect((await resumePayments(app.ctx.payments)).resumed).toBeGreaterThanOrEqual(1);
    expect(await paymentOf(slow.id)).toMatchObject({ status: 'initiating', attempts: 2 });
    expect(mock.paymentsFor(slowE2e)).toHaveLength(1);
    // Attempts spent: it fails, the reservation restored.
    mock.fail('POST', '/payments', 503, { code: 503, message: 'ASPSP error', error: 'ASPSP_ERROR' });
    const doomed = (await remit(p, 130)).json().data;
    await t.db.system
      .updateTable('payment_initiations')
      .set({ attempts: app.ctx.payments.timing.maxAttempts - 1 })
      .where('transaction_id', '=', doomed.id)
      .execute();
    mock.fail('POST', '/payments', 503, { code: 503, message: 'ASPSP error', error: 'ASPSP_ERROR' });
    await dueNow(doomed.id);
    await resumePayments(app.ctx.payments);
    expect(await paymentOf(doomed.id)).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringMatching(/^unavailable/),
    });
  });
});

describe('crashes and recovery (issue 30)', { timeout: 60_000 }, () => {
  /** A second instance on the same database: what a restart after a crash brings up. */
  async function restarted() {
    const next = await buildApp(config(), t.db);
    await next.ready();
    return next;
  }

  it('a crash between the intent commit and the provider call: after restart, recovery initiates it exactly once', async () => {
    const p = await payer('/api');
    // The process dies right after committing the intent: this is all it did.
    const intent = await remittanceIntent(
      app.ctx.payments,
      userScope(t.db, p.userId),
      { recipientId: p.recipientId, amount: 400 },
      'crash-1',
    );
    if (!('transactionId' in intent)) throw new Error('expected an intent');
    const id = intent.transactionId;
    const e2e = (await paymentOf(id)).end_to_end_id;
    expect(mock.paymentsFor(e2e)).toHaveLength(0);
    expect(await balanceOf(p.primaryId)).toBe('11943.67');

    const next = await restarted();
    try {
      // Before the lease runs out nobody calls; after it, one worker does, once.
      expect((await resumePayments(next.ctx.payments)).resumed).toBe(0);
      await dueNow(id);
      await Promise.all([resumePayments(next.ctx.payments), resumePayments(app.ctx.payments)]);
      expect(mock.paymentsFor(e2e)).toHaveLength(1);
      await dueNow(id);
      await resumePayments(next.ctx.payments);
      expect(mock.paymentsFor(e2e)).toHaveLength(1);
      // The user's retry with the key gets the bank URL, authorizes, and the money adds up.
      const retry = await remit(p, 400, { 'idempotency-key': 'crash-1' });
      expect(retry.json().data).toMatchObject({ id, authorizationUrl: expect.any(String) });
      await next.inject({ method: 'GET', url: pathOf(await follow(retry.json().data.authorizationUrl)) });
      await dueNow(id);
      await settle(next.ctx.payments);
      expect((await paymentOf(id)).status).toBe('completed');
      expect(await balanceOf(p.primaryId)).toBe('11943.67');
      expect(mock.paymentsFor(e2e)).toHaveLength(1);
    } finally {
      await next.close();
    }
  });

  it('a crash during the payment callback (the bank answered, nothing recorded): after restart, recovery records it; initiated once, the money adds up', async () => {
    const p = await payer('/api');
    const res = await remit(p, 700);
    const { id, authorizationUrl } = res.json().data;
    const e2e = (await paymentOf(id)).end_to_end_id;
    // The user authorizes at the bank; the bank sends the browser to our callback.
    const callback = new URL(await follow(authorizationUrl));
    const state = callback.searchParams.get('state') ?? '';
    // This instance receives the callback, asks the bank (which answers: accepted) and dies before
    // recording the answer: the process is gone between the bank's answer and our write.
    const dying: PaymentDeps = {
      ...app.ctx.payments,
      provider: {
        ...app.ctx.payments.provider,
        paymentStatus: async (paymentId: string) => {
          await app.ctx.payments.provider.paymentStatus(paymentId);
          throw new Error('process killed');
        },
      },
    };
    await expect(completeAuthorization(dying, { state })).rejects.toThrow('process killed');
    expect(await paymentOf(id)).toMatchObject({ status: 'initiating', bank_status: 'RCVD' });
    expect(await notes(p.userId, 'transaction_complete')).toHaveLength(0);

    const next = await restarted();
    try {
      // The recovery job (two instances at once) asks the bank with the recorded payment id: no
      // new payment is created; the bank says it is settled now.
      await dueNow(id);
      await Promise.all([resumePayments(next.ctx.payments), resumePayments(app.ctx.payments)]);
      expect(mock.paymentsFor(e2e)).toHaveLength(1);
      expect((await paymentOf(id)).status).toBe('completed');
      // The browser retries the callback on the new instance: it shows the final state, changes nothing.
      const back = await next.inject({ method: 'GET', url: pathOf(callback.toString()) });
      expect(back.headers.location).toBe(`/transactions/${id}?status=completed`);
      await dueNow(id);
      await resumePayments(next.ctx.payments);
      await settle(next.ctx.payments);
      expect(mock.paymentsFor(e2e)).toHaveLength(1);
      expect(await balanceOf(p.primaryId)).toBe(new D('12345.67').minus('703.50').toFixed(2));
      expect(await notes(p.userId, 'transaction_complete')).toHaveLength(1);
      expect(await notes(p.userId, 'system')).toHaveLength(0);
    } finally {
      await next.close();
    }
  });

  it('a crash during the callback of a declined payment: after restart it fails once, the reservation restored once', async () => {
    const p = await payer('/api');
    const { id, authorizationUrl } = (await remit(p, 300)).json().data;
    const callback = new URL(await follow(authorizationUrl, { decision: 'deny' }));
    const dying: PaymentDeps = {
      ...app.ctx.payments,
      provider: {
        ...app.ctx.payments.provider,
        paymentStatus: async (paymentId: string) => {
          await app.ctx.payments.provider.paymentStatus(paymentId);
          throw new Error('process killed');
        },
      },
    };
    await expect(completeAuthorization(dying, { state: callback.searchParams.get('state') ?? '' })).rejects.toThrow();
    expect(await balanceOf(p.primaryId)).toBe(new D('12345.67').minus('301.50').toFixed(2));
    const next = await restarted();
    try {
      await dueNow(id);
      await Promise.all([resumePayments(next.ctx.payments), resumePayments(app.ctx.payments)]);
      const back = await next.inject({ method: 'GET', url: pathOf(callback.toString()) });
      expect(back.headers.location).toBe(`/transactions/${id}?status=failed&error=payment_failed`);
      expect((await paymentOf(id)).failure_reason).toMatch(/DS02/);
      expect(await balanceOf(p.primaryId)).toBe('12345.67');
      expect(await notes(p.userId, 'system')).toHaveLength(1);
    } finally {
      await next.close();
    }
  });

  for (const duplicates of ['replay', 'create'] as const) {
    it(`a crash between the bank's answer and recording it (duplicates: ${duplicates}): one payment reaches the user, the money moves once`, async () => {
      mock.setDuplicates(duplicates);
      try {
        const p = await payer('/api');
        // The bank creates the payment; its answer never reaches us.
        mock.dropAnswer('POST', '/payments');
        const res = await remit(p, 250);
        expect(res.statusCode).toBe(201);
        const { id } = res.json().data;
        const e2e = (await paymentOf(id)).end_to_end_id;
        expect(await paymentOf(id)).toMatchObject({ status: 'initiating', external_payment_id: null });
        expect(mock.paymentsFor(e2e)).toHaveLength(1);

        const next = await restarted();
        try {
          await dueNow(id);
          await resumePayments(next.ctx.payments);
          const recorded = await paymentOf(id);
          expect(recorded.external_payment_id).not.toBeNull();
          // replay: the bank's duplicate check answers the first payment; create: a second
          // resource exists, but only the recorded one's URL ever reaches the user.
          expect(mock.paymentsFor(e2e)).toHaveLength(duplicates === 'replay' ? 1 : 2);
          const retryUrl = (await next.inject({ method: 'GET', url: `/api/transactions/${id}`, ...p.auth })).statusCode;
          expect(retryUrl).toBe(200);
          const payment = mock.payments.get(recorded.external_payment_id!)!;
          await next.inject({
            method: 'GET',
            url: pathOf(await follow(`${mock.url}/bank/pay?payment=${payment.id}`)),
          });
          await dueNow(id);
          await settle(next.ctx.payments);
          expect((await paymentOf(id)).status).toBe('completed');
          const settled = mock.paymentsFor(e2e).filter((x) => x.status === 'ACSC');
          expect(settled).toHaveLength(1);
          expect(await balanceOf(p.primaryId)).toBe('12094.42');
        } finally {
          await next.close();
        }
      } finally {
        mock.setDuplicates('create');
      }
    });
  }
});

describe.skipIf(!onPostgres)(
  '50 concurrent payments against the mock on real PostgreSQL (issue 30)',
  { timeout: 120_000 },
  () => {
    it('never overdraw and never initiate one payment twice', async () => {
      const p = await payer('/v1');
      await t.db.system
        .updateTable('bank_accounts')
        .set({ balance: '10000.00' })
        .where('id', '=', p.primaryId)
        .execute();
      const amounts = Array.from({ length: 50 }, (_, i) => 500 + i * 10);
      const results = await Promise.all(amounts.map((amount) => remit(p, amount)));
      const ok = results.filter((r) => r.statusCode === 201);
      const refused = results.filter((r) => r.statusCode === 402);
      expect(ok.length + refused.length).toBe(50);
      expect(ok.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      const spent = ok.reduce((sum, r) => sum.plus(String(r.json().data.total)), new D(0));
      const balance = new D(await balanceOf(p.primaryId));
      expect(balance.gte(0)).toBe(true);
      expect(balance.toFixed(2)).toBe(new D('10000').minus(spent).toFixed(2));
      for (const r of ok) {
        const row = await paymentOf(r.json().data.id);
        expect(row.status).toBe('initiating');
        expect(mock.paymentsFor(row.end_to_end_id)).toHaveLength(1);
      }
      // The recovery job, run twice at once, initiates nothing again.
      await sql`UPDATE payment_initiations SET lease_until = now() - interval '1 second'`.execute(t.db.system);
      await Promise.all([resumePayments(app.ctx.payments), resumePayments(app.ctx.payments)]);
      for (const r of ok) expect(mock.paymentsFor((await paymentOf(r.json().data.id)).end_to_end_id)).toHaveLength(1);
    });
  },
);

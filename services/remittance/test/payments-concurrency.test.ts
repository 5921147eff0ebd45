import { D } from '@app/shared/money';
import { freshDatabase } from '@app/shared/test/clone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/types.js';
import { settle } from '../src/modules/payments/payments.service.js';
import { bearer, linkSandboxBank, nextPid, signInMobile, testConfig } from './helpers.js';

/**
 * Money under concurrency needs real PostgreSQL: PGlite runs one statement at a time, so races
 * cannot happen there. .ci/run sets TEST_DATABASE_URL.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
if (!onPostgres)
  console.warn('payments-concurrency: skipped, set TEST_DATABASE_URL=postgres://... to run it on real PostgreSQL');

describe.skipIf(!onPostgres)('payments under concurrency on real PostgreSQL (R9, G12)', () => {
  let t: Awaited<ReturnType<typeof freshDatabase<DB>>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let second: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    t = await freshDatabase<DB>('remittance', 'remittance_app', { poolSize: 30 });
    app = await buildApp(testConfig({ SANDBOX_SETTLEMENT_SECONDS: '0' }), t.db);
    // A second instance on the same database, for the settlement race.
    second = await buildApp(testConfig({ SANDBOX_SETTLEMENT_SECONDS: '0' }), t.db);
    await Promise.all([app.ready(), second.ready()]);
  });
  afterAll(async () => {
    await app?.close();
    await second?.close();
    await t?.destroy();
  });

  async function payer(recipientIban = 'RS35260005601001611379') {
    const { token } = await signInMobile(app, { pid: nextPid() });
    const auth = bearer(token);
    const { primaryId } = await linkSandboxBank(app, auth, '/v1');
    const r = await app.inject({
      method: 'POST',
      url: '/v1/recipients',
      ...auth,
      payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: recipientIban },
    });
    return { auth, primaryId, recipientId: r.json().data.id as string };
  }
  const balanceOf = async (id: string) =>
    (await t.db.system.selectFrom('bank_accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow())
      .balance;

  it('50 concurrent remittances from one account never overdraw; the balance is the start minus the successful totals', async () => {
    const p = await payer();
    await t.db.system.updateTable('bank_accounts').set({ balance: '10000.00' }).where('id', '=', p.primaryId).execute();
    const amounts = Array.from({ length: 50 }, (_, i) => 500 + i * 10);
    const results = await Promise.all(
      amounts.map((amount) =>
        app.inject({
          method: 'POST',
          url: '/v1/transactions/remittance',
          ...p.auth,
          payload: { recipientId: p.recipientId, amount },
        }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 201);
    const refused = results.filter((r) => r.statusCode === 402);
    expect(ok.length + refused.length).toBe(50);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const spent = ok.reduce((sum, r) => sum.plus(String(r.json().data.total)), new D(0));
    const balance = new D(await balanceOf(p.primaryId));
    expect(balance.gte(0)).toBe(true);
    expect(balance.toFixed(2)).toBe(new D('10000').minus(spent).toFixed(2));
    const rows = await t.db.system
      .selectFrom('transactions')
      .select(['id', 'total'])
      .where('bank_account_id', '=', p.primaryId)
      .execute();
    expect(rows).toHaveLength(ok.length);
    const inits = await t.db.system
      .selectFrom('payment_initiations')
      .select('transaction_id')
      .where(
        'transaction_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(inits).toHaveLength(ok.length);
    // Every refused request could not have fitted in what was left when it ran.
    const smallestRefused = Math.min(...refused.map((r) => amounts[results.indexOf(r)]));
    expect(balance.lt(new D(smallestRefused).times('1.005'))).toBe(true);
  });

  it('two concurrent requests with one Idempotency-Key debit once and answer the same', async () => {
    const p = await payer();
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/v1/transactions/remittance',
        headers: { ...p.auth.headers, 'idempotency-key': 'race-1' },
        payload: { recipientId: p.recipientId, amount: 1000 },
      });
    const results = await Promise.all([send(), send(), send(), send()]);
    for (const r of results) expect(r.statusCode).toBe(201);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    expect(await balanceOf(p.primaryId)).toBe('48995.00');
    const count = await t.db.system
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('bank_account_id', '=', p.primaryId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('concurrent QR payments with one Idempotency-Key debit once and answer the same', async () => {
    const { token } = await signInMobile(app, { pid: nextPid() });
    const reg = await app.inject({
      method: 'POST',
      url: '/v1/merchants/register',
      ...bearer(token),
      payload: { businessName: 'Kafé Sol', orgNumber: '923609016', bankAccount: '12345678903' },
    });
    expect(reg.statusCode).toBe(201);
    const p = await payer();
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/v1/transactions/qr-payment',
        headers: { ...p.auth.headers, 'idempotency-key': 'qr-race' },
        payload: { merchantId: reg.json().data.merchantId, amount: 1000 },
      });
    const results = await Promise.all([send(), send(), send(), send()]);
    for (const r of results) expect(r.statusCode).toBe(201);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    // 1000 + the 1 % fee, once.
    expect(await balanceOf(p.primaryId)).toBe('48990.00');
    const count = await t.db.system
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('bank_account_id', '=', p.primaryId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('two settlement workers on one database never settle a payment twice', async () => {
    const good = await payer();
    const bad = await payer('RS35160000000000300000');
    const sends = [];
    for (let i = 0; i < 20; i++) {
      sends.push(
        app.inject({
          method: 'POST',
          url: '/v1/transactions/remittance',
          ...good.auth,
          payload: { recipientId: good.recipientId, amount: 100 },
        }),
      );
      sends.push(
        app.inject({
          method: 'POST',
          url: '/v1/transactions/remittance',
          ...bad.auth,
          payload: { recipientId: bad.recipientId, amount: 100 },
        }),
      );
    }
    for (const r of await Promise.all(sends)) expect(r.statusCode).toBe(201);
    const processing = async () =>
      Number(
        (
          await t.db.system
            .selectFrom('transactions')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('status', '=', 'processing')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await processing();
    const runs = await Promise.all([
      settle(app.ctx.payments, 5),
      settle(second.ctx.payments, 5),
      settle(app.ctx.payments, 50),
      settle(second.ctx.payments, 50),
    ]);
    const rest = await settle(app.ctx.payments, 100);
    const completed = [...runs, rest].reduce((n, r) => n + r.completed, 0);
    const failed = [...runs, rest].reduce((n, r) => n + r.failed, 0);
    // Earlier tests of this file left good payments processing too.
    expect(completed).toBe(before - 20);
    expect(failed).toBe(20);
    expect(await processing()).toBe(0);
    // Each failed debit restored exactly once.
    expect(await balanceOf(bad.primaryId)).toBe('50000.00');
    expect(await balanceOf(good.primaryId)).toBe('47990.00');
    const notes = await t.db.system
      .selectFrom('notifications')
      .select((eb) => ['type', eb.fn.countAll<string>().as('n')])
      .where('type', 'in', ['transaction_complete', 'system'])
      .groupBy('type')
      .execute();
    expect(Object.fromEntries(notes.map((n) => [n.type, Number(n.n)]))).toEqual({
      transaction_complete: completed,
      system: 20,
    });
  });
});

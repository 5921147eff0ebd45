import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userScope } from '../src/db/user-scope.js';
import { getMerchantDashboard } from '../src/modules/merchants/merchants.service.js';
import { bearer, buildTestApp, linkSandboxBank, nextPid, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

const ORG = '923609016';
const ACCOUNT = '12345678903';
const register = (
  auth: ReturnType<typeof web> | ReturnType<typeof bearer>,
  prefix: string,
  payload: Record<string, unknown>,
) => env.app.inject({ method: 'POST', url: `${prefix}/merchants/register`, ...auth, payload });

async function payingCustomer(given_name = 'Ola', family_name = 'Nordmann') {
  const auth = bearer((await signInMobile(env.app, { pid: nextPid(), given_name, family_name })).token);
  const { primaryId } = await linkSandboxBank(env.app, auth, '/v1');
  const userId = (await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...auth })).json().data.id as string;
  return { auth, primaryId, userId };
}

describe('merchants (R12)', () => {
  it('registers a merchant (201 with the QR value), upgrades the role, and refuses a second registration or a taken org number with 409', async () => {
    const auth = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const res = await register(auth, '/api', {
      businessName: 'Kafé Sol',
      orgNumber: ORG,
      address: 'Storgata 1, 0155 Oslo',
      bankAccount: '1234.56.78903',
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      merchantId: expect.stringMatching(/^mer_[0-9a-f]{16}$/),
      businessName: 'Kafé Sol',
      orgNumber: ORG,
      address: 'Storgata 1, 0155 Oslo',
      qrValue: `app://pay/${data.merchantId}`,
    });
    expect((await env.app.inject({ method: 'GET', url: '/api/auth/me', ...auth })).json().data.role).toBe('merchant');
    const again = await register(auth, '/api', {
      businessName: 'Kafé Sol 2',
      orgNumber: '974760673',
      bankAccount: ACCOUNT,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('conflict');
    const other = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const dup = await register(other, '/v1', { businessName: 'Copy', orgNumber: ORG, bankAccount: ACCOUNT });
    expect(dup.statusCode).toBe(409);
    expect((await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...other })).json().data.role).toBe('user');
  });

  it('refuses a wrong org-number check digit, a wrong length and a bad payout account with 422', async () => {
    const auth = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    for (const [field, payload] of [
      ['orgNumber', { orgNumber: '923609017', bankAccount: ACCOUNT }],
      ['orgNumber', { orgNumber: '92360901', bankAccount: ACCOUNT }],
      ['bankAccount', { orgNumber: '974760673', bankAccount: '12345678901' }],
    ] as const) {
      const res = await register(auth, '/v1', { businessName: 'Shop', ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().details[0].field).toBe(field);
    }
    expect((await register(auth, '/v1', { orgNumber: ORG })).statusCode).toBe(400);
  });

  it('cuts the address to 300 characters and accepts a Norwegian IBAN as payout account', async () => {
    const auth = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const res = await register(auth, '/v1', {
      businessName: 'Long Address AS',
      orgNumber: '974760673',
      address: 'A'.repeat(400),
      bankAccount: 'NO93 8601 1117 947',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.address).toHaveLength(300);
  });

  it('keeps dashboard, QR and merchant transactions to the merchant role (403 otherwise)', async () => {
    const auth = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    for (const url of [
      '/v1/merchants/dashboard',
      '/v1/merchants/qr',
      '/v1/merchants/qr.png',
      '/v1/merchants/qr.svg',
      '/v1/merchants/transactions',
    ]) {
      const res = await env.app.inject({ method: 'GET', url, ...auth });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });

  it('serves the QR value and the QR image as PNG and SVG', async () => {
    const auth = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const { merchantId } = (
      await register(auth, '/api', { businessName: 'QR Shop', orgNumber: '981129687', bankAccount: ACCOUNT })
    ).json().data;
    const qr = await env.app.inject({ method: 'GET', url: '/api/merchants/qr', ...auth });
    expect(qr.json().data).toEqual({
      merchantId,
      businessName: 'QR Shop',
      qrValue: `app://pay/${merchantId}`,
      address: null,
    });
    const png = await env.app.inject({ method: 'GET', url: '/api/merchants/qr.png', ...auth });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const svg = await env.app.inject({ method: 'GET', url: '/api/merchants/qr.svg', ...auth });
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });

  it("names a scanned code's merchant to any signed-in payer (business name only, and whether it is the caller's own); unknown is 404", async () => {
    const owner = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const { merchantId } = (
      await register(owner, '/api', {
        businessName: 'Fiskebutikken Ørje',
        orgNumber: '995525828',
        address: 'Brugata 2, 1870 Ørje',
        bankAccount: ACCOUNT,
      })
    ).json().data;
    const payer = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const seen = await env.app.inject({ method: 'GET', url: `/v1/merchants/${merchantId}`, ...payer });
    expect(seen.statusCode).toBe(200);
    // Nothing a payer does not need: no org number, address or payout account.
    expect(seen.json()).toEqual({ data: { merchantId, businessName: 'Fiskebutikken Ørje', own: false } });
    const mine = await env.app.inject({ method: 'GET', url: `/api/merchants/${merchantId}`, ...owner });
    expect(mine.json().data).toEqual({ merchantId, businessName: 'Fiskebutikken Ørje', own: true });
    // The merchant's own routes are still theirs: /merchants/qr is not a merchant id.
    expect((await env.app.inject({ method: 'GET', url: '/v1/merchants/qr', ...payer })).statusCode).toBe(403);
    expect((await env.app.inject({ method: 'GET', url: '/api/merchants/qr', ...owner })).json().data.merchantId).toBe(
      merchantId,
    );
    for (const id of ['mer_0000000000000000', 'usr_e0bf939d86c521760b489d07', "mer_' OR '1'='1"]) {
      const res = await env.app.inject({ method: 'GET', url: `/v1/merchants/${encodeURIComponent(id)}`, ...payer });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await env.app.inject({ method: 'GET', url: `/v1/merchants/${merchantId}` })).statusCode).toBe(401);
  });

  it("takes QR payments (1 % fee paid by the payer), refuses paying one's own merchant (422), and shows them on the dashboard", async () => {
    const owner = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    await linkSandboxBank(env.app, owner);
    const { merchantId } = (
      await register(owner, '/api', { businessName: 'Bakeri', orgNumber: '914778271', bankAccount: ACCOUNT })
    ).json().data;
    const ownerId = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...owner })).json().data.id;

    const self = await env.app.inject({
      method: 'POST',
      url: '/api/transactions/qr-payment',
      ...owner,
      payload: { merchantId, amount: 50 },
    });
    expect(self.statusCode).toBe(422);

    const c = await payingCustomer('Ola', 'Nordmann');
    const pay = await env.app.inject({
      method: 'POST',
      url: '/v1/transactions/qr-payment',
      ...c.auth,
      payload: { merchantId, amount: 250 },
    });
    expect(pay.statusCode).toBe(201);
    expect(pay.json().data).toEqual({
      id: expect.stringMatching(/^tx_qr_[0-9a-f]{16}$/),
      type: 'qr_payment',
      status: 'completed',
      amount: 250,
      currency: 'NOK',
      fee: 2.5,
      feePercent: 1,
      merchantName: 'Bakeri',
      merchantId,
      fromAccount: 'Sandbox Bank',
      createdAt: expect.any(String),
    });
    const balance = await env.db.system
      .selectFrom('bank_accounts')
      .select('balance')
      .where('id', '=', c.primaryId)
      .executeTakeFirstOrThrow();
    expect(balance.balance).toBe('49747.50');
    const c2 = await payingCustomer('Kari', 'Hansen');
    expect(
      (
        await env.app.inject({
          method: 'POST',
          url: '/v1/transactions/qr-payment',
          ...c2.auth,
          payload: { merchantId, amount: 100.01 },
        })
      ).statusCode,
    ).toBe(201);

    const dash = await env.app.inject({ method: 'GET', url: '/api/merchants/dashboard', ...owner });
    expect(dash.statusCode).toBe(200);
    expect(dash.json().data).toMatchObject({
      period: 'today',
      revenue: 350.01,
      transactionCount: 2,
      fees: 3.5,
      netRevenue: 350.01,
    });
    expect(new Date(dash.json().data.payoutTime).getTime()).toBeGreaterThan(Date.now());
    for (const period of ['week', 'month']) {
      expect(
        (await env.app.inject({ method: 'GET', url: `/api/merchants/dashboard?period=${period}`, ...owner })).json()
          .data.revenue,
      ).toBe(350.01);
    }
    expect(
      (await env.app.inject({ method: 'GET', url: '/api/merchants/dashboard?period=year', ...owner })).statusCode,
    ).toBe(400);

    const list = await env.app.inject({ method: 'GET', url: '/api/merchants/transactions', ...owner });
    expect(list.json().pagination).toEqual({ page: 1, limit: 20, total: 2 });
    expect(list.json().data.map((t: { customerName: string }) => t.customerName)).toEqual(['Kari H.', 'Ola N.']);

    // qr_payment notifications to payer and merchant (R13).
    const payerNote = await env.db.system
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', c.userId)
      .where('type', '=', 'qr_payment')
      .execute();
    expect(payerNote).toHaveLength(1);
    expect(payerNote[0].body).toContain('Bakeri');
    const merchantNotes = await env.db.system
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('type', '=', 'qr_payment')
      .execute();
    expect(merchantNotes.map((n) => n.body).sort()).toEqual([
      expect.stringContaining('Kari H.'),
      expect.stringContaining('Ola N.'),
    ]);
    expect(merchantNotes.map((n) => n.body).join(' ')).not.toContain('Nordmann');
  });

  it('stores a QR payment as what it is (issue 34): NOK to Norway at rate 1, the fee and total, the order the bank gets', async () => {
    const owner = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const { merchantId } = (
      await register(owner, '/v1', { businessName: 'Fisk AS', orgNumber: '912345602', bankAccount: ACCOUNT })
    ).json().data;
    const c = await payingCustomer();
    const pay = await env.app.inject({
      method: 'POST',
      url: '/v1/transactions/qr-payment',
      ...c.auth,
      payload: { merchantId, amount: 99.5 },
    });
    expect(pay.statusCode, pay.body).toBe(201);
    const id = pay.json().data.id as string;
    const row = await env.db.system
      .selectFrom('transactions as t')
      .innerJoin('payment_initiations as p', 'p.transaction_id', 't.id')
      .selectAll('t')
      .select(['p.payment_order'])
      .where('t.id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: c.userId,
      type: 'qr_payment',
      status: 'completed',
      bank_account_id: c.primaryId,
      recipient_id: null,
      merchant_id: merchantId,
      recipient_name: 'Fisk AS',
      recipient_country: 'NO',
      from_account: 'Sandbox Bank',
      send_amount: '99.50',
      send_currency: 'NOK',
      receive_amount: '99.50',
      receive_currency: 'NOK',
      fee: '1.00',
      total: '100.50',
      eta: null,
    });
    expect(Number(row.exchange_rate)).toBe(1);
    expect(row.payment_order).toMatchObject({
      amount: '100.50',
      currency: 'NOK',
      creditorAccount: ACCOUNT,
      creditorName: 'Fisk AS',
      reference: id,
    });
    const balance = await env.db.system
      .selectFrom('bank_accounts')
      .select('balance')
      .where('id', '=', c.primaryId)
      .executeTakeFirstOrThrow();
    expect(balance.balance).toBe('49899.50');
  });

  it('refuses a QR payment with the answer of its own check, recording and debiting nothing (issue 34)', async () => {
    const owner = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const { primaryId: ownerAccount } = await linkSandboxBank(env.app, owner, '/v1');
    const { merchantId } = (
      await register(owner, '/v1', { businessName: 'Egen Butikk', orgNumber: '912345610', bankAccount: ACCOUNT })
    ).json().data;
    const pay = (auth: ReturnType<typeof bearer>, payload: object) =>
      env.app.inject({ method: 'POST', url: '/v1/transactions/qr-payment', ...auth, payload });
    const countOf = async (userId: string) =>
      Number(
        (
          await env.db.system
            .selectFrom('transactions')
            .where('user_id', '=', userId)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const balanceOf = async (id: string) =>
      (await env.db.system.selectFrom('bank_accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow())
        .balance;
    const ownerId = (await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...owner })).json().data.id as string;

    // One's own merchant.
    const self = await pay(owner, { merchantId, amount: 50 });
    expect(self.statusCode).toBe(422);
    expect(self.json()).toMatchObject({
      error: 'validation_error',
      message: 'You cannot pay your own merchant',
      details: [{ field: 'merchantId', message: 'is your own merchant' }],
    });
    expect(await countOf(ownerId)).toBe(0);
    expect(await balanceOf(ownerAccount)).toBe('50000.00');

    // An unknown merchant.
    const c = await payingCustomer();
    const unknown = await pay(c.auth, { merchantId: 'mer_0000000000000000', amount: 10 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found', message: 'Merchant not found' });

    // A payer without a linked bank account.
    const bare = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const bareId = (await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...bare })).json().data.id as string;
    const none = await pay(bare, { merchantId, amount: 10 });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('no_bank_account');
    expect(await countOf(bareId)).toBe(0);

    // The balance: one cent short of amount and fee is refused, the exact total is paid.
    await env.db.system.updateTable('bank_accounts').set({ balance: '101.00' }).where('id', '=', c.primaryId).execute();
    const short = await pay(c.auth, { merchantId, amount: 100.01 });
    expect(short.statusCode).toBe(402);
    expect(short.json().error).toBe('insufficient_balance');
    expect(await balanceOf(c.primaryId)).toBe('101.00');
    expect(await countOf(c.userId)).toBe(0);
    const exact = await pay(c.auth, { merchantId, amount: 100 });
    expect(exact.statusCode, exact.body).toBe(201);
    expect(await balanceOf(c.primaryId)).toBe('0.00');
    expect(await countOf(c.userId)).toBe(1);
  });

  it('answers 404 for an unknown merchant and bounds the QR amount (1 to 100000, 2 decimals)', async () => {
    const c = await payingCustomer();
    expect(
      (
        await env.app.inject({
          method: 'POST',
          url: '/v1/transactions/qr-payment',
          ...c.auth,
          payload: { merchantId: 'mer_0000000000000000', amount: 10 },
        })
      ).statusCode,
    ).toBe(404);
    const owner = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const { merchantId } = (
      await register(owner, '/v1', { businessName: 'Kiosk', orgNumber: '889640782', bankAccount: ACCOUNT })
    ).json().data;
    for (const amount of [0.99, 100000.01, 1.001]) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/transactions/qr-payment',
        ...c.auth,
        payload: { merchantId, amount },
      });
      expect(res.statusCode, String(amount)).toBe(422);
      expect(res.json(), String(amount)).toMatchObject({ error: 'validation_error', details: [{ field: 'amount' }] });
    }
    expect(
      (
        await env.app.inject({
          method: 'POST',
          url: '/v1/transactions/qr-payment',
          ...c.auth,
          payload: { merchantId, amount: 1 },
        })
      ).statusCode,
    ).toBe(201);
  });

  it('counts the dashboard periods and the 15:00 payout cut-off in Oslo time', async () => {
    const owner = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const { merchantId } = (
      await register(owner, '/api', { businessName: 'Klokke', orgNumber: '982463718', bankAccount: ACCOUNT })
    ).json().data;
    const ownerId = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...owner })).json().data.id;
    const c = await payingCustomer();
    // Monday 2026-11-23 15:30 in Oslo (CET, UTC+1).
    const now = new Date('2026-11-23T14:30:00Z');
    const at = [
      '2026-11-23T14:01:00Z',
      '2026-11-23T13:59:00Z',
      '2026-11-22T23:30:00Z',
      '2026-11-22T22:30:00Z',
      '2026-10-31T22:30:00Z',
    ];
    for (const [i, createdAt] of at.entries()) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/transactions/qr-payment',
        ...c.auth,
        payload: { merchantId, amount: 10 ** i },
      });
      await env.db.system
        .updateTable('transactions')
        .set({ created_at: new Date(createdAt) })
        .where('id', '=', res.json().data.id)
        .execute();
    }
    const today = await getMerchantDashboard(userScope(env.db, ownerId), 'today', now);
    expect(today).toMatchObject({
      revenue: 111,
      transactionCount: 3,
      nextPayout: 1,
      payoutTime: '2026-11-24T14:00:00.000Z',
    });
    expect((await getMerchantDashboard(userScope(env.db, ownerId), 'week', now)).revenue).toBe(111);
    expect((await getMerchantDashboard(userScope(env.db, ownerId), 'month', now)).revenue).toBe(1111);
    // Before 15:00 the cut-off was yesterday's.
    const morning = await getMerchantDashboard(userScope(env.db, ownerId), 'today', new Date('2026-11-23T10:00:00Z'));
    expect(morning.payoutTime).toBe('2026-11-23T14:00:00.000Z');
  });
});

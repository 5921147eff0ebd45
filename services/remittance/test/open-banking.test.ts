import { runExclusive } from '@app/shared/scheduler';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userScope } from '../src/db/user-scope.js';
import { JOB_LOCKS } from '../src/jobs/job-locks.js';
import { withCheckDigits } from '../src/lib/national-id.js';
import { expireConsents, syncConsentUnattended } from '../src/modules/open-banking/open-banking.service.js';
import { createSandboxProvider } from '../src/modules/open-banking/providers/sandbox.js';
import { bearer, buildTestApp, pathOf, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
let seq = 200;
const nextPid = () => {
  for (;;) {
    const n = withCheckDigits(`0711${70 + (seq % 20)}${seq++}`);
    if (n) return n;
  }
};
const DAY = 86_400_000;

beforeAll(async () => {
  env = await buildTestApp({ SANDBOX_SETTLEMENT_SECONDS: '0' });
});
afterAll(async () => env?.close());

/** Creates a consent on the web surface and walks through the sandbox bank's pages. */
async function consentWeb(cookie: string, scope?: string) {
  const created = await env.app.inject({
    method: 'POST',
    url: '/api/open-banking/consents',
    ...web(cookie),
    payload: scope ? { scope } : {},
  });
  expect(created.statusCode).toBe(201);
  const { consentId, redirectUrl } = created.json().data;
  const bank = await env.app.inject({ method: 'GET', url: pathOf(redirectUrl) });
  expect(bank.statusCode).toBe(302);
  const back = await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
  return { consentId: consentId as string, bankRedirect: bank.headers.location as string, final: back };
}

async function accounts(cookie: string) {
  const res = await env.app.inject({ method: 'GET', url: '/api/bank-accounts', ...web(cookie) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('open banking consent (R8)', () => {
  it('links the two sandbox accounts: checking (primary, 50000.00) and savings (1500.00)', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { consentId, bankRedirect, final } = await consentWeb(cookie);
    expect(consentId).toMatch(/^con_/);
    expect(new URL(bankRedirect).pathname).toBe('/api/open-banking/callback');
    expect(final.statusCode).toBe(302);
    expect(final.headers.location).toBe(`/bank-accounts?consentId=${consentId}`);

    const list = await accounts(cookie);
    expect(list.data).toHaveLength(2);
    expect(list.data[0]).toMatchObject({
      bankName: 'Sandbox Bank',
      balance: 50000,
      currency: 'NOK',
      isPrimary: true,
      stale: false,
      consentId,
    });
    expect(list.data[1]).toMatchObject({ bankName: 'Sandbox Bank', balance: 1500, currency: 'NOK', isPrimary: false });
    expect(list.data[0].accountNumber).toMatch(/^\d{11}$/);
    expect(list.totalBalance).toBe(51500);

    const me = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(cookie) })).json().data;
    expect(me.totalBalance).toBe(51500);
    expect(me.bankAccounts.map((a: { isPrimary: boolean }) => a.isPrimary)).toEqual([true, false]);

    const consent = await env.db.system
      .selectFrom('ob_consents')
      .selectAll()
      .where('id', '=', consentId)
      .executeTakeFirstOrThrow();
    expect(consent).toMatchObject({
      status: 'active',
      scope: 'AISP+PISP',
      provider: 'sandbox',
      bank_account_id: list.data[0].id,
    });
    expect(consent.expires_at!.getTime() - consent.granted_at!.getTime()).toBe(90 * DAY);

    const consents = (await env.app.inject({ method: 'GET', url: '/api/open-banking/consents', ...web(cookie) })).json()
      .data;
    expect(consents).toEqual([
      expect.objectContaining({ id: consentId, status: 'active', renewalDue: false, unattendedReadsToday: 0 }),
    ]);
  });

  it('GET /auth/me shows balances in cents as numbers, NOK accounts summed, primary first then by linking time', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    await consentWeb(cookie);
    const user = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(cookie) })).json().data;
    const db = env.db.system;
    await sql`UPDATE bank_accounts SET balance = 10250.05 WHERE user_id = ${user.id} AND is_primary`.execute(db);
    await sql`UPDATE bank_accounts SET balance = 0.10, created_at = now() - interval '1 day' WHERE user_id = ${user.id} AND NOT is_primary`.execute(
      db,
    );
    await sql`INSERT INTO bank_accounts (id, user_id, consent_id, provider, external_account_id, bank_name, account_number, balance, currency, is_primary, created_at)
      SELECT 'bac_eur_' || ${user.id}, user_id, consent_id, provider, 'ext-eur', 'Euro Bank', '12345678903', 999.99, 'EUR', false, now() - interval '2 days'
      FROM bank_accounts WHERE user_id = ${user.id} AND is_primary`.execute(db);
    const me = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(cookie) })).json().data;
    expect(me.totalBalance).toBe(10250.15);
    expect(
      me.bankAccounts.map((a: { balance: number; currency: string; isPrimary: boolean }) => [
        a.balance,
        a.currency,
        a.isPrimary,
      ]),
    ).toEqual([
      [10250.05, 'NOK', true],
      [999.99, 'EUR', false],
      [0.1, 'NOK', false],
    ]);
    const { rows } = await sql<{ created_at: Date }>`SELECT created_at FROM users WHERE id = ${user.id}`.execute(db);
    expect(me.createdAt).toBe(rows[0].created_at.toISOString());
    expect(Object.keys(me)).toEqual([
      'id',
      'email',
      'firstName',
      'lastName',
      'role',
      'totalBalance',
      'bankAccounts',
      'kycStatus',
      'createdAt',
    ]);
    expect(Object.keys(me.bankAccounts[0])).toEqual([
      'id',
      'bankName',
      'accountNumber',
      'balance',
      'currency',
      'isPrimary',
    ]);
  });

  it('sends consents created on /v1 back to the app deep link', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    const created = await env.app.inject({
      method: 'POST',
      url: '/v1/open-banking/consents',
      ...bearer(token),
      payload: { scope: 'AISP' },
    });
    expect(created.statusCode).toBe(201);
    // No body at all: the default scope.
    const bare = await env.app.inject({ method: 'POST', url: '/v1/open-banking/consents', ...bearer(token) });
    expect(bare.statusCode).toBe(201);
    const bareRow = await env.db.system
      .selectFrom('ob_consents')
      .select('scope')
      .where('id', '=', bare.json().data.consentId)
      .executeTakeFirstOrThrow();
    expect(bareRow.scope).toBe('AISP+PISP');
    const { consentId, redirectUrl } = created.json().data;
    const bank = await env.app.inject({ method: 'GET', url: pathOf(redirectUrl) });
    const back = await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    expect(back.headers.location).toBe(`app://open-banking/callback?consentId=${consentId}`);
    const list = (await env.app.inject({ method: 'GET', url: '/v1/bank-accounts', ...bearer(token) })).json();
    expect(list.data).toHaveLength(2);
  });

  it('refuses a callback with a wrong state, and a replayed callback links nothing twice', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const created = (
      await env.app.inject({ method: 'POST', url: '/api/open-banking/consents', ...web(cookie), payload: {} })
    ).json().data;
    const bank = await env.app.inject({ method: 'GET', url: pathOf(created.redirectUrl) });
    const good = new URL(bank.headers.location as string);
    const forged = new URL(good);
    forged.searchParams.set('state', 'forged');
    const refused = await env.app.inject({ method: 'GET', url: pathOf(forged.toString()) });
    expect(refused.headers.location).toContain('error=consent_failed');
    expect(
      (
        await env.db.system
          .selectFrom('ob_consents')
          .select('status')
          .where('id', '=', created.consentId)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('pending');

    await env.app.inject({ method: 'GET', url: pathOf(good.toString()) });
    await env.app.inject({ method: 'GET', url: pathOf(good.toString()) });
    expect((await accounts(cookie)).data).toHaveLength(2);
  });

  it('records a consent the user denies at the bank as revoked', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const created = (
      await env.app.inject({ method: 'POST', url: '/api/open-banking/consents', ...web(cookie), payload: {} })
    ).json().data;
    const bank = await env.app.inject({ method: 'GET', url: `${pathOf(created.redirectUrl)}&decision=deny` });
    const back = await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    expect(back.headers.location).toContain('error=consent_denied');
    expect((await accounts(cookie)).data).toHaveLength(0);
  });

  it('validates the scope', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/open-banking/consents',
      ...web(cookie),
      payload: { scope: 'ALL' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('bad_request');
  });

  it('revokes a consent; balance reads then return the cached balance, stale, with a warning', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { consentId } = await consentWeb(cookie);
    const [checking] = (await accounts(cookie)).data;
    const other = await signInWeb(env.app, { pid: nextPid() });
    expect(
      (await env.app.inject({ method: 'DELETE', url: `/api/open-banking/consents/${consentId}`, ...web(other.cookie) }))
        .statusCode,
    ).toBe(404);

    const revoked = await env.app.inject({
      method: 'DELETE',
      url: `/api/open-banking/consents/${consentId}`,
      ...web(cookie),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toMatchObject({ id: consentId, status: 'revoked' });
    expect(revoked.json().data.revokedAt).toBeTruthy();
    const bankSide = await env.db.system.selectFrom('sandbox_bank_consents').select('status').execute();
    expect(bankSide.map((c) => c.status)).toContain('revoked');

    const refresh = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${checking.id}/refresh`,
      ...web(cookie),
    });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.json().data).toMatchObject({
      id: checking.id,
      balance: 50000,
      stale: true,
      consentStatus: 'revoked',
    });
    expect(refresh.json().warning).toMatch(/consent/i);
  });

  it('the expiry job marks consents past expires_at expired', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { consentId } = await consentWeb(cookie);
    await env.db.system
      .updateTable('ob_consents')
      .set({ expires_at: new Date(Date.now() + 3 * DAY) })
      .where('id', '=', consentId)
      .execute();
    const soon = (await env.app.inject({ method: 'GET', url: '/api/open-banking/consents', ...web(cookie) })).json()
      .data[0];
    expect(soon).toMatchObject({ status: 'active', renewalDue: true });

    await env.db.system
      .updateTable('ob_consents')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', consentId)
      .execute();
    // Reads never show an expired consent as active, even before the job has run.
    expect((await accounts(cookie)).data[0]).toMatchObject({ stale: true, consentStatus: 'expired' });
    const expired = await expireConsents(env.app.ctx.openBanking);
    expect(expired).toContain(consentId);
    expect(
      (
        await env.db.system
          .selectFrom('ob_consents')
          .select('status')
          .where('id', '=', consentId)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('expired');
    expect(await expireConsents(env.app.ctx.openBanking)).not.toContain(consentId);
  });
});

describe('bank accounts and balance reads (R8)', () => {
  it('switches the primary account; another user cannot touch it', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    await consentWeb(cookie);
    const [, savings] = (await accounts(cookie)).data;
    const other = await signInWeb(env.app, { pid: nextPid() });
    expect(
      (await env.app.inject({ method: 'POST', url: `/api/bank-accounts/${savings.id}/primary`, ...web(other.cookie) }))
        .statusCode,
    ).toBe(404);
    const res = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${savings.id}/primary`,
      ...web(cookie),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: savings.id, isPrimary: true });
    const list = (await accounts(cookie)).data;
    expect(list.filter((a: { isPrimary: boolean }) => a.isPrimary).map((a: { id: string }) => a.id)).toEqual([
      savings.id,
    ]);
  });

  it('counts at most 4 unattended reads a day; reads the user asks for do not count; a new day resets', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { consentId } = await consentWeb(cookie);
    const [checking] = (await accounts(cookie)).data;
    const ob = env.app.ctx.openBanking;
    const now = new Date();
    const userId = (
      await env.db.system
        .selectFrom('ob_consents')
        .select('user_id')
        .where('id', '=', consentId)
        .executeTakeFirstOrThrow()
    ).user_id;
    const owner = userScope(env.db, userId);

    // The bank's balance moves; unattended syncs pick it up until the day's reads are used up.
    await env.db.system
      .updateTable('sandbox_bank_accounts')
      .set({ balance: '49000.00' })
      .where('is_checking', '=', true)
      .where('customer_ref', '=', userId)
      .execute();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await syncConsentUnattended(ob, owner, consentId, now));
    expect(results).toEqual([true, true, true, true, false]);
    const row = await env.db.system
      .selectFrom('ob_consents')
      .select(['access_count_today', 'last_access_date'])
      .where('id', '=', consentId)
      .executeTakeFirstOrThrow();
    expect(row.access_count_today).toBe(4);
    expect((await accounts(cookie)).data[0].balance).toBe(49000);

    // A read the user asks for still works and leaves the counter alone.
    await env.db.system
      .updateTable('sandbox_bank_accounts')
      .set({ balance: '48000.00' })
      .where('is_checking', '=', true)
      .where('customer_ref', '=', userId)
      .execute();
    const refresh = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${checking.id}/refresh`,
      ...web(cookie),
    });
    expect(refresh.json().data).toMatchObject({ balance: 48000, stale: false });
    expect(refresh.json().warning).toBeUndefined();
    expect(
      (
        await env.db.system
          .selectFrom('ob_consents')
          .select('access_count_today')
          .where('id', '=', consentId)
          .executeTakeFirstOrThrow()
      ).access_count_today,
    ).toBe(4);
    const view = (await env.app.inject({ method: 'GET', url: '/api/open-banking/consents', ...web(cookie) })).json()
      .data[0];
    expect(view.unattendedReadsToday).toBe(4);

    // Next day: the counter starts again.
    const tomorrow = new Date(now.getTime() + DAY);
    expect(await syncConsentUnattended(ob, owner, consentId, tomorrow)).toBe(true);
    const after = await env.db.system
      .selectFrom('ob_consents')
      .select(['access_count_today', 'last_access_date'])
      .where('id', '=', consentId)
      .executeTakeFirstOrThrow();
    expect(after.access_count_today).toBe(1);
    expect(after.last_access_date).not.toBe(row.last_access_date);
  });

  it("returns 404 for another user's account refresh", async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    await consentWeb(cookie);
    const [checking] = (await accounts(cookie)).data;
    const other = await signInWeb(env.app, { pid: nextPid() });
    const res = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${checking.id}/refresh`,
      ...web(other.cookie),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('sandbox bank payments', () => {
  it('debits at initiation, completes after settlement, rejects creditor accounts ending in 0000 and refunds', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { consentId } = await consentWeb(cookie);
    const consent = await env.db.system
      .selectFrom('ob_consents')
      .selectAll()
      .where('id', '=', consentId)
      .executeTakeFirstOrThrow();
    const [checking] = (await accounts(cookie)).data;
    const account = await env.db.system
      .selectFrom('bank_accounts')
      .selectAll()
      .where('id', '=', checking.id)
      .executeTakeFirstOrThrow();
    const bank = createSandboxProvider(env.db.system, { publicUrl: 'http://localhost:3001', settlementMs: 0 });
    const order = {
      externalAccountId: account.external_account_id,
      currency: 'NOK',
      creditorName: 'Ana',
      reference: 'test',
    };
    const balance = async () =>
      (await bank.readBalance(consent.external_consent_id!, account.external_account_id)).amount;

    const redirect = { redirectUri: 'http://localhost:3001/api/payments/callback', state: 's' };
    const okOrder = { ...order, amount: '1005.00', creditorAccount: 'RS35260005601001611379', endToEndId: 'e2e-ok' };
    const ok = await bank.initiatePayment(consent.external_consent_id!, okOrder, redirect);
    // Instant authorization: no redirect, accepted at once.
    expect(ok).toMatchObject({ status: 'pending', authorizationUrl: null });
    expect(await balance()).toBe('48995.00');
    // The same end-to-end id is the same payment: not booked twice.
    expect((await bank.initiatePayment(consent.external_consent_id!, okOrder, redirect)).paymentId).toBe(ok.paymentId);
    expect(await balance()).toBe('48995.00');
    expect((await bank.paymentStatus(ok.paymentId)).status).toBe('completed');

    const bad = await bank.initiatePayment(
      consent.external_consent_id!,
      { ...order, amount: '100.00', creditorAccount: 'RS35260005601000000', endToEndId: 'e2e-bad' },
      redirect,
    );
    expect(await balance()).toBe('48895.00');
    expect((await bank.paymentStatus(bad.paymentId)).status).toBe('rejected');
    expect(await bank.paymentStatus(bad.paymentId)).toMatchObject({ status: 'rejected', bankStatus: 'RJCT' });
    expect(await balance()).toBe('48995.00');

    await expect(
      bank.initiatePayment(
        consent.external_consent_id!,
        { ...order, amount: '100000.00', creditorAccount: 'X1', endToEndId: 'e2e-big' },
        redirect,
      ),
    ).rejects.toMatchObject({
      reason: 'insufficient_funds',
    });
  });
});

describe('background jobs on several instances (G12)', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)('a job runs only where its advisory lock is won', async () => {
    await env.db.system.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${JOB_LOCKS.consentExpiry})`.execute(conn);
      try {
        let ran = false;
        const result = await runExclusive(env.db.system, 'postgres', JOB_LOCKS.consentExpiry, async () => {
          ran = true;
          return 1;
        });
        expect(result).toBeUndefined();
        expect(ran).toBe(false);
      } finally {
        await sql`SELECT pg_advisory_unlock(${JOB_LOCKS.consentExpiry})`.execute(conn);
      }
    });
    expect(await runExclusive(env.db.system, 'postgres', JOB_LOCKS.consentExpiry, async () => 1)).toBe(1);
  });
});

import { createHash, generateKeyPairSync } from 'node:crypto';
import { runExclusive } from '@app/shared/scheduler';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userScope } from '../src/db/user-scope.js';
import { JOB_LOCKS } from '../src/jobs/job-locks.js';
import { notifyRenewalsDue, syncConsentUnattended } from '../src/modules/open-banking/open-banking.service.js';
import { type EnableBankingMock, follow, startEnableBankingMock } from './enable-banking-mock.js';
import { buildTestApp, linkSandboxBank, nextPid, pathOf, signInWeb, type TestApp, web } from './helpers.js';

/**
 * Consents for real (issue 30): the renewal job notifies a consent expiring within the window once;
 * POST /open-banking/consents/:id/renew authorizes again at the same bank and the callback replaces
 * the consent, keeping the bank accounts (same ids) so recipients and payments keep working; a
 * consent the bank refuses (expired or revoked there) on a balance read or a payment is marked for
 * re-authorization, the user notified once, and the same renewal brings it back. With the sandbox
 * bank (instant authorization) and with Enable Banking's mock (new account uids per session: the
 * accounts are matched by IBAN). On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
const DAY = 86_400_000;
type Env = Awaited<ReturnType<typeof buildTestApp>>;

async function getJson(app: TestApp, url: string, cookie: string) {
  const res = await app.inject({ method: 'GET', url, ...web(cookie) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function securityNotes(env: Env, userId: string) {
  return env.db.system
    .selectFrom('notifications')
    .select(['title', 'body'])
    .where('user_id', '=', userId)
    .where('type', '=', 'security')
    .execute();
}

async function signedIn(env: Env) {
  const { cookie } = await signInWeb(env.app, { pid: nextPid() });
  const userId = (await getJson(env.app, '/api/auth/me', cookie)).data.id as string;
  return { cookie, userId };
}

async function addRecipient(env: Env, cookie: string) {
  const r = await env.app.inject({
    method: 'POST',
    url: '/api/recipients',
    ...web(cookie),
    payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data.id as string;
}

const remit = (env: Env, cookie: string, recipientId: string, amount: number) =>
  env.app.inject({
    method: 'POST',
    url: '/api/transactions/remittance',
    ...web(cookie),
    payload: { recipientId, amount },
  });

/**
 * A second web sign-in of the same user whose eID sign-in lies `ms` in the past. Aged before its
 * first request, so no instance has it in its session cache.
 */
async function signedInAgo(env: Env, pid: string, ms: number): Promise<string> {
  const { cookie } = await signInWeb(env.app, { pid });
  await env.db.system
    .updateTable('sessions')
    .set({ authenticated_at: new Date(Date.now() - ms) })
    .where('token_hash', '=', createHash('sha256').update(cookie).digest('hex'))
    .execute();
  return cookie;
}

const expireIn = (env: Env, consentId: string, ms: number) =>
  env.db.system
    .updateTable('ob_consents')
    .set({ expires_at: new Date(Date.now() + ms) })
    .where('id', '=', consentId)
    .execute();

describe('consent renewal and re-authorization with the sandbox bank (issue 30)', () => {
  let env: Env;
  beforeAll(async () => {
    env = await buildTestApp({ SANDBOX_SETTLEMENT_SECONDS: '0', CONSENT_RENEWAL_WINDOW: '7d' });
  });
  afterAll(async () => env?.close());

  it('notifies a consent expiring within the window once (the job twice, and two instances at once)', async () => {
    const { cookie, userId } = await signedIn(env);
    const { accounts } = await linkSandboxBank(env.app, web(cookie));
    const consentId = (await getJson(env.app, '/api/bank-accounts', cookie)).data[0].consentId as string;
    expect(accounts).toHaveLength(2);

    // 90 days left: not due, nothing notified.
    expect(await notifyRenewalsDue(env.app.ctx.openBanking)).not.toContain(consentId);
    await expireIn(env, consentId, 8 * DAY);
    expect(await notifyRenewalsDue(env.app.ctx.openBanking)).not.toContain(consentId);

    await expireIn(env, consentId, 3 * DAY);
    const ob = env.app.ctx.openBanking;
    // CONSENT_RENEWAL_WINDOW=2d: three days left is not due yet.
    const twoDays = {
      ...ob,
      config: { ...ob.config, openBanking: { ...ob.config.openBanking, renewalWindowMs: 2 * DAY } },
    };
    expect(await notifyRenewalsDue(twoDays)).not.toContain(consentId);
    const both = await Promise.all([
      runExclusive(env.db.system, env.db.kind, JOB_LOCKS.consentRenewal, () => notifyRenewalsDue(ob)),
      runExclusive(env.db.system, env.db.kind, JOB_LOCKS.consentRenewal, () => notifyRenewalsDue(ob)),
    ]);
    expect(both.flatMap((r) => r ?? []).filter((id) => id === consentId)).toHaveLength(1);
    expect(await notifyRenewalsDue(ob)).not.toContain(consentId);
    const notes = await securityNotes(env, userId);
    expect(notes).toHaveLength(1);
    expect(notes[0].title).toBe('Banksamtykket utløper snart');
    expect(notes[0].body).toContain('Sandbox Bank');
    // In the user's notification list.
    const listed = (await getJson(env.app, '/api/notifications', cookie)).data;
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'security', title: 'Banksamtykket utløper snart' })]),
    );

    const consents = (await getJson(env.app, '/api/open-banking/consents', cookie)).data;
    expect(consents.find((c: { id: string }) => c.id === consentId)).toMatchObject({
      status: 'active',
      renewalDue: true,
      reauthorizationRequired: false,
    });
    const view = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    expect(view.every((a: { renewalDue: boolean }) => a.renewalDue)).toBe(true);

    // A new expiry (extended by hand here) is notified again, once.
    await expireIn(env, consentId, 2 * DAY);
    expect(await notifyRenewalsDue(ob)).toContain(consentId);
    expect(await notifyRenewalsDue(ob)).not.toContain(consentId);
    expect(await securityNotes(env, userId)).toHaveLength(2);
  });

  it('renews at the same bank: the callback replaces the consent, the accounts keep their ids, payments keep working', async () => {
    const { cookie } = await signedIn(env);
    await linkSandboxBank(env.app, web(cookie));
    const recipientId = await addRecipient(env, cookie);
    const before = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    const oldConsent = before[0].consentId as string;
    const paid = await remit(env, cookie, recipientId, 1000);
    expect(paid.statusCode, paid.body).toBe(201);
    await expireIn(env, oldConsent, 2 * DAY);

    const renewed = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${oldConsent}/renew`,
      ...web(cookie),
    });
    expect(renewed.statusCode, renewed.body).toBe(201);
    const { consentId, redirectUrl } = renewed.json().data;
    expect(consentId).not.toBe(oldConsent);
    // Until the bank's callback nothing changes: the accounts still hang on the old consent.
    expect((await getJson(env.app, '/api/bank-accounts', cookie)).data[0].consentId).toBe(oldConsent);

    // The sandbox bank's page (instant authorization), then our callback, as a browser follows them.
    const bank = await env.app.inject({ method: 'GET', url: pathOf(redirectUrl) });
    expect(bank.statusCode).toBe(302);
    const back = await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`/bank-accounts?consentId=${consentId}`);

    const after = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    expect(after.map((a: { id: string }) => a.id)).toEqual(before.map((a: { id: string }) => a.id));
    for (const a of after) {
      expect(a).toMatchObject({ consentId, consentStatus: 'active', renewalDue: false, stale: false });
      expect(new Date(a.consentExpiresAt).getTime()).toBeGreaterThan(Date.now() + 80 * DAY);
    }
    expect(after[0].isPrimary).toBe(true);
    const consents = (await getJson(env.app, '/api/open-banking/consents', cookie)).data;
    expect(consents.find((c: { id: string }) => c.id === consentId)).toMatchObject({
      status: 'active',
      renewsConsentId: oldConsent,
      bankAccountId: before[0].id,
    });
    expect(consents.find((c: { id: string }) => c.id === oldConsent)).toMatchObject({ status: 'revoked' });
    // The replaced consent is closed at the bank too.
    const oldExternal = await env.db.system
      .selectFrom('ob_consents as c')
      .innerJoin('sandbox_bank_consents as b', 'b.id', 'c.external_consent_id')
      .select('b.status')
      .where('c.id', '=', oldConsent)
      .executeTakeFirstOrThrow();
    expect(oldExternal.status).toBe('revoked');

    // The same account pays again; the history keeps the first payment on it.
    const again = await remit(env, cookie, recipientId, 500);
    expect(again.statusCode, again.body).toBe(201);
    const history = (await getJson(env.app, '/api/transactions', cookie)).data;
    expect(history).toHaveLength(2);
    // A replayed callback changes nothing; renewing the replaced consent is refused.
    const replay = await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    expect(replay.headers.location).toBe(`/bank-accounts?consentId=${consentId}`);
    const closed = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${oldConsent}/renew`,
      ...web(cookie),
    });
    expect(closed.statusCode).toBe(409);
  });

  it('renews an expired consent too; a declined renewal leaves the old consent and its accounts as they were', async () => {
    const { cookie } = await signedIn(env);
    await linkSandboxBank(env.app, web(cookie));
    const oldConsent = (await getJson(env.app, '/api/bank-accounts', cookie)).data[0].consentId as string;
    await env.db.system
      .updateTable('ob_consents')
      .set({ status: 'expired', expires_at: new Date(Date.now() - DAY) })
      .where('id', '=', oldConsent)
      .execute();

    const declined = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${oldConsent}/renew`,
      ...web(cookie),
    });
    expect(declined.statusCode).toBe(201);
    const bankDeny = await env.app.inject({
      method: 'GET',
      url: `${pathOf(declined.json().data.redirectUrl)}&decision=deny`,
    });
    const denied = await env.app.inject({ method: 'GET', url: pathOf(bankDeny.headers.location as string) });
    expect(denied.headers.location).toMatch(/error=consent_denied/);
    const still = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    expect(still[0]).toMatchObject({ consentId: oldConsent, consentStatus: 'expired', stale: true });

    const res = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${oldConsent}/renew`,
      ...web(cookie),
    });
    const bank = await env.app.inject({ method: 'GET', url: pathOf(res.json().data.redirectUrl) });
    await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    const after = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    expect(after.map((a: { id: string }) => a.id)).toEqual(still.map((a: { id: string }) => a.id));
    expect(after[0]).toMatchObject({ consentId: res.json().data.consentId, consentStatus: 'active', stale: false });
  });

  it('renewal and linking again need an eID sign-in from the last REAUTH_MAX_AGE (403 reauthentication_required); a fresh one proceeds', async () => {
    const pid = nextPid();
    // A first link does not (the sign-in that created the account is the authentication).
    const first = await signedInAgo(env, pid, 60 * 60_000);
    await linkSandboxBank(env.app, web(first));
    const consentId = (await getJson(env.app, '/api/bank-accounts', first)).data[0].consentId as string;
    await expireIn(env, consentId, -DAY);

    const old = await signedInAgo(env, pid, 11 * 60_000);
    const consentsBefore = await env.db.system.selectFrom('ob_consents').select('id').execute();
    const renew = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${consentId}/renew`,
      ...web(old),
    });
    expect(renew.statusCode).toBe(403);
    expect(renew.json()).toMatchObject({ error: 'reauthentication_required' });
    expect(renew.json().message).toMatch(/10 minutes/);
    const relink = await env.app.inject({
      method: 'POST',
      url: '/api/open-banking/consents',
      ...web(old),
      payload: {},
    });
    expect(relink.statusCode).toBe(403);
    expect(relink.json().error).toBe('reauthentication_required');
    // Nothing was started at the bank.
    expect(await env.db.system.selectFrom('ob_consents').select('id').execute()).toHaveLength(consentsBefore.length);

    // A refresh is not a sign-in.
    const refreshed = await env.app.inject({ method: 'POST', url: '/api/auth/refresh', ...web(old) });
    expect(refreshed.statusCode).toBe(200);
    const next = (refreshed.headers['set-cookie'] as string | string[]).toString().match(/app_token=([^;]+)/)![1];
    const still = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${consentId}/renew`,
      ...web(next),
    });
    expect(still.json().error).toBe('reauthentication_required');

    // Within the window (9 minutes ago) the renewal proceeds and replaces the expired consent.
    const recent = await signedInAgo(env, pid, 9 * 60_000);
    const ok = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${consentId}/renew`,
      ...web(recent),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const bank = await env.app.inject({ method: 'GET', url: pathOf(ok.json().data.redirectUrl) });
    await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    expect((await getJson(env.app, '/api/bank-accounts', recent)).data[0]).toMatchObject({
      consentId: ok.json().data.consentId,
      consentStatus: 'active',
    });
    const again = await env.app.inject({
      method: 'POST',
      url: '/api/open-banking/consents',
      ...web(recent),
      payload: {},
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it("another user's consent is not found; a pending one cannot be renewed", async () => {
    const a = await signedIn(env);
    const b = await signedIn(env);
    await linkSandboxBank(env.app, web(a.cookie));
    const consentId = (await getJson(env.app, '/api/bank-accounts', a.cookie)).data[0].consentId as string;
    const other = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${consentId}/renew`,
      ...web(b.cookie),
    });
    expect(other.statusCode).toBe(404);
    const pending = await env.app.inject({ method: 'POST', url: '/api/open-banking/consents', ...web(a.cookie) });
    const again = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${pending.json().data.consentId}/renew`,
      ...web(a.cookie),
    });
    expect(again.statusCode).toBe(409);
  });

  it('a consent revoked at the bank: a payment fails with the reason, the consent needs re-authorization (notified once), renewal brings it back', async () => {
    const { cookie, userId } = await signedIn(env);
    const { primaryId } = await linkSandboxBank(env.app, web(cookie));
    const recipientId = await addRecipient(env, cookie);
    const consentId = (await getJson(env.app, '/api/bank-accounts', cookie)).data[0].consentId as string;
    // The user withdraws the consent in the bank's own app: our record still says active.
    await sql`UPDATE sandbox_bank_consents SET status = 'revoked' WHERE id = (SELECT external_consent_id FROM ob_consents WHERE id = ${consentId})`.execute(
      env.db.system,
    );

    const refused = await remit(env, cookie, recipientId, 1000);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('no_bank_account');
    const view = (await getJson(env.app, '/api/bank-accounts', cookie)).data.find(
      (a: { id: string }) => a.id === primaryId,
    );
    expect(view).toMatchObject({ balance: 50000, consentStatus: 'active', reauthorizationRequired: true, stale: true });
    expect((await getJson(env.app, '/api/open-banking/consents', cookie)).data[0]).toMatchObject({
      id: consentId,
      reauthorizationRequired: true,
      renewalDue: false,
    });
    // Now refused before the bank is called, nothing reserved; the balance read gives the last one.
    const second = await remit(env, cookie, recipientId, 1000);
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toMatch(/renew/);
    const refresh = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${primaryId}/refresh`,
      ...web(cookie),
    });
    expect(refresh.json()).toMatchObject({ data: { reauthorizationRequired: true, stale: true, balance: 50000 } });
    expect(refresh.json().warning).toMatch(/no longer accepts/);
    const notes = await securityNotes(env, userId);
    expect(notes.map((n) => n.title)).toEqual(['Banken trenger ny godkjenning']);
    // The renewal job does not also ask to renew it.
    await expireIn(env, consentId, DAY);
    expect(await notifyRenewalsDue(env.app.ctx.openBanking)).not.toContain(consentId);

    const renewed = await env.app.inject({
      method: 'POST',
      url: `/api/open-banking/consents/${consentId}/renew`,
      ...web(cookie),
    });
    const bank = await env.app.inject({ method: 'GET', url: pathOf(renewed.json().data.redirectUrl) });
    await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
    const fresh = (await getJson(env.app, '/api/bank-accounts', cookie)).data.find(
      (a: { id: string }) => a.id === primaryId,
    );
    expect(fresh).toMatchObject({ reauthorizationRequired: false, stale: false, consentStatus: 'active' });
    const paid = await remit(env, cookie, recipientId, 1000);
    expect(paid.statusCode, paid.body).toBe(201);
  });
});

describe('consent renewal and re-authorization with Enable Banking (issue 30)', () => {
  const APP_ID = 'c2b1a3d4-0000-4000-8000-000000000030';
  const ASPSP = 'Mock Norsk Bank';
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let mock: EnableBankingMock;
  let env: Env;
  beforeAll(async () => {
    mock = await startEnableBankingMock({ appId: APP_ID, publicKey: keys.publicKey, aspspName: ASPSP });
    env = await buildTestApp({
      OPEN_BANKING_PROVIDER: 'enablebanking',
      ENABLE_BANKING_APP_ID: APP_ID,
      ENABLE_BANKING_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ENABLE_BANKING_API_URL: mock.url,
      ENABLE_BANKING_ASPSP: ASPSP,
    });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await mock?.close();
  });

  async function link(cookie: string, url = '/api/open-banking/consents') {
    const created = await env.app.inject({ method: 'POST', url, ...web(cookie), payload: {} });
    expect(created.statusCode, created.body).toBe(201);
    const back = await env.app.inject({ method: 'GET', url: pathOf(await follow(created.json().data.redirectUrl)) });
    expect(back.statusCode).toBe(302);
    return created.json().data.consentId as string;
  }

  it('REVOKED_SESSION on a balance read: re-authorization (notified once); renewal matches the accounts by IBAN and closes the old session', async () => {
    const { cookie, userId } = await signedIn(env);
    const consentId = await link(cookie);
    const oldSession = [...mock.sessions.values()].at(-1)!;
    const before = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    const recipientId = await addRecipient(env, cookie);
    const paid = await remit(env, cookie, recipientId, 100);
    expect(paid.statusCode, paid.body).toBe(201);

    oldSession.status = 'REVOKED';
    for (let i = 0; i < 2; i++) {
      const r = await env.app.inject({
        method: 'POST',
        url: `/api/bank-accounts/${before[0].id}/refresh`,
        ...web(cookie),
      });
      expect(r.json()).toMatchObject({ data: { reauthorizationRequired: true, stale: true } });
    }
    expect((await securityNotes(env, userId)).map((n) => n.title)).toEqual(['Banken trenger ny godkjenning']);
    expect(
      (await getJson(env.app, '/api/open-banking/consents', cookie)).data.find(
        (c: { id: string }) => c.id === consentId,
      ),
    ).toMatchObject({ status: 'active', reauthorizationRequired: true });

    // Renewal: POST /auth again, the bank's page, our callback; the new session names the accounts anew.
    const newConsent = await link(cookie, `/api/open-banking/consents/${consentId}/renew`);
    const newSession = [...mock.sessions.values()].at(-1)!;
    expect(newSession.id).not.toBe(oldSession.id);
    expect(newSession.accounts[0].uid).not.toBe(oldSession.accounts[0].uid);
    const after = (await getJson(env.app, '/api/bank-accounts', cookie)).data;
    expect(after.map((a: { id: string }) => a.id)).toEqual(before.map((a: { id: string }) => a.id));
    expect(after.map((a: { accountNumber: string }) => a.accountNumber)).toEqual(
      before.map((a: { accountNumber: string }) => a.accountNumber),
    );
    expect(after[0]).toMatchObject({ consentId: newConsent, reauthorizationRequired: false, stale: false });
    const stored = await env.db.system
      .selectFrom('bank_accounts')
      .select('external_account_id')
      .where('id', '=', before[0].id)
      .executeTakeFirstOrThrow();
    expect(stored.external_account_id).toBe(newSession.accounts[0].uid);
    expect(oldSession.status).toBe('CLOSED'); // DELETE /sessions/{id}

    // Reads go to the new session; the payment history and its account stay.
    newSession.accounts[0].balance = '999.99';
    const r = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${before[0].id}/refresh`,
      ...web(cookie),
    });
    expect(r.json()).toMatchObject({ data: { balance: 999.99, stale: false } });
    expect(r.json().warning).toBeUndefined();
    const history = (await getJson(env.app, '/api/transactions', cookie)).data;
    expect(history).toHaveLength(1);
    const tx = await env.db.system
      .selectFrom('transactions')
      .select('bank_account_id')
      .where('id', '=', history[0].id)
      .executeTakeFirstOrThrow();
    expect(tx.bank_account_id).toBe(before[0].id);
  });

  it("the consent expires at the bank's valid_until when it grants less than 90 days", async () => {
    const { cookie } = await signedIn(env);
    mock.setMaxAccess(30 * DAY);
    let consentId: string;
    const before = Date.now();
    try {
      consentId = await link(cookie);
    } finally {
      mock.setMaxAccess(null);
    }
    const consent = (await getJson(env.app, '/api/open-banking/consents', cookie)).data.find(
      (c: { id: string }) => c.id === consentId,
    );
    const expiresAt = Date.parse(consent.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    // A bank granting the 90 days asked: 90 days.
    const full = await link(cookie);
    const ninety = Date.parse(
      (await getJson(env.app, '/api/open-banking/consents', cookie)).data.find((c: { id: string }) => c.id === full)
        .expiresAt,
    );
    expect(ninety).toBeGreaterThan(Date.now() + 89 * DAY);
  });

  it('EXPIRED_SESSION on the unattended sync marks the consent for re-authorization once', async () => {
    const { cookie, userId } = await signedIn(env);
    const consentId = await link(cookie);
    [...mock.sessions.values()].at(-1)!.status = 'EXPIRED';
    const user = userScope(env.db, userId);
    expect(await syncConsentUnattended(env.app.ctx.openBanking, user, consentId)).toBe(false);
    expect(await syncConsentUnattended(env.app.ctx.openBanking, user, consentId)).toBe(false);
    expect((await securityNotes(env, userId)).map((n) => n.title)).toEqual(['Banken trenger ny godkjenning']);
    expect((await getJson(env.app, '/api/bank-accounts', cookie)).data[0]).toMatchObject({
      reauthorizationRequired: true,
      stale: true,
    });
  });
});

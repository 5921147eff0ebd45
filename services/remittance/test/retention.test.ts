import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERASED,
  purgeExpiredAccounts,
  rewrapLegacyNationalIdHashes,
} from '../src/modules/gdpr/retention.repository.js';
import {
  bearer,
  buildTestApp,
  idHash,
  linkSandboxBank,
  nextPid,
  signInMobile,
  signInWeb,
  TEST_PEPPER,
  web,
} from './helpers.js';

/** Issue 33 item 6: erasure anonymises, the national id is a keyed hash, a purge ends the retention. */
let env: Awaited<ReturnType<typeof buildTestApp>>;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

const user = (id: string) => env.db.system.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

describe('national id hash', () => {
  it('is an HMAC keyed with NATIONAL_ID_PEPPER, not the SHA-256 anyone can recompute from a candidate number', async () => {
    const pid = nextPid();
    const { user: u } = await signInMobile(env.app, { pid });
    const row = (await user(u.id))!;
    expect(row.national_id_hash).not.toBe(sha256(pid));
    expect(row.national_id_hash).toBe(idHash(pid));
    expect(row.national_id_hash_version).toBe(2);
  });

  it('rewraps stored SHA-256 values without the numbers, and a legacy user still signs in to the same account', async () => {
    const pid = nextPid();
    const other = nextPid();
    for (const [id, p] of [
      ['usr_legacy_a', pid],
      ['usr_legacy_b', other],
    ]) {
      await env.db.system
        .insertInto('users')
        .values({
          id,
          national_id_hash: sha256(p),
          national_id_hash_version: 1,
          kyc_status: 'approved',
          first_name: 'Legacy',
        })
        .execute();
    }
    // Before the rewrap reaches the row, the sign-in finds the user by its old hash.
    const before = await signInMobile(env.app, { pid });
    expect(before.user.id).toBe('usr_legacy_a');
    expect(await rewrapLegacyNationalIdHashes(env.db.system, TEST_PEPPER, 1)).toBe(2);
    expect(await rewrapLegacyNationalIdHashes(env.db.system, TEST_PEPPER)).toBe(0);
    expect((await user('usr_legacy_a'))!).toMatchObject({ national_id_hash: idHash(pid), national_id_hash_version: 2 });
    expect((await user('usr_legacy_b'))!.national_id_hash).toBe(idHash(other));
    const after = await signInMobile(env.app, { pid });
    expect(after.user.id).toBe('usr_legacy_a');
  });
});

/** A user with a bit of everything: bank, a paid and an unpaid recipient, a transfer, a complaint, consents. */
async function busyUser() {
  const pid = nextPid();
  const { cookie } = await signInWeb(env.app, {
    pid,
    given_name: 'Ada',
    family_name: 'Erased',
    email: `ada-${pid}@example.no`,
  });
  const { token, user: u } = await signInMobile(env.app, { pid });
  const auth = web(cookie);
  await linkSandboxBank(env.app, auth);
  const recipient = async (name: string, bankAccount: string) =>
    (
      await env.app.inject({
        method: 'POST',
        url: '/api/recipients',
        ...auth,
        payload: { name, country: 'RS', currency: 'RSD', bankAccount },
      })
    ).json().data.id as string;
  const paid = await recipient('Marko Paid', 'RS35260005601001611379');
  const unpaid = await recipient('Jovan Unpaid', 'RS35105008123123123173');
  const sent = await env.app.inject({
    method: 'POST',
    url: '/v1/transactions/remittance',
    ...bearer(token),
    payload: { recipientId: paid, amount: 500 },
  });
  expect(sent.statusCode).toBe(201);
  await env.app.inject({
    method: 'POST',
    url: '/api/complaints',
    ...auth,
    payload: { category: 'fees', subject: 'My neighbour Per', description: 'Personal story' },
  });
  await env.app.inject({
    method: 'POST',
    url: '/api/consents',
    ...auth,
    payload: { consentType: 'terms', granted: true },
  });
  return { id: u.id as string, pid, auth, token, paid, unpaid, txId: sent.json().data.id as string };
}

describe('erasure anonymises what anti-money-laundering law does not need', () => {
  it('blanks identity, contact, IPs, user agents, complaints and unpaid recipients; keeps the transfer records', async () => {
    const u = await busyUser();
    const res = await env.app.inject({ method: 'DELETE', url: '/api/user/account', ...u.auth });
    expect(res.statusCode).toBe(200);

    const row = (await user(u.id))!;
    expect(row).toMatchObject({ email: null, first_name: '', last_name: '', phone: null, date_of_birth: null });
    expect(row.national_id_hash).toBe(idHash(u.pid));
    const years = (row.retain_until!.getTime() - row.deleted_at!.getTime()) / (365.25 * 86_400_000);
    expect(years).toBeCloseTo(5, 1);

    const sessions = await env.db.system
      .selectFrom('sessions')
      .select(['ip_address', 'user_agent'])
      .where('user_id', '=', u.id)
      .execute();
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) expect(s).toEqual({ ip_address: null, user_agent: null });
    for (const table of ['gdpr_consents', 'gdpr_consent_events', 'data_access_requests'] as const) {
      const ips = await env.db.system.selectFrom(table).select('ip_address').where('user_id', '=', u.id).execute();
      expect(ips.length, table).toBeGreaterThan(0);
      expect(
        ips.every((r) => r.ip_address === null),
        table,
      ).toBe(true);
    }
    const complaints = await env.db.system
      .selectFrom('complaints')
      .select(['subject', 'description'])
      .where('user_id', '=', u.id)
      .execute();
    expect(complaints).toEqual([{ subject: ERASED, description: ERASED }]);

    const recipients = await env.db.system
      .selectFrom('recipients')
      .select(['id', 'name', 'bank_account', 'deleted_at'])
      .where('user_id', '=', u.id)
      .execute();
    const byId = Object.fromEntries(recipients.map((r) => [r.id, r]));
    expect(byId[u.unpaid]).toMatchObject({ name: ERASED, bank_account: ERASED });
    // The payee of a transfer stays with the transfer for the retention period.
    expect(byId[u.paid]).toMatchObject({ name: 'Marko Paid', bank_account: 'RS35260005601001611379' });
    expect(byId[u.paid].deleted_at).toBeInstanceOf(Date);
    const tx = await env.db.system
      .selectFrom('transactions')
      .selectAll()
      .where('id', '=', u.txId)
      .executeTakeFirstOrThrow();
    expect(tx).toMatchObject({ send_amount: '500.00', recipient_name: 'Marko Paid' });

    for (const table of ['notifications', 'idempotency_keys', 'user_settings'] as const) {
      const left = await env.db.system.selectFrom(table).select('user_id').where('user_id', '=', u.id).execute();
      expect(left, table).toEqual([]);
    }
    // Nothing personal left in the account's text columns.
    const dump = JSON.stringify(
      await Promise.all(
        (['users', 'sessions', 'complaints', 'recipients', 'bank_accounts'] as const).map((t) =>
          env.db.system
            .selectFrom(t)
            .selectAll()
            .where(t === 'users' ? 'id' : 'user_id', '=', u.id)
            .execute(),
        ),
      ),
    );
    for (const text of ['Ada', 'Erased', '@example.no', 'Jovan', 'RS35105008123123123173', 'neighbour', '127.0.0.1'])
      expect(dump, text).not.toContain(text);
  });
});

describe('purge at the end of the retention period', () => {
  it('deletes every row of an erased account whose retain_until has passed, and nothing of anyone else', async () => {
    const gone = await busyUser();
    const kept = await busyUser();
    const stillRetained = await busyUser();
    for (const u of [gone, stillRetained])
      expect((await env.app.inject({ method: 'DELETE', url: '/api/user/account', ...u.auth })).statusCode).toBe(200);
    await env.db.system
      .updateTable('users')
      .set({ retain_until: new Date(Date.now() - 1000) })
      .where('id', '=', gone.id)
      .execute();

    expect(await purgeExpiredAccounts(env.db.system, new Date())).toBe(1);
    expect(await user(gone.id)).toBeUndefined();
    for (const table of [
      'sessions',
      'transactions',
      'payment_initiations',
      'recipients',
      'bank_accounts',
      'ob_consents',
      'complaints',
      'gdpr_consents',
      'gdpr_consent_events',
      'data_access_requests',
      'notifications',
    ] as const) {
      const left = await env.db.system.selectFrom(table).select('user_id').where('user_id', '=', gone.id).execute();
      expect(left, table).toEqual([]);
    }
    expect(await user(stillRetained.id)).toBeDefined();
    expect(await user(kept.id)).toMatchObject({ first_name: 'Ada', deleted_at: null });
    const keptTx = await env.db.system.selectFrom('transactions').select('id').where('user_id', '=', kept.id).execute();
    expect(keptTx).toHaveLength(1);
    expect(await purgeExpiredAccounts(env.db.system, new Date())).toBe(0);
  });

  it('keeps a merchant that others paid as a tombstone without its national id', async () => {
    const merchantPid = nextPid();
    const merchant = web((await signInWeb(env.app, { pid: merchantPid })).cookie);
    const reg = await env.app.inject({
      method: 'POST',
      url: '/api/merchants/register',
      ...merchant,
      payload: { businessName: 'Kafé Tomb', orgNumber: '974760673', bankAccount: '12345678903' },
    });
    expect(reg.statusCode).toBe(201);
    const merchantId = reg.json().data.merchantId as string;
    const me = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...merchant })).json().data.id as string;
    const payer = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    await linkSandboxBank(env.app, payer);
    const pay = await env.app.inject({
      method: 'POST',
      url: '/api/transactions/qr-payment',
      ...payer,
      payload: { merchantId, amount: 10 },
    });
    expect(pay.statusCode).toBe(201);
    expect((await env.app.inject({ method: 'DELETE', url: '/api/user/account', ...merchant })).statusCode).toBe(200);
    await env.db.system
      .updateTable('users')
      .set({ retain_until: new Date(Date.now() - 1000) })
      .where('id', '=', me)
      .execute();
    await purgeExpiredAccounts(env.db.system, new Date());
    expect(await user(me)).toMatchObject({ national_id_hash: null, retain_until: null, first_name: '' });
    const payment = await env.db.system
      .selectFrom('transactions')
      .select('merchant_id')
      .where('id', '=', pay.json().data.id)
      .executeTakeFirstOrThrow();
    expect(payment.merchant_id).toBe(merchantId);
  });
});

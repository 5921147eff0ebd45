import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { EXPORTED_TABLES, USER_COLUMNS, USER_WITHHELD } from '../src/modules/gdpr/export.registry.js';
import {
  bearer,
  buildTestApp,
  linkSandboxBank,
  nextPid,
  pathOf,
  setCookies,
  signInMobile,
  signInWeb,
  web,
} from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

/** Every (table, column) holding a user id, from the catalog: a foreign key to users, or a column named user_id or *_user_id. */
async function userIdColumns(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ t: string; c: string }>`
    SELECT cl.relname AS t, a.attname AS c
      FROM pg_constraint con
      JOIN pg_class cl ON cl.oid = con.conrelid
      JOIN pg_namespace n ON n.oid = cl.relnamespace
      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)
     WHERE con.contype = 'f' AND con.confrelid = 'users'::regclass AND n.nspname = current_schema()
    UNION
    SELECT table_name AS t, column_name AS c
      FROM information_schema.columns
     WHERE table_schema = current_schema() AND (column_name = 'user_id' OR column_name LIKE '%\\_user\\_id')
  `.execute(db);
  return rows.map((r) => `${r.t}.${r.c}`).sort();
}

async function columnsOf(db: Kysely<DB>, table: string): Promise<string[]> {
  const { rows } = await sql<{ c: string }>`
    SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}
  `.execute(db);
  return rows.map((r) => r.c).sort();
}

/** The user-id columns that the export does not read. */
async function unexported(db: Kysely<DB>): Promise<string[]> {
  const covered = new Set(EXPORTED_TABLES.map((t) => `${t.table}.${t.userColumn}`));
  return (await userIdColumns(db)).filter((tc) => !covered.has(tc));
}

async function consentAtSandboxBank(cookie: string) {
  const created = await env.app.inject({
    method: 'POST',
    url: '/api/open-banking/consents',
    ...web(cookie),
    payload: {},
  });
  const bank = await env.app.inject({ method: 'GET', url: pathOf(created.json().data.redirectUrl) });
  await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
  return created.json().data.consentId as string;
}

describe('data export completeness (read from the database catalog)', () => {
  it('covers every table with a user-id column', async () => {
    const found = await userIdColumns(env.db.system);
    expect(found.length).toBeGreaterThanOrEqual(EXPORTED_TABLES.length);
    expect(await unexported(env.db.system)).toEqual([]);
  });

  it('classifies every column of each exported table as exported or withheld with a reason', async () => {
    for (const t of EXPORTED_TABLES) {
      const listed = [...t.columns, ...Object.keys(t.withheld)].sort();
      expect(listed, t.table).toEqual(await columnsOf(env.db.system, t.table));
      expect(Object.values(t.withheld).every((why) => why.length > 10)).toBe(true);
    }
    expect([...USER_COLUMNS, ...Object.keys(USER_WITHHELD)].sort()).toEqual(await columnsOf(env.db.system, 'users'));
  });

  it('would fail for a new table holding a user id that the export does not read', async () => {
    await env.db.system
      .transaction()
      .execute(async (trx) => {
        await sql`CREATE TABLE loyalty_points (id text PRIMARY KEY, user_id text NOT NULL REFERENCES users (id))`.execute(
          trx,
        );
        await sql`CREATE TABLE referrals (id text PRIMARY KEY, referred_user_id text)`.execute(trx);
        expect(await unexported(trx)).toEqual(['loyalty_points.user_id', 'referrals.referred_user_id']);
        throw new Error('rollback');
      })
      .catch((e: Error) => expect(e.message).toBe('rollback'));
    expect(await unexported(env.db.system)).toEqual([]);
  });
});

describe('data export', () => {
  for (const surface of ['api', 'v1'] as const) {
    it(`returns every personal record without secrets, and records the request (${surface})`, async () => {
      const pid = nextPid();
      const { cookie } = await signInWeb(env.app, {
        pid,
        given_name: 'Kari',
        family_name: 'Nordmann',
        email: `kari-${surface}@example.no`,
      });
      const { token, user } = await signInMobile(env.app, { pid }); // a second login: a security notification
      const auth = surface === 'api' ? web(cookie) : bearer(token);
      const obConsent = await consentAtSandboxBank(cookie);
      await env.app.inject({
        method: 'POST',
        url: '/api/consents',
        ...web(cookie),
        payload: { consentType: 'terms', granted: true },
      });
      await env.app.inject({
        method: 'POST',
        url: '/api/complaints',
        ...web(cookie),
        payload: { category: 'fees', subject: 'S', description: 'D' },
      });
      const recipient = await env.app.inject({
        method: 'POST',
        url: '/api/recipients',
        ...web(cookie),
        payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
      });
      expect(recipient.statusCode).toBe(201);
      const idempotencyKey = `export-${surface}`;
      const sent = await env.app.inject({
        method: 'POST',
        url: '/v1/transactions/remittance',
        headers: { ...bearer(token).headers, 'idempotency-key': idempotencyKey },
        payload: { recipientId: recipient.json().data.id, amount: 1000 },
      });
      expect(sent.statusCode).toBe(201);
      expect((await env.app.inject({ method: 'GET', url: '/api/settings', ...web(cookie) })).statusCode).toBe(200);
      const stranger = await signInWeb(env.app, { pid: nextPid() });
      await env.app.inject({
        method: 'POST',
        url: '/api/complaints',
        ...web(stranger.cookie),
        payload: { category: 'fees', subject: 'not mine', description: 'D' },
      });

      const res = await env.app.inject({ method: 'GET', url: `/${surface}/user/data-export`, ...auth });
      expect(res.statusCode).toBe(200);
      // Personal data: no cache may keep it (issue 33 item 12).
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(Date.parse(body.exportedAt)).not.toBeNaN();
      const d = body.data;
      expect(d.user).toMatchObject({
        id: user.id,
        first_name: 'Kari',
        last_name: 'Nordmann',
        kyc_status: 'approved',
        role: 'user',
        phone: null,
      });
      expect(Object.keys(d.user)).toEqual(
        expect.arrayContaining([
          'id',
          'email',
          'first_name',
          'last_name',
          'phone',
          'date_of_birth',
          'kyc_status',
          'role',
          'created_at',
        ]),
      );
      expect(d.recipients).toEqual([
        expect.objectContaining({ name: 'Marko Marković', bank_account: 'RS35260005601001611379' }),
      ]);
      expect(d.transactions).toEqual([
        expect.objectContaining({ id: sent.json().data.id, type: 'remittance', send_amount: '1000.00' }),
      ]);
      expect(d.paymentInitiations).toEqual([expect.objectContaining({ transaction_id: sent.json().data.id })]);
      expect(d.idempotencyKeys).toEqual([expect.objectContaining({ key: idempotencyKey })]);
      expect(d.settings).toMatchObject({ currency: 'NOK', language: 'nb', push_enabled: true, email_enabled: true });
      expect(d.merchant).toBeNull();
      expect(d.bankAccounts).toHaveLength(2);
      expect(d.consents).toEqual([expect.objectContaining({ consent_type: 'terms', granted: 1 })]);
      expect(d.consentHistory).toHaveLength(1);
      expect(d.complaints.map((c: { subject: string }) => c.subject)).toEqual(['S']);
      expect(d.notifications).toEqual([expect.objectContaining({ type: 'security' })]);
      expect(d.openBankingConsents).toEqual([expect.objectContaining({ id: obConsent, status: 'active' })]);
      expect(d.sessions).toHaveLength(2);
      expect(d.sessions[0]).toEqual(expect.objectContaining({ surface: 'web', ip_address: '127.0.0.1', revoked: 0 }));
      expect(d.dataAccessRequests).toEqual([expect.objectContaining({ type: 'export', status: 'completed' })]);
      for (const t of EXPORTED_TABLES) expect(d, t.section).toHaveProperty(t.section);

      // No credential leaves: neither the token hashes nor the withheld columns.
      const text = res.body;
      expect(text).not.toContain(sha256(cookie));
      expect(text).not.toContain(sha256(token));
      for (const column of [
        'token_hash',
        'national_id_hash',
        'password_hash',
        'callback_state',
        'pin_hash',
        'request_hash',
      ])
        expect(text).not.toContain(`"${column}"`);

      const rows = await env.db.system
        .selectFrom('data_access_requests')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([expect.objectContaining({ type: 'export', status: 'completed', ip_address: '127.0.0.1' })]);
    });
  }

  it('is downloadable as a JSON file with Content-Disposition, each download recorded', async () => {
    const { token, user } = await signInMobile(env.app, { pid: nextPid() });
    for (const surface of ['v1', 'api'] as const) {
      const auth = surface === 'v1' ? bearer(token) : web((await signInWeb(env.app, { pid: nextPid() })).cookie);
      const res = await env.app.inject({ method: 'GET', url: `/${surface}/user/data-export/download`, ...auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="data-export-usr_[0-9a-f]+-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json().data.user.id).toMatch(/^usr_/);
    }
    await env.app.inject({ method: 'GET', url: '/v1/user/data-export', ...bearer(token) });
    const rows = await env.db.system
      .selectFrom('data_access_requests')
      .select('type')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => r.type)).toEqual(['export', 'export']);
  });
});

describe('erasure', () => {
  for (const surface of ['api', 'v1'] as const) {
    it(`soft-deletes, revokes every session and bank consent at once, and the next eID login is a new account (${surface})`, async () => {
      const pid = nextPid();
      const { cookie } = await signInWeb(env.app, { pid });
      const { token, user } = await signInMobile(env.app, { pid });
      const obConsent = await consentAtSandboxBank(cookie);
      await env.app.inject({
        method: 'POST',
        url: '/v1/consents',
        ...bearer(token),
        payload: { consentType: 'marketing', granted: true },
      });
      await env.app.inject({
        method: 'POST',
        url: '/v1/complaints',
        ...bearer(token),
        payload: { category: 'privacy', subject: 'S', description: 'D' },
      });

      const res = await env.app.inject({
        method: 'DELETE',
        url: `/${surface}/user/account`,
        ...(surface === 'api' ? web(cookie) : bearer(token)),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBeTruthy();
      expect(res.json().retentionNote).toMatch(/5 years/);
      if (surface === 'api') expect(setCookies(res).app_token.raw).toMatch(/Expires=Thu, 01 Jan 1970/);

      // Old tokens are refused at once on both surfaces.
      for (const [url, auth] of [
        ['/api/auth/me', web(cookie)],
        ['/v1/auth/me', bearer(token)],
        ['/api/user/data-export', web(cookie)],
        ['/v1/consents', bearer(token)],
      ] as const) {
        const after = await env.app.inject({ method: 'GET', url, ...auth });
        expect(after.statusCode, url).toBe(401);
      }
      expect((await env.app.inject({ method: 'DELETE', url: '/v1/user/account', ...bearer(token) })).statusCode).toBe(
        401,
      );

      const old = await env.db.system
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(old.deleted_at).toBeInstanceOf(Date);
      const sessions = await env.db.system
        .selectFrom('sessions')
        .select('revoked')
        .where('user_id', '=', user.id)
        .execute();
      expect(sessions.map((s) => s.revoked)).toEqual([1, 1]);
      const ob = await env.db.system
        .selectFrom('ob_consents')
        .selectAll()
        .where('id', '=', obConsent)
        .executeTakeFirstOrThrow();
      expect(ob.status).toBe('revoked');
      expect(ob.revoked_at).toBeInstanceOf(Date);
      const bank = await env.db.system
        .selectFrom('sandbox_bank_consents')
        .select('status')
        .where('id', '=', ob.external_consent_id!)
        .executeTakeFirstOrThrow();
      expect(bank.status).toBe('revoked');
      const gdpr = await env.db.system.selectFrom('gdpr_consents').selectAll().where('user_id', '=', user.id).execute();
      expect(gdpr).toEqual([expect.objectContaining({ consent_type: 'marketing', granted: 0 })]);
      const requests = await env.db.system
        .selectFrom('data_access_requests')
        .select(['type', 'status'])
        .where('user_id', '=', user.id)
        .execute();
      expect(requests).toEqual([{ type: 'erasure', status: 'completed' }]);
      // Kept for the retention period.
      expect(
        await env.db.system.selectFrom('complaints').select('id').where('user_id', '=', user.id).execute(),
      ).toHaveLength(1);

      // R6: the same person signing in again gets a new, empty account.
      const again = await signInMobile(env.app, { pid });
      expect(again.user.id).not.toBe(user.id);
      const fresh = (
        await env.app.inject({ method: 'GET', url: '/v1/user/data-export', ...bearer(again.token) })
      ).json().data;
      expect(fresh.user.id).toBe(again.user.id);
      expect(fresh.complaints).toEqual([]);
      expect(fresh.consents).toEqual([]);
      expect(fresh.bankAccounts).toEqual([]);
      const both = await env.db.system
        .selectFrom('users')
        .select(['id', 'deleted_at'])
        .where('national_id_hash', '=', old.national_id_hash)
        .execute();
      expect(both).toHaveLength(2);
      const web2 = await signInWeb(env.app, { pid });
      expect((await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(web2.cookie) })).json().data.id).toBe(
        again.user.id,
      );
    });
  }

  it('makes an erased merchant unpayable: its look-up and a QR payment to it are 404, and nothing is debited', async () => {
    const merchant = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    const reg = await env.app.inject({
      method: 'POST',
      url: '/api/merchants/register',
      ...merchant,
      payload: { businessName: 'Kafé Sol', orgNumber: '923609016', bankAccount: '12345678903' },
    });
    expect(reg.statusCode).toBe(201);
    const merchantId = reg.json().data.merchantId;
    const payer = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    await linkSandboxBank(env.app, payer);
    const pay = () =>
      env.app.inject({
        method: 'POST',
        url: '/api/transactions/qr-payment',
        ...payer,
        payload: { merchantId, amount: 10 },
      });
    const lookUp = () => env.app.inject({ method: 'GET', url: `/api/merchants/${merchantId}`, ...payer });
    expect((await pay()).statusCode).toBe(201);
    expect((await lookUp()).json().data.businessName).toBe('Kafé Sol');

    expect((await env.app.inject({ method: 'DELETE', url: '/api/user/account', ...merchant })).statusCode).toBe(200);
    expect((await lookUp()).statusCode).toBe(404);
    const refused = await pay();
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe('not_found');
    const balance = (await env.app.inject({ method: 'GET', url: '/api/bank-accounts', ...payer })).json().data[0]
      .balance;
    expect(balance).toBe(50000 - 10.1);
  });
});

import { createDatabase, type Database } from '@app/shared/db/database';
import { eventually } from '@app/shared/test/eventually';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/types.js';
import { PROFILE_MAX_AGE_MS } from '../src/modules/auth/sessions.service.js';
import { bearer, buildTestApp, linkSandboxBank, nextPid, signInMobile, type TestApp, testConfig } from './helpers.js';

// The sessions kept between requests (sessions.service.ts, NotifiedCache): served while nothing
// changed, dropped by a change that commits on this instance before it answers, and by
// PostgreSQL's notification on every other instance; never served past the session's expiry.
let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

const me = (app: TestApp, token: string) => app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(token) });

/** Changes rows without the triggers that tell the caches: what a cache serves shows through. */
async function quietly(db: Database<DB>, table: 'users' | 'sessions', change: string): Promise<void> {
  await db.system.transaction().execute(async (trx) => {
    await sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER session_cache`).execute(trx);
    await sql.raw(change).execute(trx);
    await sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER session_cache`).execute(trx);
  });
}

describe('the sessions kept in memory', () => {
  it('are served from memory while nothing notifies a change, and read again once something does', async () => {
    const { token, user } = await signInMobile(env.app, { pid: nextPid(), given_name: 'Kari' });
    expect((await me(env.app, token)).json().data.firstName).toBe('Kari');
    await quietly(env.db, 'users', `UPDATE users SET first_name = 'Quiet' WHERE id = '${user.id}'`);
    expect((await me(env.app, token)).json().data.firstName).toBe('Kari');
    await env.db.system.updateTable('users').set({ first_name: 'Loud' }).where('id', '=', user.id).execute();
    expect((await me(env.app, token)).json().data.firstName).toBe('Loud');
  });

  it('show a newly linked bank account, a new primary and a payment of this instance on the next request', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    expect((await me(env.app, token)).json().data.bankAccounts).toEqual([]);
    const { primaryId, accounts } = await linkSandboxBank(env.app, bearer(token), '/v1');
    const linked = (await me(env.app, token)).json().data;
    expect(linked.bankAccounts.map((a: { balance: number }) => a.balance)).toEqual([50000, 1500]);
    expect(linked.totalBalance).toBe(51500);
    const savings = accounts.find((a) => a.id !== primaryId)!.id;
    expect(
      (await env.app.inject({ method: 'POST', url: `/v1/bank-accounts/${savings}/primary`, ...bearer(token) }))
        .statusCode,
    ).toBe(200);
    expect((await me(env.app, token)).json().data.bankAccounts[0]).toMatchObject({
      id: savings,
      isPrimary: true,
      balance: 1500,
    });
    const recipient = await env.app.inject({
      method: 'POST',
      url: '/v1/recipients',
      ...bearer(token),
      payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
    });
    const paid = await env.app.inject({
      method: 'POST',
      url: '/v1/transactions/remittance',
      ...bearer(token),
      payload: { recipientId: recipient.json().data.id, amount: 1000, bankAccountId: primaryId },
    });
    expect(paid.statusCode).toBe(201);
    const after = (await me(env.app, token)).json().data;
    expect(after.bankAccounts.find((a: { id: string }) => a.id === primaryId).balance).toBe(48995);
    expect(after.totalBalance).toBe(50495);
  });

  it('show a balance moved elsewhere (a job, another instance) within 5 seconds', async () => {
    const { token, user } = await signInMobile(env.app, { pid: nextPid() });
    const { primaryId } = await linkSandboxBank(env.app, bearer(token), '/v1');
    expect((await me(env.app, token)).json().data.totalBalance).toBe(51500);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      await env.db.system
        .updateTable('bank_accounts')
        .set({ balance: '49000.50' })
        .where('id', '=', primaryId)
        .where('user_id', '=', user.id)
        .execute();
      // Balance changes are not notified (a NOTIFY would serialize the payments' commits).
      expect((await me(env.app, token)).json().data.totalBalance).toBe(51500);
      vi.setSystemTime(Date.now() + PROFILE_MAX_AGE_MS);
      const moved = (await me(env.app, token)).json().data;
      expect(moved.bankAccounts[0].balance).toBe(49000.5);
      expect(moved.totalBalance).toBe(50500.5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('are refused once the session expires, with no change to tell', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    const hash = (
      await env.db.system
        .selectFrom('sessions')
        .select('token_hash')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).token_hash;
    await quietly(
      env.db,
      'sessions',
      `UPDATE sessions SET expires_at = now() + interval '600 milliseconds' WHERE token_hash = '${hash}'`,
    );
    expect((await me(env.app, token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    const late = await me(env.app, token);
    expect(late.statusCode).toBe(401);
  });

  it('are read on every request with SESSION_CACHE=off', async () => {
    const app = await buildApp(testConfig({ SESSION_CACHE: 'off' }), env.db);
    try {
      const { token, user } = await signInMobile(app, { pid: nextPid(), given_name: 'Uncached' });
      expect((await me(app, token)).json().data.firstName).toBe('Uncached');
      await quietly(env.db, 'users', `UPDATE users SET first_name = 'Seen' WHERE id = '${user.id}'`);
      expect((await me(app, token)).json().data.firstName).toBe('Seen');
    } finally {
      await app.close();
    }
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('several instances (PostgreSQL)', () => {
  let other: { app: TestApp; db: Database<DB> };
  beforeAll(async () => {
    const db = await createDatabase<DB>({ url: await currentUrl(), appRole: 'remittance_app', poolSize: 3 });
    other = { app: await buildApp(testConfig(), db), db };
    await other.app.ready();
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.db.close();
  });

  /** The clone's URL: the admin URL with this database's name. */
  async function currentUrl(): Promise<string> {
    const { rows } = await sql<{ db: string }>`SELECT current_database() AS db`.execute(env.db.system);
    const u = new URL(process.env.TEST_DATABASE_URL!);
    u.pathname = `/${rows[0].db}`;
    return u.toString();
  }

  it('drops a session on the other instance when the notification of its logout arrives', async () => {
    const { token, user } = await signInMobile(env.app, { pid: nextPid(), given_name: 'Both' });
    // The first request on a new pool connection listens first, and stores nothing read before.
    expect((await me(other.app, token)).statusCode).toBe(200);
    expect((await me(other.app, token)).statusCode).toBe(200);
    await quietly(env.db, 'users', `UPDATE users SET first_name = 'Quiet' WHERE id = '${user.id}'`);
    expect((await me(other.app, token)).json().data.firstName).toBe('Both');
    expect((await env.app.inject({ method: 'POST', url: '/v1/auth/logout', ...bearer(token) })).statusCode).toBe(200);
    expect(await eventually(async () => (await me(other.app, token)).statusCode === 401)).toBe(true);
  });
});

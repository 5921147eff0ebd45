import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { userScope } from '../src/db/user-scope.js';
import { buildTestApp } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
const USERS = ['usr_rls_a', 'usr_rls_b'] as const;

/** One row of every user-owned table for each user, written as the owner role. */
async function seed(system: Kysely<DB>) {
  for (const u of USERS) {
    await system
      .insertInto('users')
      .values({ id: u, national_id_hash: `hash-${u}` })
      .execute();
    await system
      .insertInto('sessions')
      .values({
        id: `ses_${u}`,
        user_id: u,
        token_hash: `tok-${u}`,
        surface: 'api',
        expires_at: new Date(Date.now() + 3600_000),
      })
      .execute();
    await system
      .insertInto('notifications')
      .values({ id: `noti_${u}`, user_id: u, type: 'system', title: 't', body: 'b' })
      .execute();
    await system
      .insertInto('ob_consents')
      .values({
        id: `con_${u}`,
        user_id: u,
        provider: 'sandbox',
        status: 'active',
        scope: 'AISP',
        surface: 'web',
        callback_state: 's',
      })
      .execute();
    await system
      .insertInto('bank_accounts')
      .values({
        id: `bac_${u}`,
        user_id: u,
        consent_id: `con_${u}`,
        provider: 'sandbox',
        external_account_id: `ext-${u}`,
        bank_name: 'Sandbox',
        account_number: `1234567890${u.length}`,
        balance: '100.00',
      })
      .execute();
  }
}

beforeAll(async () => {
  env = await buildTestApp();
  await seed(env.db.system);
});
afterAll(async () => env?.close());

describe('remittance row-level security (second wall under the user_id filters)', () => {
  it("a query without a user filter sees only the caller's rows in every user-owned table", async () => {
    const a = userScope(env.db, 'usr_rls_a');
    const seen = await a.run(async (db) => ({
      users: (await db.selectFrom('users').select('id').execute()).map((r) => r.id),
      sessions: (await db.selectFrom('sessions').select('user_id').execute()).map((r) => r.user_id),
      notifications: (await db.selectFrom('notifications').select('user_id').execute()).map((r) => r.user_id),
      consents: (await db.selectFrom('ob_consents').select('user_id').execute()).map((r) => r.user_id),
      accounts: (await db.selectFrom('bank_accounts').select('user_id').execute()).map((r) => r.user_id),
    }));
    expect(seen).toEqual({
      users: ['usr_rls_a'],
      sessions: ['usr_rls_a'],
      notifications: ['usr_rls_a'],
      consents: ['usr_rls_a'],
      accounts: ['usr_rls_a'],
    });
  });

  it("an update without a user filter changes only the caller's rows", async () => {
    const b = userScope(env.db, 'usr_rls_b');
    await b.transaction((trx) => trx.updateTable('bank_accounts').set({ balance: '7.50' }).execute());
    const balances = await env.db.system
      .selectFrom('bank_accounts')
      .select(['user_id', 'balance'])
      .where('user_id', 'in', [...USERS])
      .orderBy('user_id')
      .execute();
    expect(balances).toEqual([
      { user_id: 'usr_rls_a', balance: '100.00' },
      { user_id: 'usr_rls_b', balance: '7.50' },
    ]);
  });

  it('refuses to write a row owned by another user', async () => {
    const a = userScope(env.db, 'usr_rls_a');
    await expect(
      a.run((db) =>
        db
          .insertInto('notifications')
          .values({ id: 'noti_forged', user_id: 'usr_rls_b', type: 'system', title: 't', body: 'b' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(
      await env.db.system.selectFrom('notifications').select('id').where('id', '=', 'noti_forged').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('switching users on pooled connections never leaks the previous user, and no user sees nothing', async () => {
    for (let i = 0; i < 3; i++) {
      for (const u of USERS) {
        const ids = await userScope(env.db, u).run(async (db) =>
          (await db.selectFrom('ob_consents').select('user_id').execute()).map((r) => r.user_id),
        );
        expect(ids).toEqual([u]);
      }
    }
    const anonymous = await env.db.withContext({ kind: 'anonymous' }, (db) =>
      db.selectFrom('bank_accounts').select('id').execute(),
    );
    expect(anonymous).toEqual([]);
    const all = await env.db.system
      .selectFrom('bank_accounts')
      .select('user_id')
      .where('user_id', 'in', [...USERS])
      .execute();
    expect(all).toHaveLength(2);
  });
});

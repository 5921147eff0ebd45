import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { userScope } from '../src/db/user-scope.js';
import { buildTestApp } from './helpers.js';

// Row-level security on the money-movement, GDPR and card tables (20261123004100): a query
// through a user scope without any user filter sees only the caller's rows, and a row owned by
// someone else cannot be written. A and B own one row of every table; M owns a merchant that A
// paid by QR; Z owns nothing (the target of forged inserts).
let env: Awaited<ReturnType<typeof buildTestApp>>;
const A = 'usr_rlt_a';
const B = 'usr_rlt_b';
const M = 'usr_rlt_m';
const Z = 'usr_rlt_z';
const MERCHANT = 'mer_rlt_m';

type OwnedTable =
  | 'recipients'
  | 'transactions'
  | 'payment_initiations'
  | 'idempotency_keys'
  | 'user_settings'
  | 'gdpr_consents'
  | 'gdpr_consent_events'
  | 'complaints'
  | 'data_access_requests'
  | 'cards'
  | 'card_spending_limits'
  | 'merchants';

/** One valid row of each table for `owner`; `ref` is the user whose parent rows it points at. */
function rowsOf(owner: string, ref: string, tag: string): Record<OwnedTable, Record<string, unknown>> {
  return {
    recipients: {
      id: `rcp_${tag}`,
      user_id: owner,
      name: 'Ana',
      country: 'RS',
      currency: 'RSD',
      bank_account: 'RS35260005601001611379',
    },
    transactions: {
      id: `tx_rem_${tag}`,
      user_id: owner,
      type: 'remittance',
      status: 'processing',
      bank_account_id: `bac_${ref}`,
      recipient_id: `rcp_${ref}`,
      recipient_name: 'Ana',
      from_account: 'Sandbox',
      send_amount: '100.00',
      send_currency: 'NOK',
      receive_amount: '1000.00',
      receive_currency: 'RSD',
      exchange_rate: '10',
      fee: '0.50',
      total: '100.50',
      reference: `tx_rem_${tag}`,
    },
    payment_initiations: {
      transaction_id: `tx_rem_${tag}`,
      user_id: owner,
      provider: 'sandbox',
      external_payment_id: `sbp_${tag}`,
      end_to_end_id: `e2e_${tag}`,
      amount: '100.50',
    },
    idempotency_keys: { user_id: owner, key: `key-${tag}`, request_hash: 'h' },
    user_settings: { user_id: owner },
    gdpr_consents: { id: `gcn_${tag}`, user_id: owner, consent_type: 'marketing', granted: 1 },
    gdpr_consent_events: {
      id: `cev_${tag}`,
      user_id: owner,
      consent_id: `gcn_${ref}`,
      consent_type: 'marketing',
      granted: 1,
    },
    complaints: { id: `cmp_${tag}`, user_id: owner, category: 'service', subject: 's', description: 'd' },
    data_access_requests: { id: `dar_${tag}`, user_id: owner, type: 'export' },
    cards: { id: `crd_${tag}`, user_id: owner, type: 'virtual', last4: '1234', expiry_month: 1, expiry_year: 2030 },
    card_spending_limits: { card_id: `crd_${ref}`, user_id: owner, limit_type: 'daily', amount: '500.00' },
    merchants: {
      id: `mer_${tag}`,
      user_id: owner,
      business_name: 'Shop',
      org_number: tag === 'forged' ? '000000001' : `00000000${tag.length}`,
      bank_account: '12345678903',
    },
  };
}
const TABLES = Object.keys(rowsOf(A, A, 'x')) as OwnedTable[];
/** Tables whose rows A and B both own one of (M owns the merchant). */
const MIRRORED = TABLES.filter((t) => t !== 'merchants');

async function insertAs(system: Kysely<DB>, table: OwnedTable, row: Record<string, unknown>) {
  await (system as unknown as Kysely<any>).insertInto(table).values(row).execute();
}

async function seed(system: Kysely<DB>) {
  for (const u of [A, B, M, Z]) {
    await system
      .insertInto('users')
      .values({ id: u, national_id_hash: `hash-${u}`, first_name: `First${u.slice(-1)}`, last_name: 'Last' })
      .execute();
  }
  for (const u of [A, B]) {
    await system
      .insertInto('ob_consents')
      .values({
        id: `con_${u}`,
        user_id: u,
        provider: 'sandbox',
        status: 'active',
        scope: 'AISP+PISP',
        surface: 'api',
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
        account_number: '12345678903',
        balance: '1000.00',
      })
      .execute();
    const rows = rowsOf(u, u, u);
    for (const t of MIRRORED) await insertAs(system, t, rows[t]);
  }
  await insertAs(system, 'merchants', {
    id: MERCHANT,
    user_id: M,
    business_name: 'Kiosk M',
    org_number: '123456785',
    bank_account: '12345678903',
  });
  // A paid M's merchant by QR.
  await insertAs(system, 'transactions', {
    ...rowsOf(A, A, 'qr').transactions,
    id: 'tx_qr_a',
    type: 'qr_payment',
    status: 'completed',
    recipient_id: null,
    merchant_id: MERCHANT,
    recipient_name: 'Kiosk M',
    receive_currency: 'NOK',
    receive_amount: '100.00',
    exchange_rate: '1',
    fee: '1.00',
    total: '101.00',
    reference: 'tx_qr_a',
  });
}

beforeAll(async () => {
  env = await buildTestApp();
  await seed(env.db.system);
});
afterAll(async () => env?.close());

const ownersSeen = (db: Kysely<DB>, table: OwnedTable) =>
  (db as unknown as Kysely<any>)
    .selectFrom(table)
    .select('user_id')
    .execute()
    .then((rows: { user_id: string }[]) => [...new Set(rows.map((r) => r.user_id))].sort());

describe('row-level security on money movement, GDPR and card tables', () => {
  it("a query without a user filter sees only the caller's rows in every table", async () => {
    for (const u of [A, B]) {
      const seen = await userScope(env.db, u).run(async (db) => {
        const out: Record<string, string[]> = {};
        for (const t of TABLES) out[t] = await ownersSeen(db, t);
        return out;
      });
      expect(seen).toEqual({ ...Object.fromEntries(MIRRORED.map((t) => [t, [u]])), merchants: [] });
    }
    // The login role (jobs, migrations) still sees every user's rows.
    const all = await ownersSeen(env.db.system, 'transactions');
    expect(all).toEqual(expect.arrayContaining([A, B]));
  });

  it.each(TABLES)('refuses to insert a %s row owned by another user', async (table) => {
    const forged = rowsOf(Z, A, 'forged')[table];
    await expect(userScope(env.db, A).run((db) => insertAs(db, table, forged))).rejects.toThrow(/row-level security/);
    expect(await ownersSeen(env.db.system, table)).not.toContain(Z);
  });

  it("an update or delete without a user filter touches only the caller's rows", async () => {
    const b = userScope(env.db, B);
    await b.transaction(async (trx) => {
      await trx.updateTable('cards').set({ status: 'frozen' }).execute();
      await trx.deleteFrom('card_spending_limits').execute();
    });
    const cards = await env.db.system
      .selectFrom('cards')
      .select(['user_id', 'status'])
      .where('user_id', 'in', [A, B])
      .orderBy('user_id')
      .execute();
    expect(cards).toEqual([
      { user_id: A, status: 'active' },
      { user_id: B, status: 'frozen' },
    ]);
    expect(await ownersSeen(env.db.system, 'card_spending_limits')).toEqual([A]);
  });

  it('shows a merchant the QR payments made to it, read only, and nothing else of the payer', async () => {
    const m = userScope(env.db, M);
    const seen = await m.run(async (db) => ({
      transactions: (await db.selectFrom('transactions').select('id').execute()).map((r) => r.id),
      initiations: await ownersSeen(db, 'payment_initiations'),
      merchants: (await db.selectFrom('merchants').select('id').execute()).map((r) => r.id),
    }));
    expect(seen).toEqual({ transactions: ['tx_qr_a'], initiations: [], merchants: [MERCHANT] });
    const changed = await m.run((db) =>
      db.updateTable('transactions').set({ status: 'failed' }).where('id', '=', 'tx_qr_a').executeTakeFirst(),
    );
    expect(changed.numUpdatedRows).toBe(0n);
    expect(
      (
        await env.db.system
          .selectFrom('transactions')
          .select('status')
          .where('id', '=', 'tx_qr_a')
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('completed');
  });

  it('lets a payer reach a merchant only through payable_merchant, and only while its owner is live', async () => {
    const payable = (u: string) =>
      userScope(env.db, u).run(async (db) => ({
        direct: (await db.selectFrom('merchants').select('id').where('id', '=', MERCHANT).execute()).length,
        viaFunction: (
          await sql<{
            id: string;
            user_id: string;
            business_name: string;
          }>`SELECT id, user_id, business_name FROM payable_merchant(${MERCHANT})`.execute(db)
        ).rows,
      }));
    expect(await payable(A)).toEqual({
      direct: 0,
      viaFunction: [{ id: MERCHANT, user_id: M, business_name: 'Kiosk M' }],
    });
    const anonymous = await env.db.withContext({ kind: 'anonymous' }, (db) =>
      sql`SELECT id FROM payable_merchant(${MERCHANT})`.execute(db),
    );
    expect(anonymous.rows).toEqual([]);
    await env.db.system.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', M).execute();
    try {
      expect((await payable(A)).viaFunction).toEqual([]);
    } finally {
      await env.db.system.updateTable('users').set({ deleted_at: null }).where('id', '=', M).execute();
    }
  });

  it("gives the payer's name only to the merchant that was paid, and lets only the payer notify it", async () => {
    const name = (u: string, tx: string) =>
      userScope(env.db, u).run((db) =>
        sql`SELECT first_name, last_name FROM qr_payer_name(${tx})`.execute(db).then((r) => r.rows),
      );
    expect(await name(M, 'tx_qr_a')).toEqual([{ first_name: 'Firsta', last_name: 'Last' }]);
    expect(await name(B, 'tx_qr_a')).toEqual([]);
    expect(await name(M, `tx_rem_${A}`)).toEqual([]);

    const notify = (u: string, id: string) =>
      userScope(env.db, u).run((db) =>
        sql<{ n: number }>`SELECT notify_qr_payee('tx_qr_a', ${id}, 't', 'b') AS n`
          .execute(db)
          .then((r) => r.rows[0].n),
      );
    expect(await notify(B, 'noti_rlt_forged')).toBe(0);
    expect(await notify(A, 'noti_rlt_paid')).toBe(1);
    const notes = await env.db.system
      .selectFrom('notifications')
      .select(['id', 'user_id', 'type'])
      .where('id', 'like', 'noti_rlt_%')
      .execute();
    expect(notes).toEqual([{ id: 'noti_rlt_paid', user_id: M, type: 'qr_payment' }]);
  });
});

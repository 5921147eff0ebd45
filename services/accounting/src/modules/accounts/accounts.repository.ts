import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { AccountsTable, DB } from '../../db/types.js';
import { defaultChart } from './default-chart.js';

type Db = Kysely<DB>;

/**
 * Accounts with their type, parent code and running totals (A9 reads these, never the postings):
 * the folded totals plus the organization's moves not folded yet (ledger_moves, a few seconds'
 * worth at most), so a posting counts as soon as it commits.
 */
function accountsWithBalances(db: Db, orgId: string) {
  // One ledger_moves row per posting: its amount is debited to one account, credited to the other.
  const sides = db
    .selectFrom('ledger_moves')
    .select(['debit_account_id as account_id', 'amount as debit', sql<string>`0`.as('credit')])
    .where('organization_id', '=', orgId)
    .unionAll(
      db
        .selectFrom('ledger_moves')
        .select(['credit_account_id as account_id', sql<string>`0`.as('debit'), 'amount as credit'])
        .where('organization_id', '=', orgId),
    );
  const pending = db
    .selectFrom(sides.as('s'))
    .select(['s.account_id', sql<string>`sum(s.debit)`.as('debit'), sql<string>`sum(s.credit)`.as('credit')])
    .groupBy('s.account_id')
    .as('m');
  return db
    .selectFrom('accounts as a')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .leftJoin('accounts as p', (j) =>
      j.onRef('p.id', '=', 'a.parent_account_id').onRef('p.organization_id', '=', 'a.organization_id'),
    )
    .leftJoin('account_balances as b', 'b.account_id', 'a.id')
    .leftJoin(pending, 'm.account_id', 'a.id')
    .selectAll('a')
    .select([
      't.name as type_name',
      't.normal_balance',
      'p.code as parent_code',
      sql<string | null>`coalesce(b.debit_total, 0) + coalesce(m.debit, 0)`.as('debit_total'),
      sql<string | null>`coalesce(b.credit_total, 0) + coalesce(m.credit, 0)`.as('credit_total'),
    ])
    .where('a.organization_id', '=', orgId);
}

/** The default chart of accounts (A7) of a new organization, in its base currency and language. */
export async function insertDefaultChart(db: Db, orgId: string, baseCurrency: string, language: string): Promise<void> {
  await db
    .insertInto('accounts')
    .values(
      defaultChart(language).map(([code, name, typeId]) => ({
        organization_id: orgId,
        code,
        name,
        account_type_id: typeId,
        currency_code: baseCurrency,
      })),
    )
    .execute();
}

export type AccountRow = Awaited<ReturnType<typeof findAccount>> & {};

export function listAccounts(db: Db, orgId: string, f: { accountTypeId?: number; isActive?: boolean }) {
  let q = accountsWithBalances(db, orgId);
  if (f.accountTypeId !== undefined) q = q.where('a.account_type_id', '=', f.accountTypeId);
  if (f.isActive !== undefined) q = q.where('a.is_active', '=', f.isActive);
  return q.orderBy('a.code').execute();
}

export function findAccount(db: Db, orgId: string, id: string) {
  return accountsWithBalances(db, orgId).where('a.id', '=', id).executeTakeFirst();
}

/**
 * An account's id, code, type and state, without balances: what other modules check before they
 * refer to it. Locked FOR KEY SHARE (their foreign key would take the same lock), so a deletion of
 * the account waits for the writer and then sees its reference.
 */
export function findAccountHeader(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'code', 'account_type_id', 'is_active'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forKeyShare()
    .executeTakeFirst();
}

export function findAccountByCode(db: Db, orgId: string, code: string) {
  return db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('code', '=', code)
    .executeTakeFirst();
}

/** Locks the account: a concurrent posting (its foreign-key check) waits for the change. */
export function lockAccount(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Moves of accounts in one organization's tree take turns (a transaction-level advisory lock), so
 * two moves at once (A under B, B under A) cannot together make a loop that neither saw.
 */
export async function lockAccountTree(db: Db, orgId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`account-tree:${orgId}`}, 0))`.execute(db);
}

/** The account and every account above it, nearest first (bounded: the tree has no loops). */
export async function accountWithAncestors(db: Db, orgId: string, id: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE up(id, parent, depth) AS (
      SELECT id, parent_account_id, 0 FROM accounts WHERE organization_id = ${orgId} AND id = ${id}
      UNION ALL
      SELECT a.id, a.parent_account_id, up.depth + 1
      FROM accounts a JOIN up ON a.id = up.parent AND a.organization_id = ${orgId}
      WHERE up.depth < 100
    )
    SELECT id FROM up ORDER BY depth`.execute(db);
  return rows.map((r) => r.id);
}

export function findAccountType(db: Db, id: number) {
  return db.selectFrom('account_types').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAccount(db: Db, values: Insertable<AccountsTable>): Promise<string> {
  const row = await db.insertInto('accounts').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function updateAccount(db: Db, orgId: string, id: string, values: Updateable<AccountsTable>) {
  return db
    .updateTable('accounts')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function hasPostings(db: Db, orgId: string, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select('id')
    .where('organization_id', '=', orgId)
    .where((eb) => eb.or([eb('debit_account_id', '=', accountId), eb('credit_account_id', '=', accountId)]))
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export async function deleteAccount(db: Db, orgId: string, id: string): Promise<void> {
  await db.deleteFrom('accounts').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { DB, LedgerTransactionsTable } from '../../db/types.js';
import type { ReferenceType } from './ledger.types.js';

type Db = Kysely<DB>;
export type LedgerRow = Selectable<LedgerTransactionsTable>;

/** One row to insert; decimal values as strings. */
export interface PostingInput {
  transaction_date: string;
  description: string;
  notes: string | null;
  debit_account_id: string;
  credit_account_id: string;
  amount: string;
  currency_code: string;
  exchange_rate: string;
  base_amount: string;
  reference_type: ReferenceType | null;
  reference_id: string | null;
  reversal_of: string | null;
  locked: boolean;
  created_by: string | null;
}

const COLUMNS = sql.raw(
  'transaction_date, description, notes, debit_account_id, credit_account_id, amount, currency_code, exchange_rate, ' +
    'base_amount, reference_type, reference_id, reversal_of, locked, created_by',
);

/**
 * Wraps the CTE `ins` (rows just inserted into ledger_transactions) with the running-total
 * upsert: one statement inserts the postings and moves every touched account's balance. The
 * balance rows are upserted in account-id order, so two transactions touching the same
 * accounts lock them in the same order and cannot deadlock.
 */
function withBalances(orgId: string, ins: RawBuilder<unknown>) {
  return sql<LedgerRow>`
    WITH ins AS (${ins}),
    moves AS (
      SELECT debit_account_id AS account_id, base_amount AS debit, 0::numeric AS credit FROM ins
      UNION ALL
      SELECT credit_account_id, 0::numeric, base_amount FROM ins
    ),
    bal AS (
      INSERT INTO account_balances AS b (account_id, organization_id, debit_total, credit_total, posting_count)
      SELECT account_id, ${orgId}::uuid, sum(debit), sum(credit), count(*) FROM moves GROUP BY account_id ORDER BY account_id
      ON CONFLICT (account_id) DO UPDATE SET
        debit_total = b.debit_total + EXCLUDED.debit_total,
        credit_total = b.credit_total + EXCLUDED.credit_total,
        posting_count = b.posting_count + EXCLUDED.posting_count
      RETURNING 1
    )
    SELECT * FROM ins`;
}

/** Inserts postings and updates the balances in one round trip. */
export async function insertPostings(db: Db, orgId: string, rows: PostingInput[]): Promise<LedgerRow[]> {
  const ins = sql`
    INSERT INTO ledger_transactions (organization_id, ${COLUMNS})
    SELECT ${orgId}::uuid, ${COLUMNS}
    FROM jsonb_to_recordset(${JSON.stringify(rows.map((r, ord) => ({ ...r, ord })))}::jsonb) AS x (
      transaction_date date, description text, notes text, debit_account_id uuid, credit_account_id uuid, amount numeric,
      currency_code text, exchange_rate numeric, base_amount numeric, reference_type text, reference_id uuid,
      reversal_of uuid, locked boolean, created_by uuid, ord bigint)
    ORDER BY ord
    RETURNING *`;
  const result = await withBalances(orgId, ins).execute(db);
  return result.rows;
}

/**
 * Reverses, in one round trip, the postings that `where` selects among the organization's
 * not-yet-reversed, non-reversal postings: debit and credit swapped, same amounts and rate,
 * "Reversal: " before the description, locked, reversal_of set. The originals are locked
 * FOR UPDATE and the unique index on reversal_of stops a second reversal by a concurrent
 * transaction.
 */
export async function insertReversals(
  db: Db,
  orgId: string,
  where: RawBuilder<unknown>,
  opts: { transactionDate: string | null; createdBy: string | null },
): Promise<LedgerRow[]> {
  const ins = sql`
    INSERT INTO ledger_transactions (organization_id, ${COLUMNS})
    SELECT t.organization_id, COALESCE(${opts.transactionDate}::date, CURRENT_DATE), 'Reversal: ' || t.description, t.notes,
           t.credit_account_id, t.debit_account_id, t.amount, t.currency_code, t.exchange_rate, t.base_amount,
           t.reference_type, t.reference_id, t.id, true, ${opts.createdBy}::uuid
    FROM (
      SELECT s.* FROM ledger_transactions s
      WHERE s.organization_id = ${orgId}::uuid AND s.reversal_of IS NULL AND (${where})
        AND NOT EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.reversal_of = s.id)
      ORDER BY s.created_at, s.id
      FOR UPDATE OF s
    ) t
    ORDER BY t.created_at, t.id
    RETURNING *`;
  const result = await withBalances(orgId, ins).execute(db);
  return result.rows;
}

export function byReference(referenceType: ReferenceType, referenceId: string) {
  return sql`s.reference_type = ${referenceType} AND s.reference_id = ${referenceId}::uuid`;
}

export function byReferences(refs: ReadonlyArray<{ referenceType: ReferenceType; referenceId: string }>) {
  return sql`(${sql.join(refs.map((r) => sql`(${byReference(r.referenceType, r.referenceId)})`), sql` OR `)})`;
}

export function byId(id: string) {
  return sql`s.id = ${id}::uuid`;
}

export function findPosting(db: Db, orgId: string, id: string) {
  return db.selectFrom('ledger_transactions').selectAll().where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export async function isReversed(db: Db, orgId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('reversal_of', '=', id)
    .executeTakeFirst();
  return !!row;
}

/**
 * The accounts of a manual entry with the organization's base currency, locked FOR KEY SHARE:
 * a concurrent deactivation of an account or change of the base currency (both FOR UPDATE)
 * either waits for this entry or is seen by it.
 */
export function accountsForPosting(db: Db, orgId: string, ids: string[]) {
  return db
    .selectFrom('accounts as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .select(['a.id', 'a.code', 'a.name', 'a.is_active', 'o.base_currency'])
    .where('a.organization_id', '=', orgId)
    .where('a.id', 'in', ids)
    .forKeyShare()
    .execute();
}

const SORT_COLUMNS = {
  transactionDate: sql`t.transaction_date`,
  createdAt: sql`t.created_at`,
  amount: sql`t.amount`,
  baseAmount: sql`t.base_amount`,
} as const;
export type TransactionSort = keyof typeof SORT_COLUMNS;

export interface TransactionFilter {
  fromDate?: string;
  toDate?: string;
  accountId?: string;
  referenceType?: ReferenceType;
  id?: string;
}

/** Postings with both accounts' code and name; one page plus the total in one round trip. */
export async function listTransactions(
  db: Db,
  orgId: string,
  f: TransactionFilter,
  p: { sort: TransactionSort; order: 'asc' | 'desc'; perPage: number; offset: number },
) {
  let q = db
    .selectFrom('ledger_transactions as t')
    .innerJoin('accounts as da', 'da.id', 't.debit_account_id')
    .innerJoin('accounts as ca', 'ca.id', 't.credit_account_id')
    .where('t.organization_id', '=', orgId);
  if (f.id) q = q.where('t.id', '=', f.id);
  if (f.fromDate) q = q.where('t.transaction_date', '>=', f.fromDate);
  if (f.toDate) q = q.where('t.transaction_date', '<=', f.toDate);
  if (f.referenceType) q = q.where('t.reference_type', '=', f.referenceType);
  if (f.accountId) {
    const id = f.accountId;
    q = q.where((eb) => eb.or([eb('t.debit_account_id', '=', id), eb('t.credit_account_id', '=', id)]));
  }
  const direction = sql.raw(p.order === 'asc' ? 'ASC' : 'DESC');
  const rows = await q
    .selectAll('t')
    .select([
      'da.code as debit_code', 'da.name as debit_name', 'ca.code as credit_code', 'ca.name as credit_name',
      sql<number>`count(*) OVER ()`.as('total_count'),
    ])
    .orderBy(sql`${SORT_COLUMNS[p.sort]} ${direction}`)
    .orderBy(sql`t.created_at ${direction}`)
    .orderBy(sql`t.id ${direction}`)
    .limit(p.perPage)
    .offset(p.offset)
    .execute();
  let total = Number(rows[0]?.total_count ?? 0);
  if (rows.length === 0 && p.offset > 0) {
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    total = Number(c.n);
  }
  return { rows, total };
}

export type TransactionRow = Awaited<ReturnType<typeof listTransactions>>['rows'][number];

export interface AccountTotalsRow {
  account_id: string;
  code: string;
  name: string;
  account_type: string;
  normal_balance: 'debit' | 'credit';
  debit_total: string;
  credit_total: string;
  posting_count: number;
}

/**
 * Per-account debit and credit totals (base currency) of the postings dated on or before
 * `date`: the running totals minus whatever is dated after it, so the cost follows the postings
 * after the date (none for today), never the size of the ledger. Only accounts with postings.
 */
export async function accountTotalsAsOf(db: Db, orgId: string, date: string): Promise<AccountTotalsRow[]> {
  const result = await sql<AccountTotalsRow>`
    WITH later AS (
      SELECT account_id, sum(debit) AS debit, sum(credit) AS credit, count(*) AS n FROM (
        SELECT debit_account_id AS account_id, base_amount AS debit, 0::numeric AS credit
        FROM ledger_transactions WHERE organization_id = ${orgId}::uuid AND transaction_date > ${date}::date
        UNION ALL
        SELECT credit_account_id, 0::numeric, base_amount
        FROM ledger_transactions WHERE organization_id = ${orgId}::uuid AND transaction_date > ${date}::date
      ) m GROUP BY account_id
    )
    SELECT a.id AS account_id, a.code, a.name, t.name AS account_type, t.normal_balance,
           b.debit_total - COALESCE(l.debit, 0) AS debit_total,
           b.credit_total - COALESCE(l.credit, 0) AS credit_total,
           b.posting_count - COALESCE(l.n, 0) AS posting_count
    FROM account_balances b
    JOIN accounts a ON a.id = b.account_id AND a.organization_id = ${orgId}::uuid
    JOIN account_types t ON t.id = a.account_type_id
    LEFT JOIN later l ON l.account_id = b.account_id
    WHERE b.organization_id = ${orgId}::uuid AND b.posting_count - COALESCE(l.n, 0) > 0
    ORDER BY a.code`.execute(db);
  return result.rows;
}

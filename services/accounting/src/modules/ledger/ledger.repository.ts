import { CompiledQuery, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { DB, LedgerTransactionsTable } from '../../db/types.js';
import { FOLD_SQL, MANUAL_POSTING_SQL } from './ledger.sql.js';
import type { ReferenceType } from './ledger.types.js';
import { type SumRanges, sumPieces } from './period-ranges.js';

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

/** Folds at most `limit` moves (see FOLD_SQL); returns how many it folded. */
export async function foldLedgerMoves(db: Db, limit: number): Promise<number> {
  const { rows } = await db.executeQuery<{ moved: number }>(CompiledQuery.raw(FOLD_SQL, [limit]));
  return rows[0]?.moved ?? 0;
}

/** Inserts postings (their moves are appended by the table's trigger). */
export async function insertPostings(db: Db, orgId: string, rows: PostingInput[]): Promise<LedgerRow[]> {
  const result = await sql<LedgerRow>`
    INSERT INTO ledger_transactions (organization_id, ${COLUMNS})
    SELECT ${orgId}::uuid, ${COLUMNS}
    FROM jsonb_to_recordset(${JSON.stringify(rows.map((r, ord) => ({ ...r, ord })))}::jsonb) AS x (
      transaction_date date, description text, notes text, debit_account_id uuid, credit_account_id uuid, amount numeric,
      currency_code text, exchange_rate numeric, base_amount numeric, reference_type text, reference_id uuid,
      reversal_of uuid, locked boolean, created_by uuid, ord bigint)
    ORDER BY ord
    RETURNING *`.execute(db);
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
  const result = await sql<LedgerRow>`
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
    RETURNING *`.execute(db);
  return result.rows;
}

export function byReference(referenceType: ReferenceType, referenceId: string) {
  return sql`s.reference_type = ${referenceType} AND s.reference_id = ${referenceId}::uuid`;
}

export function byReferences(refs: ReadonlyArray<{ referenceType: ReferenceType; referenceId: string }>) {
  return sql`(${sql.join(
    refs.map((r) => sql`(${byReference(r.referenceType, r.referenceId)})`),
    sql` OR `,
  )})`;
}

/**
 * The postings of a manual journal entry: those of a several-line entry carry its id as their
 * reference id; a lone manual posting is an entry of its own, its id the entry's (reversals copy
 * the reference, or point at the lone posting by reversal_of). A reversal's own id names no entry.
 */
export function byEntry(entryId: string, alias: 's' | 't' = 's') {
  const c = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<boolean>`${c('reference_type')} = 'manual' AND (${c('reference_id')} = ${entryId}::uuid
    OR (${c('reference_id')} IS NULL
      AND ((${c('id')} = ${entryId}::uuid AND ${c('reversal_of')} IS NULL) OR ${c('reversal_of')} = ${entryId}::uuid)))`;
}

export function byId(id: string) {
  return sql`s.id = ${id}::uuid`;
}

export function findPosting(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** How many original postings (reversals not counted) a several-line journal entry has. */
export async function entryPostingCount(db: Db, orgId: string, entryId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', orgId)
    .where('reference_type', '=', 'manual')
    .where('reference_id', '=', entryId)
    .where('reversal_of', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
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

export interface ManualPosting {
  transactionDate: string;
  description: string;
  notes: string | null;
  debitAccountId: string;
  creditAccountId: string;
  amount: string;
  currencyCode: string;
  exchangeRate: string;
  baseAmount: string;
  createdBy: string;
  /** The journal entry the posting belongs to (POST /transactions/entries); null for a lone posting. */
  entryId: string | null;
}

/**
 * One row per account found, as one JSON column (node-postgres's work per column of a result is a
 * measurable part of a posting request): the account, and the posting when it was inserted
 * (numerics as text, created_at as Date#toISOString writes it; a new posting is never reconciled).
 */
export interface ManualPostingRow {
  account_id: string;
  account_code: string;
  account_name: string;
  account_active: boolean;
  account_base_currency: string;
  posting: (Omit<LedgerRow, 'created_at' | 'reconciled_at' | 'amount_key'> & { created_at: string }) | null;
}

/** Runs MANUAL_POSTING_SQL as the last statement of its transaction (COMMIT is sent with it). */
export async function insertManualPosting(
  db: Db,
  orgId: string,
  baseCurrency: string,
  v: ManualPosting,
): Promise<ManualPostingRow[]> {
  const query = CompiledQuery.raw(MANUAL_POSTING_SQL, [
    orgId,
    v.debitAccountId,
    v.creditAccountId,
    v.transactionDate,
    v.description,
    v.notes,
    v.amount,
    v.currencyCode,
    v.exchangeRate,
    v.baseAmount,
    v.createdBy,
    baseCurrency,
    v.entryId,
  ]);
  const result = await db.executeQuery<{ row: ManualPostingRow }>(query);
  return result.rows.map((r) => r.row);
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
  referenceId?: string;
  id?: string;
  entryId?: string;
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
  if (f.referenceId) q = q.where('t.reference_id', '=', f.referenceId);
  if (f.entryId) q = q.where(byEntry(f.entryId, 't'));
  if (f.accountId) {
    const id = f.accountId;
    q = q.where((eb) => eb.or([eb('t.debit_account_id', '=', id), eb('t.credit_account_id', '=', id)]));
  }
  const direction = sql.raw(p.order === 'asc' ? 'ASC' : 'DESC');
  const rows = await q
    .selectAll('t')
    .select([
      'da.code as debit_code',
      'da.name as debit_name',
      'ca.code as credit_code',
      'ca.name as credit_name',
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
  account_type_id: number;
  account_type: string;
  normal_balance: 'debit' | 'credit';
  debit_total: string;
  credit_total: string;
  posting_count: number;
}

/**
 * The sums rows of `r` as a derived table (account_id, counter_account_id, period_start, debit_total,
 * credit_total, posting_count): one range read per piece (sumPieces), joined with UNION ALL so
 * that each is an index-only range scan of the covering primary key; subtracted pieces come
 * negated. The moves not folded yet (ledger_moves, dated in the range, each spelt out into the
 * posting's two sides) come as rows of their own,
 * with their date as period_start, so every committed posting counts. `accountIds` narrows every
 * read to those accounts.
 */
function periodSums(orgId: string, r: SumRanges, accountIds?: string[]) {
  const only = accountIds ? sql` AND account_id = ANY(${accountIds}::uuid[])` : sql``;
  const reads = sumPieces(r).map((p) => {
    const values =
      p.sign === 1 ? sql`debit_total, credit_total, posting_count` : sql`-debit_total, -credit_total, -posting_count`;
    return sql`SELECT account_id, counter_account_id, period_start, ${values}
      FROM account_period_sums
      WHERE organization_id = ${orgId}::uuid AND grain = ${sql.lit(p.grain)} AND period_start BETWEEN ${p.from}::date AND ${p.to}::date${only}`;
  });
  reads.push(sql`SELECT account_id, counter_account_id, m.transaction_date, debit, credit, m.posting_count::bigint
      FROM ledger_moves m CROSS JOIN LATERAL (VALUES (m.debit_account_id, m.credit_account_id, m.amount, 0::numeric),
        (m.credit_account_id, m.debit_account_id, 0::numeric, m.amount)) AS side (account_id, counter_account_id, debit, credit)
      WHERE m.organization_id = ${orgId}::uuid AND m.transaction_date BETWEEN ${r.from}::date AND ${r.to}::date${only}`);
  return sql`(${sql.join(reads, sql` UNION ALL `)}) AS s (account_id, counter_account_id, period_start, debit_total, credit_total, posting_count)`;
}

/**
 * Per-account debit and credit totals (base currency) of the postings dated in `ranges`, read
 * from the day and month sums: the cost follows the number of months and edge days, never the
 * number of postings. Only accounts with postings in the range (and among `accountIds` when
 * given), ordered by code.
 */
export async function accountTotals(
  db: Db,
  orgId: string,
  ranges: SumRanges,
  accountIds?: string[],
): Promise<AccountTotalsRow[]> {
  if (accountIds?.length === 0) return [];
  const result = await sql<AccountTotalsRow>`
    WITH t AS (
      SELECT s.account_id, sum(s.debit_total) AS debit_total, sum(s.credit_total) AS credit_total, sum(s.posting_count) AS posting_count
      FROM ${periodSums(orgId, ranges, accountIds)}
      GROUP BY s.account_id
    )
    SELECT a.id AS account_id, a.code, a.name, a.account_type_id, ty.name AS account_type, ty.normal_balance,
           t.debit_total, t.credit_total, t.posting_count::int AS posting_count
    FROM t
    JOIN accounts a ON a.id = t.account_id AND a.organization_id = ${orgId}::uuid
    JOIN account_types ty ON ty.id = a.account_type_id
    WHERE t.posting_count > 0
    ORDER BY a.code`.execute(db);
  return result.rows;
}

export interface PairTotalsRow {
  account_id: string;
  counter_account_id: string;
  counter_code: string;
  counter_name: string;
  counter_type_id: number;
  debit_total: string;
  credit_total: string;
}

/** Totals of `accountIds` in `ranges` per counter account (the other side of each posting). */
export async function pairTotals(
  db: Db,
  orgId: string,
  ranges: SumRanges,
  accountIds: string[],
): Promise<PairTotalsRow[]> {
  if (accountIds.length === 0) return [];
  const result = await sql<PairTotalsRow>`
    WITH t AS (
      SELECT s.account_id, s.counter_account_id, sum(s.debit_total) AS debit_total, sum(s.credit_total) AS credit_total
      FROM ${periodSums(orgId, ranges, accountIds)}
      GROUP BY s.account_id, s.counter_account_id
    )
    SELECT t.account_id, t.counter_account_id, c.code AS counter_code, c.name AS counter_name, c.account_type_id AS counter_type_id,
           t.debit_total, t.credit_total
    FROM t JOIN accounts c ON c.id = t.counter_account_id AND c.organization_id = ${orgId}::uuid
    ORDER BY c.code, t.account_id`.execute(db);
  return result.rows;
}

/** Base-currency debit and credit totals per calendar month and account type (4, 5) for `ranges`. */
export async function monthlyTypeTotals(db: Db, orgId: string, ranges: SumRanges) {
  const result = await sql<{ month: string; account_type_id: number; debit_total: string; credit_total: string }>`
    SELECT to_char(s.period_start, 'YYYY-MM') AS month, a.account_type_id,
           sum(s.debit_total) AS debit_total, sum(s.credit_total) AS credit_total
    FROM ${periodSums(orgId, ranges)}
    JOIN accounts a ON a.id = s.account_id AND a.organization_id = ${orgId}::uuid
    WHERE a.account_type_id IN (4, 5)
    GROUP BY 1, 2
    ORDER BY 1, 2`.execute(db);
  return result.rows;
}

/**
 * Debits less credits (base currency) of `accountIds` in `ranges`, split into the calendar months
 * from `sinceMonth` (a first day) on and one row (month null) for everything before it: one read
 * answers a balance and its latest months' movements (the dashboard's cash figures).
 */
export async function netByMonth(db: Db, orgId: string, ranges: SumRanges, accountIds: string[], sinceMonth: string) {
  if (accountIds.length === 0) return [];
  const result = await sql<{ month: string | null; net: string }>`
    SELECT CASE WHEN s.period_start >= ${sinceMonth}::date THEN to_char(s.period_start, 'YYYY-MM') END AS month,
           sum(s.debit_total) - sum(s.credit_total) AS net
    FROM ${periodSums(orgId, ranges, accountIds)}
    GROUP BY 1`.execute(db);
  return result.rows;
}

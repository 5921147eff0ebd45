import { dec } from '@app/shared/money';
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { BankAccountsTable, BankTransactionsTable, DB } from '../../db/types.js';
import type { BankTransactionSort } from './banking.schemas.js';
import type { StatementBatch } from './statement-csv.js';

type Db = Kysely<DB>;
export type BankTransactionRow = Selectable<BankTransactionsTable>;

const ACCOUNT_COLUMNS = [
  'b.id',
  'b.account_id',
  'a.code as account_code',
  'b.bank_name',
  'b.account_number',
  'b.iban',
  'b.currency_code',
  'b.current_balance',
  'b.is_active',
  'b.created_at',
  'b.updated_at',
] as const;

function accountsQuery(db: Db, orgId: string) {
  return db
    .selectFrom('bank_accounts as b')
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.id', '=', 'b.account_id').onRef('a.organization_id', '=', 'b.organization_id'),
    )
    .select(ACCOUNT_COLUMNS)
    .where('b.organization_id', '=', orgId);
}

export type BankAccountRow = Awaited<ReturnType<typeof listBankAccounts>>[number];

export function listBankAccounts(db: Db, orgId: string) {
  return accountsQuery(db, orgId).orderBy('b.created_at').orderBy('b.id').execute();
}

export function findBankAccount(db: Db, orgId: string, id: string) {
  return accountsQuery(db, orgId).where('b.id', '=', id).executeTakeFirst();
}

export async function insertBankAccount(db: Db, values: Insertable<BankAccountsTable>) {
  const row = await db.insertInto('bank_accounts').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A9: imported lines move the bank account's balance in the import's transaction. */
export async function addToBalance(db: Db, orgId: string, id: string, amount: string) {
  await db
    .updateTable('bank_accounts')
    .set({ current_balance: sql`current_balance + ${amount}::numeric`, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/**
 * One batch of statement lines. A line whose (date, amount, description, reference, occurrence)
 * is already on the account hits the unique key and is skipped (A14 duplicates), also when a
 * concurrent import of an overlapping statement wrote it first. Answers the inserted count and sum.
 * The rows go in in key order so that the unique index is walked left to right rather than at
 * random (fewer pages touched per batch); ids are time-ordered (the column default), so the
 * primary key and the audit rows' record index grow at their right edge.
 */
export async function insertStatementBatch(
  db: Db,
  orgId: string,
  bankAccountId: string,
  b: StatementBatch,
): Promise<{ inserted: number; total: string }> {
  // The columns arrive as array literals in UTF-8 bytes (statement-csv.ts): sent as bytea, read as text, parsed by the array input.
  const { rows } = await sql<{ inserted: number; total: string }>`
    WITH ins AS (
      INSERT INTO bank_transactions (organization_id, bank_account_id, transaction_date, amount, description, reference, occurrence)
      SELECT ${orgId}::uuid, ${bankAccountId}::uuid, x.d, x.a, x.t, x.r, x.o
      FROM unnest(convert_from(${b.dates}::bytea, 'UTF8')::date[], convert_from(${b.amounts}::bytea, 'UTF8')::numeric[],
                  convert_from(${b.descriptions}::bytea, 'UTF8')::text[], convert_from(${b.references}::bytea, 'UTF8')::text[],
                  convert_from(${b.occurrences}::bytea, 'UTF8')::int[])
        AS x (d, a, t, r, o)
      ORDER BY x.d, x.a, x.t, x.r, x.o
      ON CONFLICT (bank_account_id, transaction_date, amount, description, reference, occurrence) DO NOTHING
      RETURNING amount
    )
    SELECT count(*)::int AS inserted, COALESCE(sum(amount), 0)::text AS total FROM ins`.execute(db);
  return { inserted: Number(rows[0].inserted), total: rows[0].total };
}

const SORT_COLUMNS = {
  transactionDate: 'transaction_date',
  amount: 'amount',
  createdAt: 'created_at',
} as const satisfies Record<BankTransactionSort, keyof BankTransactionsTable>;

export interface BankTransactionFilters {
  fromDate?: string;
  toDate?: string;
  reconciled?: boolean;
}

export async function listBankTransactions(
  db: Db,
  orgId: string,
  bankAccountId: string,
  f: BankTransactionFilters,
  page: { offset: number; perPage: number; sort: BankTransactionSort; order: 'asc' | 'desc' },
) {
  let q = db
    .selectFrom('bank_transactions')
    .where('organization_id', '=', orgId)
    .where('bank_account_id', '=', bankAccountId);
  if (f.fromDate) q = q.where('transaction_date', '>=', f.fromDate);
  if (f.toDate) q = q.where('transaction_date', '<=', f.toDate);
  if (f.reconciled !== undefined) q = q.where('reconciled', '=', f.reconciled);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy(SORT_COLUMNS[page.sort], page.order)
      .orderBy('created_at', page.order)
      .orderBy('id', page.order)
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function lockBankTransaction(db: Db, orgId: string, bankAccountId: string, id: string) {
  return db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('bank_account_id', '=', bankAccountId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function lockPosting(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** A line and its posting matched at `at`, or (null) unmatched and both offered for matching again. */
export async function setMatch(db: Db, orgId: string, bankTxId: string, postingId: string, at: Date | null) {
  const bank = await db
    .updateTable('bank_transactions')
    .set({ reconciled: at !== null, matched_transaction_id: at ? postingId : null, reconciled_at: at })
    .where('organization_id', '=', orgId)
    .where('id', '=', bankTxId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .updateTable('ledger_transactions')
    .set({ reconciled: at !== null, reconciled_at: at })
    .where('organization_id', '=', orgId)
    .where('id', '=', postingId)
    .execute();
  return bank;
}

export interface CandidateRow {
  bank_id: string;
  id: string;
  transaction_date: string;
  amount: string;
  description: string;
  debit_account_id: string;
  credit_account_id: string;
  document_number: string | null;
}

/**
 * Postings that can score 50 or more against each bank line (A15): unreconciled postings on the
 * ledger account with the line's amount on the matching side (the +50), or dated within 7 days
 * with a reference match (same day 30 + 20; within 3 or 7 days 20 or 10 + document number 20 +
 * payment reference 20; the reference rule is matchScore's, repeated here as a filter so that a
 * busy week's postings are not cut off by the limit before the matching one). Each branch
 * reads a partial or date index: the reference branch is split in two, the postings of an invoice
 * or expense (partial indexes on the open document postings by date, see migration
 * 20261123006500) and, for a line with a reference, the other postings of its own day; per line
 * and branch at most `limit` candidates, the closest in date first. The document number is that of
 * the posting's invoice or expense (sale, approval and payment postings refer to them).
 */
export async function reconciliationCandidates(
  db: Db,
  orgId: string,
  ledgerAccountId: string,
  lines: Array<{ id: string; date: string; amount: string; description: string; reference: string }>,
  limit: number,
): Promise<CandidateRow[]> {
  if (lines.length === 0) return [];
  const { rows } = await sql<CandidateRow>`
    WITH b AS MATERIALIZED (
      -- amount_key: the absolute amount as ledger_transactions.amount_key spells it (scale 4), passed
      -- in so that the comparison is a leakproof text equality between two plain columns.
      -- d_from, d_to: the date window of the third branch, computed here (materialized) because date
      -- minus integer is not leakproof: written inside the branch, RLS kept it from being an index
      -- condition and every line read all the account's postings. A line without a reference can
      -- only match on its own day (see below), so its window is that day.
      SELECT x.*, x.d - w.days AS d_from, x.d + w.days AS d_to
      FROM unnest(${lines.map((l) => l.id)}::uuid[], ${lines.map((l) => l.date)}::date[], ${lines.map((l) => l.amount)}::numeric[],
        ${lines.map((l) => dec(l.amount).abs().toFixed(4))}::text[], ${lines.map((l) => l.description)}::text[], ${lines.map((l) => l.reference.trim())}::text[])
        AS x (id, d, amount, amount_key, description, reference)
        CROSS JOIN LATERAL (SELECT CASE WHEN x.reference = '' THEN 0 ELSE 7 END AS days) w
    ),
    c AS (
      SELECT b.id AS bank_id, t.* FROM b CROSS JOIN LATERAL (
        SELECT t.id, t.transaction_date, t.amount, t.description, t.debit_account_id, t.credit_account_id, t.reference_type, t.reference_id
        FROM ledger_transactions t
        WHERE b.amount > 0 AND t.debit_account_id = ${ledgerAccountId}::uuid AND t.amount_key = b.amount_key AND NOT t.reconciled
          AND t.organization_id = ${orgId}::uuid
        ORDER BY abs(t.transaction_date - b.d), t.id LIMIT ${limit}
      ) t
      UNION
      SELECT b.id, t.* FROM b CROSS JOIN LATERAL (
        SELECT t.id, t.transaction_date, t.amount, t.description, t.debit_account_id, t.credit_account_id, t.reference_type, t.reference_id
        FROM ledger_transactions t
        WHERE b.amount < 0 AND t.credit_account_id = ${ledgerAccountId}::uuid AND t.amount_key = b.amount_key AND NOT t.reconciled
          AND t.organization_id = ${orgId}::uuid
        ORDER BY abs(t.transaction_date - b.d), t.id LIMIT ${limit}
      ) t
      UNION
      SELECT b.id, t.* FROM b CROSS JOIN LATERAL (
        SELECT t.id, t.transaction_date, t.amount, t.description, t.debit_account_id, t.credit_account_id, t.reference_type, t.reference_id
        FROM (
          -- The account's open postings that belong to an invoice or expense, in the window, one
          -- partial index range per side (an OR of the two sides could not use them); a posting on
          -- both sides is read once. Only these can match by document number.
          SELECT * FROM ledger_transactions t
          WHERE t.debit_account_id = ${ledgerAccountId}::uuid AND t.transaction_date BETWEEN b.d_from AND b.d_to
            AND NOT t.reconciled AND t.reference_type IN ('invoice', 'expense', 'payment') AND t.organization_id = ${orgId}::uuid
          UNION ALL
          SELECT * FROM ledger_transactions t
          WHERE t.credit_account_id = ${ledgerAccountId}::uuid AND t.debit_account_id <> ${ledgerAccountId}::uuid
            AND t.transaction_date BETWEEN b.d_from AND b.d_to
            AND NOT t.reconciled AND t.reference_type IN ('invoice', 'expense', 'payment') AND t.organization_id = ${orgId}::uuid
        ) t
        LEFT JOIN invoices i ON t.reference_type IN ('invoice', 'payment') AND i.id = t.reference_id AND i.organization_id = ${orgId}::uuid
        LEFT JOIN expenses e ON t.reference_type IN ('expense', 'payment') AND e.id = t.reference_id AND e.organization_id = ${orgId}::uuid
        -- Without the amount, a reference match (20) lifts a same-day posting (30) to 50; on another
        -- day (10 or 20) it takes the document number and an invoice's payment reference (E4, 20 + 20),
        -- so only a line with a reference looks past its own day, and only at invoice postings.
        WHERE (t.transaction_date = b.d OR (b.reference <> '' AND i.invoice_number IS NOT NULL))
          AND (strpos(lower(b.reference), lower(COALESCE(i.invoice_number, e.expense_number))) > 0
            OR strpos(lower(b.description), lower(COALESCE(i.invoice_number, e.expense_number))) > 0
            OR (b.reference <> '' AND strpos(lower(t.description), lower(b.reference)) > 0)
            -- An invoice's payment reference (E4) is derived in TypeScript: keep its postings when the line has a reference.
            OR (b.reference <> '' AND i.invoice_number IS NOT NULL))
        ORDER BY abs(t.transaction_date - b.d), t.id LIMIT ${limit}
      ) t
      UNION
      -- Any other posting (manual, or one whose document is gone) matches by reference only when its
      -- description contains the line's reference, and then only on the line's own day (30 + 20).
      SELECT b.id, t.* FROM b CROSS JOIN LATERAL (
        SELECT t.id, t.transaction_date, t.amount, t.description, t.debit_account_id, t.credit_account_id, t.reference_type, t.reference_id
        FROM (
          SELECT * FROM ledger_transactions t
          WHERE t.debit_account_id = ${ledgerAccountId}::uuid AND t.transaction_date = b.d
            AND NOT t.reconciled AND t.organization_id = ${orgId}::uuid
          UNION ALL
          SELECT * FROM ledger_transactions t
          WHERE t.credit_account_id = ${ledgerAccountId}::uuid AND t.debit_account_id <> ${ledgerAccountId}::uuid
            AND t.transaction_date = b.d AND NOT t.reconciled AND t.organization_id = ${orgId}::uuid
        ) t
        WHERE b.reference <> '' AND strpos(lower(t.description), lower(b.reference)) > 0
        ORDER BY t.id LIMIT ${limit}
      ) t
    )
    SELECT c.bank_id, c.id, c.transaction_date, c.amount, c.description, c.debit_account_id, c.credit_account_id,
           COALESCE(i.invoice_number, e.expense_number) AS document_number
    FROM c
    LEFT JOIN invoices i ON c.reference_type IN ('invoice', 'payment') AND i.id = c.reference_id AND i.organization_id = ${orgId}::uuid
    LEFT JOIN expenses e ON c.reference_type IN ('expense', 'payment') AND e.id = c.reference_id AND e.organization_id = ${orgId}::uuid`.execute(
    db,
  );
  return rows;
}

/** The number of the invoice or expense a posting refers to (sale, approval or payment). */
export async function documentNumberOf(
  db: Db,
  orgId: string,
  type: string | null,
  refId: string | null,
): Promise<string | null> {
  if (!refId || !type) return null;
  if (type === 'invoice' || type === 'payment') {
    const inv = await db
      .selectFrom('invoices')
      .select('invoice_number')
      .where('organization_id', '=', orgId)
      .where('id', '=', refId)
      .executeTakeFirst();
    if (inv) return inv.invoice_number;
  }
  if (type === 'expense' || type === 'payment') {
    const exp = await db
      .selectFrom('expenses')
      .select('expense_number')
      .where('organization_id', '=', orgId)
      .where('id', '=', refId)
      .executeTakeFirst();
    if (exp) return exp.expense_number;
  }
  return null;
}

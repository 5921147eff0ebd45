import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB>;

export interface ChartAccount {
  id: string;
  code: string;
  name: string;
  account_type_id: number;
}

/** The organization's chart (a few hundred rows at most): what the reports classify by. */
export async function chart(db: Db, orgId: string): Promise<ChartAccount[]> {
  return db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'account_type_id'])
    .where('organization_id', '=', orgId)
    .orderBy('code')
    .execute();
}

/**
 * Unpaid invoices (sent, viewed, overdue) in base currency, bucketed by whole days since the
 * invoice date on `today` (A16 receivablesAging); an invoice dated after today counts as current.
 */
export async function receivables(db: Db, orgId: string, today: string) {
  const result = await sql<{ total: string | null; current: string | null; days30: string | null; days60: string | null; days90plus: string | null }>`
    SELECT sum(base_amount) AS total,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date <= 30) AS current,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date BETWEEN 31 AND 60) AS days30,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date BETWEEN 61 AND 90) AS days60,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date > 90) AS days90plus
    FROM invoices
    WHERE organization_id = ${orgId}::uuid AND status IN ('sent', 'viewed', 'overdue')`.execute(db);
  return result.rows[0];
}

export interface OutputVatRow {
  invoice_id: string;
  invoice_number: string;
  customer_name: string;
  invoice_date: string;
  status: string;
  exchange_rate: string;
  tax_amount: string;
  total_amount: string;
  tax_rate: string;
  net: string;
  tax: string;
}

/**
 * Output VAT (A16): invoices sent, viewed, overdue or paid dated in the period, one row per
 * invoice and tax rate with the lines' net and tax in the invoice currency.
 */
export async function outputVat(db: Db, orgId: string, from: string, to: string): Promise<OutputVatRow[]> {
  const result = await sql<OutputVatRow>`
    SELECT i.id AS invoice_id, i.invoice_number, i.customer_name, to_char(i.invoice_date, 'YYYY-MM-DD') AS invoice_date, i.status,
           i.exchange_rate, i.tax_amount, i.total_amount, it.tax_rate, sum(it.line_total) AS net, sum(it.line_tax) AS tax
    FROM invoices i
    JOIN invoice_items it ON it.invoice_id = i.id AND it.organization_id = i.organization_id
    WHERE i.organization_id = ${orgId}::uuid AND i.status IN ('sent', 'viewed', 'overdue', 'paid')
      AND i.invoice_date BETWEEN ${from}::date AND ${to}::date
    GROUP BY i.id, it.tax_rate
    ORDER BY i.invoice_date, i.invoice_number, it.tax_rate`.execute(db);
  return result.rows;
}

// Expenses and banking (issue 10) ------------------------------------------------------------------

/** The ledger accounts bank accounts are booked on (inactive bank accounts included: their history counts). */
export async function bankLedgerAccountIds(db: Db, orgId: string): Promise<string[]> {
  const rows = await db.selectFrom('bank_accounts').select('account_id').distinct().where('organization_id', '=', orgId).execute();
  return rows.map((r) => r.account_id);
}

export interface InputVatRow {
  expense_number: string;
  vendor_name: string | null;
  expense_date: string;
  amount: string;
  tax_amount: string;
  exchange_rate: string;
}

/** Input VAT (A16): approved or paid expenses with taxAmount > 0 dated in the period. */
export async function inputVat(db: Db, orgId: string, from: string, to: string): Promise<InputVatRow[]> {
  const result = await sql<InputVatRow>`
    SELECT expense_number, vendor_name, to_char(expense_date, 'YYYY-MM-DD') AS expense_date, amount, tax_amount, exchange_rate
    FROM expenses
    WHERE organization_id = ${orgId}::uuid AND status IN ('approved', 'paid') AND tax_amount > 0
      AND expense_date BETWEEN ${from}::date AND ${to}::date
    ORDER BY expense_date, expense_number`.execute(db);
  return result.rows;
}

/** Whether a pending expense is dated in the period, and how many bank lines dated in it are unreconciled. */
export async function vatReconciliation(db: Db, orgId: string, from: string, to: string) {
  const result = await sql<{ pending_expenses: boolean; unmatched_transactions: number }>`
    SELECT EXISTS (
             SELECT 1 FROM expenses WHERE organization_id = ${orgId}::uuid AND status = 'pending'
               AND expense_date BETWEEN ${from}::date AND ${to}::date
           ) AS pending_expenses,
           (SELECT count(*)::int FROM bank_transactions WHERE organization_id = ${orgId}::uuid AND NOT reconciled
              AND transaction_date BETWEEN ${from}::date AND ${to}::date) AS unmatched_transactions`.execute(db);
  return result.rows[0];
}

/** Approved and paid expenses dated in [from, to] per category: amount without VAT, base currency. */
export async function expensesByCategory(db: Db, orgId: string, from: string, to: string, decimals: number) {
  const result = await sql<{ category: string; amount: string }>`
    SELECT category, sum(round((amount - tax_amount) * exchange_rate, ${decimals}::int)) AS amount
    FROM expenses
    WHERE organization_id = ${orgId}::uuid AND status IN ('approved', 'paid') AND expense_date BETWEEN ${from}::date AND ${to}::date
    GROUP BY category
    ORDER BY amount DESC, category`.execute(db);
  return result.rows;
}

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
  paid: boolean;
  /** Percent with at least 2 decimals (A16). */
  vat_rate: string;
  /** The lines' net and tax at this rate, each converted at the invoice's rate and rounded to `decimals`. */
  base_amount: string;
  vat_amount: string;
  /** What the invoice posted to 2300 in base currency less the sum of its rows' vat_amount ("0.00" almost always). */
  vat_difference: string;
}

/**
 * Output VAT (A16): invoices sent, viewed, overdue or paid dated in the period, one row per
 * invoice and tax rate, converted to base currency here (exact numeric arithmetic, rounded half
 * away from zero like roundHalfUp), ordered by date, number and rate. The VAT the sale posted
 * (A8: the tax less any discount beyond the lines' net) comes as each invoice's difference from
 * its rows' sum; the service gives it to the row with the largest VAT.
 */
export async function outputVat(db: Db, orgId: string, from: string, to: string, decimals: number): Promise<OutputVatRow[]> {
  const result = await sql<OutputVatRow>`
    WITH c AS (
      SELECT i.id, i.invoice_number, i.customer_name, i.invoice_date, i.status, it.tax_rate,
             round(sum(it.line_total) * i.exchange_rate, ${decimals}::int) AS base,
             round(sum(it.line_tax) * i.exchange_rate, ${decimals}::int) AS vat,
             round(greatest(0, least(i.tax_amount, i.total_amount)) * i.exchange_rate, ${decimals}::int) AS posted
      FROM invoices i
      JOIN invoice_items it ON it.invoice_id = i.id AND it.organization_id = i.organization_id
      WHERE i.organization_id = ${orgId}::uuid AND i.status IN ('sent', 'viewed', 'overdue', 'paid')
        AND i.invoice_date BETWEEN ${from}::date AND ${to}::date
      GROUP BY i.invoice_date, i.invoice_number, i.id, it.tax_rate
    )
    SELECT id AS invoice_id, invoice_number, customer_name, to_char(invoice_date, 'YYYY-MM-DD') AS invoice_date, status = 'paid' AS paid,
           CASE WHEN scale(trim_scale(tax_rate)) <= 2 THEN round(tax_rate, 2) ELSE trim_scale(tax_rate) END::text AS vat_rate,
           base::text AS base_amount, vat::text AS vat_amount,
           (posted - sum(vat) OVER (PARTITION BY invoice_date, invoice_number, id))::text AS vat_difference
    FROM c
    ORDER BY c.invoice_date, c.invoice_number, c.id, c.tax_rate`.execute(db);
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
  base_amount: string;
  vat_amount: string;
  vat_rate: string;
}

/**
 * Input VAT (A16): approved or paid expenses with taxAmount > 0 dated in the period, converted as
 * the approval posted them (A8: net and VAT each rounded to base). vat_rate = taxAmount /
 * (amount - taxAmount) x 100, 2 decimals, 0.00 when the net is 0; the division is carried to 30
 * decimals before rounding, more than any amount(20,4) quotient needs to round exactly.
 */
export async function inputVat(db: Db, orgId: string, from: string, to: string, decimals: number): Promise<InputVatRow[]> {
  const result = await sql<InputVatRow>`
    SELECT expense_number, vendor_name, to_char(expense_date, 'YYYY-MM-DD') AS expense_date,
           round((amount - tax_amount) * exchange_rate, ${decimals}::int)::text AS base_amount,
           round(tax_amount * exchange_rate, ${decimals}::int)::text AS vat_amount,
           CASE WHEN amount = tax_amount THEN '0.00'
                ELSE round((tax_amount * 100)::numeric(1000, 30) / (amount - tax_amount), 2)::text END AS vat_rate
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

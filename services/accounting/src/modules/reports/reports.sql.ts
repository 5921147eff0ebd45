/**
 * The reports module's hand-written SQL: the statements tuned by hand where Kysely would cost a
 * measured share of the request or job (docs/perf/). Everything else in the module goes through
 * Kysely. test/hot-sql.test.ts runs each VAT report statement (precomputed rows and from the documents, with and without lists) on a migrated database and holds what comes back to the
 * response schema of the route that serves it.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB>;

/** The VAT report's JSON text in pieces: head + invoice days joined by ',' + mid + expense days joined by ',' + tail. */
export interface VatReportPieces {
  head: string;
  invoices: Array<{ day: string; list: string }>;
  mid: string;
  expenses: Array<{ day: string; list: string }>;
  tail: string;
}

export type VatOrg = { id: string; country: string; baseCurrency: string };

/** The report's text up to the output total: period, country and base currency (arguments of a concat). */
const vatHeader = (org: VatOrg, from: string, to: string) => sql`
  '{"period":{"from":', to_json(${from}::text), ',"to":', to_json(${to}::text),
  '},"country":', coalesce(to_json(${org.country}::text)::text, 'null'),
  ',"baseCurrency":', coalesce(to_json(${org.baseCurrency}::text)::text, 'null')`;

/** reconciliationStatus's inputs: a pending expense dated in the period, and the unreconciled bank lines. */
const vatReconciliation = (org: VatOrg, from: string, to: string) => sql`
  SELECT EXISTS (
           SELECT 1 FROM expenses WHERE organization_id = ${org.id}::uuid AND status = 'pending'
             AND expense_date BETWEEN ${from}::date AND ${to}::date
         ) AS pending_expenses,
         (SELECT count(*) FROM bank_transactions WHERE organization_id = ${org.id}::uuid AND NOT reconciled
            AND transaction_date BETWEEN ${from}::date AND ${to}::date) AS unmatched_transactions`;

/**
 * The VAT report (A16) as the pieces of its JSON text, read from what the database keeps
 * precomputed (migration 20261123007000): each reportable document's rows with their JSON text
 * (`vat_report_rows`, computed by triggers whenever the document changes, exactly as
 * `vatReportJsonFromDocuments` computes them on the fly: the definition, see its comment), and per
 * organization, day and kind those texts joined in the report's order with their VAT sum and
 * whether all are paid (`vat_report_days`, kept at commit). One statement answers:
 *  - the period's days, each with its text (a few kB: PostgreSQL never builds, copies and sends one
 *    value of several MB, which on the bench cost more than reading the rows);
 *  - one row with the rest of the text: the header and the output and input totals (exact sums of
 *    the listed amounts), netVAT and the reconciliation status, split where the two lists go.
 * The caller puts the days in date order. Without `withLists` (detail=totals) no day text is read.
 * Null when a row was rounded to other decimals than `decimals` (the base currency's, which the
 * rows were computed with): the caller then computes the report from the documents.
 */
export async function vatReportPieces(
  db: Db,
  org: VatOrg,
  from: string,
  to: string,
  decimals: number,
  withLists: boolean,
): Promise<VatReportPieces | null> {
  const { rows } = await sql<{
    kind: 'invoice' | 'expense' | null;
    day: string | null;
    list: string | null;
    head: string | null;
    mid: string | null;
    tail: string | null;
    exact: boolean | null;
  }>`
    SELECT kind, to_char(document_date, 'YYYY-MM-DD') AS day, list, NULL AS head, NULL AS mid, NULL AS tail, NULL::boolean AS exact
    FROM vat_report_days
    WHERE ${withLists} AND organization_id = ${org.id}::uuid AND document_date BETWEEN ${from}::date AND ${to}::date
    UNION ALL
    SELECT NULL, NULL, NULL,
           concat(${vatHeader(org, from, to)},
             ',"outputVAT":{"total":"', round(t.output, ${decimals}::int), CASE WHEN ${withLists} THEN '","invoices":[' ELSE '"}' END),
           concat(
             CASE WHEN ${withLists} THEN ']}' ELSE '' END,
             ',"inputVAT":{"total":"', round(t.input, ${decimals}::int), CASE WHEN ${withLists} THEN '","expenses":[' ELSE '"}' END),
           concat(
             CASE WHEN ${withLists} THEN ']}' ELSE '' END,
             ',"netVAT":"', round(t.output - t.input, ${decimals}::int),
             '","reconciliationStatus":{"allInvoicesPaid":', CASE WHEN t.all_paid THEN 'true' ELSE 'false' END,
             ',"allExpensesApproved":', CASE WHEN s.pending_expenses THEN 'false' ELSE 'true' END,
             ',"unmatchedTransactions":', s.unmatched_transactions, '}}'),
           t.exact
    FROM (
      SELECT coalesce(sum(vat) FILTER (WHERE kind = 'invoice'), 0) AS output,
             coalesce(sum(vat) FILTER (WHERE kind = 'expense'), 0) AS input,
             coalesce(bool_and(paid) FILTER (WHERE kind = 'invoice'), true) AS all_paid,
             coalesce(bool_and(decimals IS NOT DISTINCT FROM ${decimals}::smallint), true) AS exact
      FROM vat_report_days
      WHERE organization_id = ${org.id}::uuid AND document_date BETWEEN ${from}::date AND ${to}::date
    ) t,
    (${vatReconciliation(org, from, to)}) s`.execute(db);
  const pieces: VatReportPieces = { head: '', invoices: [], mid: '', expenses: [], tail: '' };
  for (const r of rows) {
    if (r.kind === 'invoice') pieces.invoices.push({ day: r.day!, list: r.list! });
    else if (r.kind === 'expense') pieces.expenses.push({ day: r.day!, list: r.list! });
    else {
      if (!r.exact) return null;
      pieces.head = r.head!;
      pieces.mid = r.mid!;
      pieces.tail = r.tail!;
    }
  }
  return pieces;
}

/**
 * The whole VAT report (A16) as the JSON text of its response, computed from the documents by one
 * statement: the definition of the report, which `vat_report_rows` (vatReportPieces) keeps
 * precomputed and which is used as it is only when those rows were rounded to other decimals
 * than the base currency's (they are recomputed when the base currency changes). So a period
 * with tens of thousands of documents never becomes rows and objects in Node (a profile of the
 * row-by-row version at 29,454 invoice rows showed most of its time in parsing rows, garbage
 * collection and re-serialising them). Keys come in the order of the response schema (`Vat`) and
 * strings are escaped by to_json, as JSON.stringify escapes them, so the text is what serialising
 * the report object would give, byte for byte.
 *  - Output VAT: invoices sent, viewed, overdue or paid dated in the period, one row per invoice
 *    and tax rate, ordered by date, number and rate; net and tax each converted at the invoice's
 *    rate and rounded half away from zero (numeric round) to `decimals`. The rows of an invoice
 *    carry together exactly what the sale posted to 2300 (A8: round(min(tax, total) x rate)): a
 *    rounding difference goes to the row with the largest VAT (the first in rate order on a tie).
 *  - Input VAT: approved or paid expenses with taxAmount > 0 dated in the period, converted as the
 *    approval posted them; vatRate = taxAmount / (amount - taxAmount) x 100, 2 decimals, "0.00" when
 *    the net is 0 (the division carried to 30 decimals, more than any amount(20,4) quotient needs to
 *    round exactly).
 *  - Totals are exact sums of the listed amounts; allInvoicesPaid is true when every listed row is
 *    paid (and when none is listed).
 * Without `withLists` (detail=totals) the same figures come without the two lists, whose text is
 * then never built.
 */
export async function vatReportJsonFromDocuments(
  db: Db,
  org: VatOrg,
  from: string,
  to: string,
  decimals: number,
  withLists: boolean,
): Promise<string> {
  // With the lists, output VAT is the sum of the listed rows. Without them (detail=totals) it is the
  // same sum taken per invoice: the rows of an invoice carry together exactly the VAT it posted,
  // so it is the posted VAT of the invoices with items, without grouping by rate, window or text.
  const output = withLists
    ? sql`
      SELECT string_agg(concat(
               '{"invoiceNumber":', to_json(invoice_number), ',"customerName":', to_json(customer_name),
               ',"invoiceDate":"', to_char(invoice_date, 'YYYY-MM-DD'), '","baseAmount":"', base, '","vatAmount":"', vat,
               '","vatRate":"', CASE WHEN scale(trim_scale(tax_rate)) <= 2 THEN round(tax_rate, 2) ELSE trim_scale(tax_rate) END, '"}'),
               ',' ORDER BY invoice_date, invoice_number, id, tax_rate) AS list,
             coalesce(sum(vat), 0) AS total,
             coalesce(bool_and(status = 'paid'), true) AS all_paid
      FROM o`
    : sql`
      SELECT NULL::text AS list,
             coalesce(sum(round(greatest(0, least(i.tax_amount, i.total_amount)) * i.exchange_rate, ${decimals}::int)), 0) AS total,
             coalesce(bool_and(i.status = 'paid'), true) AS all_paid
      FROM invoices i
      WHERE i.organization_id = ${org.id}::uuid AND i.status IN ('sent', 'viewed', 'overdue', 'paid')
        AND i.invoice_date BETWEEN ${from}::date AND ${to}::date
        AND EXISTS (SELECT 1 FROM invoice_items it WHERE it.invoice_id = i.id AND it.organization_id = i.organization_id)`;
  const result = await sql<{ body: string }>`
    WITH c AS (
      SELECT i.id, i.invoice_number, i.customer_name, i.invoice_date, i.status, it.tax_rate,
             round(sum(it.line_total) * i.exchange_rate, ${decimals}::int) AS base,
             round(sum(it.line_tax) * i.exchange_rate, ${decimals}::int) AS vat,
             round(greatest(0, least(i.tax_amount, i.total_amount)) * i.exchange_rate, ${decimals}::int) AS posted
      FROM invoices i
      JOIN invoice_items it ON it.invoice_id = i.id AND it.organization_id = i.organization_id
      WHERE i.organization_id = ${org.id}::uuid AND i.status IN ('sent', 'viewed', 'overdue', 'paid')
        AND i.invoice_date BETWEEN ${from}::date AND ${to}::date
      GROUP BY i.invoice_date, i.invoice_number, i.id, it.tax_rate
    ),
    o AS (
      SELECT invoice_date, invoice_number, id, tax_rate, status, customer_name, base,
             vat + CASE WHEN row_number() OVER by_vat = 1 THEN posted - sum(vat) OVER invoice ELSE 0 END AS vat
      FROM c
      WINDOW invoice AS (PARTITION BY invoice_date, invoice_number, id),
             by_vat AS (invoice ORDER BY vat DESC, tax_rate)
    ),
    output AS (${output}),
    input AS (
      SELECT string_agg(concat(
               '{"expenseNumber":', to_json(expense_number), ',"vendorName":', coalesce(to_json(vendor_name)::text, 'null'),
               ',"expenseDate":"', to_char(expense_date, 'YYYY-MM-DD'), '","baseAmount":"', base, '","vatAmount":"', vat,
               '","vatRate":"', rate, '"}'),
               ',' ORDER BY expense_date, expense_number) FILTER (WHERE ${withLists}) AS list,
             coalesce(sum(vat), 0) AS total
      FROM (
        SELECT expense_date, expense_number, vendor_name,
               round((amount - tax_amount) * exchange_rate, ${decimals}::int) AS base,
               round(tax_amount * exchange_rate, ${decimals}::int) AS vat,
               CASE WHEN amount = tax_amount THEN '0.00'
                    ELSE round((tax_amount * 100)::numeric(1000, 30) / (amount - tax_amount), 2)::text END AS rate
        FROM expenses
        WHERE organization_id = ${org.id}::uuid AND status IN ('approved', 'paid') AND tax_amount > 0
          AND expense_date BETWEEN ${from}::date AND ${to}::date
      ) e
    ),
    status AS (${vatReconciliation(org, from, to)})
    SELECT concat(${vatHeader(org, from, to)},
             ',"outputVAT":{"total":"', round(output.total, ${decimals}::int),
             CASE WHEN ${withLists} THEN concat('","invoices":[', output.list, ']}') ELSE '"}' END,
             ',"inputVAT":{"total":"', round(input.total, ${decimals}::int),
             CASE WHEN ${withLists} THEN concat('","expenses":[', input.list, ']}') ELSE '"}' END,
             ',"netVAT":"', round(output.total - input.total, ${decimals}::int),
             '","reconciliationStatus":{"allInvoicesPaid":', CASE WHEN output.all_paid THEN 'true' ELSE 'false' END,
             ',"allExpensesApproved":', CASE WHEN status.pending_expenses THEN 'false' ELSE 'true' END,
             ',"unmatchedTransactions":', status.unmatched_transactions, '}}') AS body
    FROM output, input, status`.execute(db);
  return result.rows[0].body;
}

/**
 * The invoices module's hand-written SQL: the statements tuned by hand where Kysely would cost a
 * measured share of the request (docs/perf/hot-paths.md). Everything else in the module goes through
 * Kysely. Each statement here is run on a migrated database by test/hot-sql.test.ts, which holds
 * what it returns to the response schema of the route that serves it.
 */
import type { InvoicesTable } from '../../db/types.js';
import type { InvoiceFilters } from './invoices.repository.js';
import type { InvoiceSort } from './invoices.schemas.js';

/**
 * Creation in two statements that travel together with the COMMIT (A4): the items first
 * (INSERT_ITEMS_SQL, as commitWith's lead), then INSERT_NUMBERED_SQL, which bumps the year's
 * counter and inserts the invoice numbered from it. Each statement's triggers run at its end, so
 * the items' audit rows and the VAT report's check are done before the counter row is locked: the
 * lock covers the invoice row, its audit row and the commit only, never a round trip (the items'
 * reference to their invoice is checked at COMMIT, migration 20261208000100). Invoice and item ids
 * are made by the caller.
 */
export const INSERT_ITEMS_SQL = `
  INSERT INTO invoice_items (id, organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax, account_id,
    unit_code, classification_code, vat_exemption_code)
  SELECT x.id, $1, $2, x.line_number, x.description, x.quantity, x.unit_price, x.tax_rate, x.line_total, x.line_tax, x.account_id,
    x.unit_code, x.classification_code, x.vat_exemption_code
  FROM jsonb_to_recordset($3::jsonb) AS x(
    id uuid, line_number integer, description text, quantity numeric, unit_price numeric, tax_rate numeric,
    line_total numeric, line_tax numeric, account_id uuid, unit_code text, classification_code text, vat_exemption_code text)`;

/** The numbered invoice (see INSERT_ITEMS_SQL): $1 organization, $2 year, $3 the invoice's id. */
export const INSERT_NUMBERED_SQL = `
  WITH n AS (
    INSERT INTO invoice_counters (organization_id, year, last_number) VALUES ($1, $2, 1)
    ON CONFLICT (organization_id, year) DO UPDATE SET last_number = invoice_counters.last_number + 1
    RETURNING last_number
  )
  INSERT INTO invoices (id, organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, supply_date, currency_code,
    exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, notes, terms, created_by)
  SELECT $3::uuid, $1, 'INV-' || $2::int::text || '-' || CASE WHEN n.last_number < 10000 THEN lpad(n.last_number::text, 4, '0') ELSE n.last_number::text END,
    $4, $5, $6::date, $7::date, $8::date, $9, $10::numeric, $11::numeric, $12::numeric, $13::numeric, $14::numeric, $15::numeric, $16, $17, $18::uuid
  FROM n
  RETURNING *`;

/**
 * The customer of an invoice being written, locked FOR KEY SHARE with its organization and the
 * creating user, and the organization's tax rates (findCustomerLocked says why). Written out: built
 * with Kysely at every POST and PUT of an invoice it cost some 5 % of the request's time in Node.
 * $1 the user, $2 the organization, $3 the contact.
 */
export const CUSTOMER_LOCKED_SQL = `
  SELECT c.*, ARRAY(SELECT t.rate::text FROM tax_rates t WHERE t.organization_id = c.organization_id ORDER BY t.position) AS organization_tax_rates
  FROM contacts c
  JOIN organizations o ON o.id = c.organization_id
  JOIN users u ON u.id = $1 AND u.organization_id = c.organization_id
  WHERE c.organization_id = $2 AND c.id = $3
  FOR KEY SHARE`;

const SORT_COLUMNS = {
  invoiceDate: 'invoice_date',
  dueDate: 'due_date',
  invoiceNumber: 'invoice_number',
  totalAmount: 'total_amount',
  createdAt: 'created_at',
  status: 'status',
} as const satisfies Record<InvoiceSort, keyof InvoicesTable>;

const EFFECTIVE_SQL = `CASE WHEN status IN ('sent', 'viewed') AND due_date < $2::date THEN 'overdue' ELSE status END`;

/**
 * One list item as JSON text, in the response schema's key order (InvoiceSummary): strings through
 * to_json (JSON escaping), dates as PostgreSQL writes them (ISO, as the driver hands them over
 * everywhere else), the total rounded half-up to the currency's decimals (A3, as formatAmount),
 * createdAt as Date#toISOString writes it, then the status of the invoice's SEF document and of its
 * fiscalization and of its delivery through the HR intermediary (issue 28; null when it has none). `i` is the page's invoice row, `c` its currency,
 * `sd`, `fr` and `xd` its sef_documents, fiscal_records and intermediary_documents rows (LEFT JOINs on their unique keys, only for
 * the page's rows; a change of either status raises the list version, migration 20261201001000).
 */
const ITEM_JSON = `concat('{"id":"', i.id, '","invoiceNumber":', to_json(i.invoice_number), ',"customerId":"', i.customer_id,
  '","customerName":', to_json(i.customer_name), ',"invoiceDate":"', i.invoice_date, '","dueDate":"', i.due_date,
  '","currencyCode":', to_json(i.currency_code), ',"totalAmount":"', round(i.total_amount, c.decimal_places),
  '","status":"', i.status, '","createdAt":"', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  '","sef":', CASE WHEN sd.status IS NULL THEN 'null' ELSE concat('{"status":', to_json(sd.status), '}') END,
  ',"fiscalization":', CASE WHEN fr.status IS NULL THEN 'null' ELSE concat('{"status":"', fr.status, '"}') END,
  ',"intermediary":', CASE WHEN xd.status IS NULL THEN 'null' ELSE concat('{"status":"', xd.status, '"}') END, '}')`;

/**
 * The list page's SQL for one combination of filters, sort and order, built once and kept (at
 * most 2^5 x 6 x 2 texts). $1 organization, $2 today, then the filters present, LIMIT, OFFSET, and
 * the version of the organization's invoices the caller already holds this page at (-1: none).
 * One statement answers that version (`version`, migration 20261125000100) and, only when it
 * differs (the page's subqueries are evaluated on first use, inside the CASE), the page as the
 * JSON text of its items (`data`, built by PostgreSQL: the route sends it without parsing and
 * serialising every row in Node) and the total: a count over the filtered rows (an index-only scan
 * for the usual filters) rather than a window over the page query, which would read and keep every
 * matching row to count them. A page past the end still gets its total.
 */
const listSql = new Map<string, string>();
export function listInvoicesSql(f: InvoiceFilters, sort: InvoiceSort, order: 'asc' | 'desc'): string {
  const key = `${+!!f.customerId}${+!!f.fromDate}${+!!f.toDate}${+!!f.status}${+!!f.search}:${sort}:${order}`;
  let text = listSql.get(key);
  if (text) return text;
  const where = ['organization_id = $1'];
  let n = 2;
  if (f.customerId) where.push(`customer_id = $${++n}`);
  if (f.fromDate) where.push(`invoice_date >= $${++n}::date`);
  if (f.toDate) where.push(`invoice_date <= $${++n}::date`);
  if (f.status) where.push(`${EFFECTIVE_SQL} = $${++n}`);
  if (f.search) {
    n++;
    where.push(`(invoice_number ILIKE $${n} OR customer_name ILIKE $${n})`);
  }
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const sortBy = sort === 'status' ? EFFECTIVE_SQL : SORT_COLUMNS[sort];
  const filtered = `FROM invoices WHERE ${where.join(' AND ')}`;
  // The aggregate orders the page's rows again by the same keys (on the page's columns, where
  // status is already the effective one); invoice numbers are unique per organization, so the
  // order is total and equals the page's.
  const changed = `v.version <> $${n + 3}::bigint`;
  text = `SELECT v.version::text AS version,
    CASE WHEN ${changed} THEN (SELECT count(*) ${filtered}) END AS total,
    CASE WHEN ${changed} THEN (SELECT coalesce('[' || string_agg(${ITEM_JSON}, ',' ORDER BY i.${SORT_COLUMNS[sort]} ${dir}, i.invoice_number ${dir}) || ']', '[]')
       FROM (SELECT id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code, total_amount, created_at,
               ${EFFECTIVE_SQL} AS status
             ${filtered} ORDER BY ${sortBy} ${dir}, invoice_number ${dir} LIMIT $${n + 1} OFFSET $${n + 2}) i
       JOIN currencies c ON c.code = i.currency_code
       LEFT JOIN sef_documents sd ON sd.organization_id = $1 AND sd.invoice_id = i.id AND sd.kind = 'invoice'
       LEFT JOIN fiscal_records fr ON fr.organization_id = $1 AND fr.invoice_id = i.id AND fr.message = 'eracun'
       LEFT JOIN intermediary_documents xd ON xd.organization_id = $1 AND xd.invoice_id = i.id AND xd.kind = 'invoice') END AS data
    FROM (SELECT coalesce((SELECT version FROM invoice_list_versions WHERE organization_id = $1), 0) AS version
          OFFSET 0) v`; // OFFSET 0: read the version once, not once per use (the planner would inline it)
  listSql.set(key, text);
  return text;
}

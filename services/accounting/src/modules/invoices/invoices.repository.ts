import { CompiledQuery, type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, InvoiceItemsTable, InvoiceStatus, InvoicesTable } from '../../db/types.js';
import type { InvoiceSort } from './invoices.schemas.js';

type Db = Kysely<DB>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type ItemRow = Selectable<InvoiceItemsTable>;

const COLUMNS = [
  'id',
  'organization_id',
  'invoice_number',
  'customer_id',
  'customer_name',
  'invoice_date',
  'due_date',
  'currency_code',
  'exchange_rate',
  'subtotal',
  'tax_amount',
  'discount_amount',
  'total_amount',
  'base_amount',
  'notes',
  'terms',
  'pdf_key',
  'token_hash',
  'sent_at',
  'sent_to',
  'email_id',
  'send_claimed_at',
  'viewed_at',
  'paid_at',
  'paid_bank_account_id',
  'cancelled_at',
  'supply_date',
  'created_by',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof InvoicesTable>;

/** The status as of `today`: sent/viewed past due reads as overdue before the job has run (A10). */
const effective = (today: string) =>
  sql<InvoiceStatus>`CASE WHEN invoices.status IN ('sent', 'viewed') AND invoices.due_date < ${today}::date THEN 'overdue' ELSE invoices.status END`;

type NewInvoice = Omit<Insertable<InvoicesTable>, 'invoice_number' | 'organization_id' | 'status'>;
type NewItem = Omit<Insertable<InvoiceItemsTable>, 'organization_id' | 'invoice_id'> & { id: string };

/**
 * Creation in one statement (A4): bump the year's counter, insert the invoice numbered from it and
 * its items. It is the last statement of its transaction: COMMIT travels in the same round trip,
 * so the counter row is locked only while the server runs this statement and the commit, never
 * while Node reads an answer. Item ids are made by the caller.
 */
const INSERT_NUMBERED_SQL = `
  WITH n AS (
    INSERT INTO invoice_counters (organization_id, year, last_number) VALUES ($1, $2, 1)
    ON CONFLICT (organization_id, year) DO UPDATE SET last_number = invoice_counters.last_number + 1
    RETURNING last_number
  ), inv AS (
    INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, supply_date, currency_code,
      exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, notes, terms, created_by)
    SELECT $1, 'INV-' || $2::int::text || '-' || CASE WHEN n.last_number < 10000 THEN lpad(n.last_number::text, 4, '0') ELSE n.last_number::text END,
      $3, $4, $5::date, $6::date, $7::date, $8, $9::numeric, $10::numeric, $11::numeric, $12::numeric, $13::numeric, $14::numeric, $15, $16, $17::uuid
    FROM n
    RETURNING *
  ), items AS (
    INSERT INTO invoice_items (id, organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax, account_id,
      unit_code, classification_code, vat_exemption_code)
    SELECT x.id, inv.organization_id, inv.id, x.line_number, x.description, x.quantity, x.unit_price, x.tax_rate, x.line_total, x.line_tax, x.account_id,
      x.unit_code, x.classification_code, x.vat_exemption_code
    FROM inv CROSS JOIN jsonb_to_recordset($18::jsonb) AS x(
      id uuid, line_number integer, description text, quantity numeric, unit_price numeric, tax_rate numeric,
      line_total numeric, line_tax numeric, account_id uuid, unit_code text, classification_code text, vat_exemption_code text)
  )
  SELECT * FROM inv`;

export async function insertNumberedInvoice(
  db: Db,
  orgId: string,
  year: number,
  v: NewInvoice,
  items: NewItem[],
): Promise<InvoiceRow> {
  const { rows } = await db.executeQuery<InvoiceRow>(
    CompiledQuery.raw(INSERT_NUMBERED_SQL, [
      orgId,
      year,
      v.customer_id,
      v.customer_name,
      v.invoice_date,
      v.due_date,
      v.supply_date ?? null,
      v.currency_code,
      v.exchange_rate,
      v.subtotal,
      v.tax_amount,
      v.discount_amount,
      v.total_amount,
      v.base_amount,
      v.notes ?? null,
      v.terms ?? null,
      v.created_by ?? null,
      JSON.stringify(items),
    ]),
  );
  return rows[0];
}

export async function insertItems(db: Db, items: Insertable<InvoiceItemsTable>[]): Promise<ItemRow[]> {
  if (items.length === 0) return [];
  return db.insertInto('invoice_items').values(items).returningAll().execute();
}

export async function deleteItems(db: Db, orgId: string, invoiceId: string) {
  await db
    .deleteFrom('invoice_items')
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .execute();
}

export function updateInvoice(db: Db, orgId: string, id: string, values: Updateable<InvoicesTable>) {
  return db
    .updateTable('invoices')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function appendNote(db: Db, orgId: string, id: string, note: string) {
  await db
    .updateTable('invoices')
    .set({
      notes: sql<string>`CASE WHEN notes IS NULL OR notes = '' THEN ${note} ELSE notes || E'\n' || ${note} END`,
      updated_at: new Date(),
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

function selectInvoice(db: Db, orgId: string, id: string, today: string) {
  return db
    .selectFrom('invoices')
    .select(COLUMNS)
    .select(effective(today).as('status'))
    .where('organization_id', '=', orgId)
    .where('id', '=', id);
}

export function findInvoice(db: Db, orgId: string, id: string, today: string) {
  return selectInvoice(db, orgId, id, today).executeTakeFirst();
}

/** Locks the invoice for a transition or an edit; the status is the effective one. */
export function lockInvoice(db: Db, orgId: string, id: string, today: string) {
  return selectInvoice(db, orgId, id, today).forUpdate().executeTakeFirst();
}

export function findItems(db: Db, orgId: string, invoiceId: string) {
  return db
    .selectFrom('invoice_items')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('line_number')
    .execute();
}

export interface InvoiceFilters {
  status?: InvoiceStatus;
  customerId?: string;
  fromDate?: string;
  toDate?: string;
}

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
 * createdAt as Date#toISOString writes it. `i` is the page's invoice row, `c` its currency.
 */
const ITEM_JSON = `concat('{"id":"', i.id, '","invoiceNumber":', to_json(i.invoice_number), ',"customerId":"', i.customer_id,
  '","customerName":', to_json(i.customer_name), ',"invoiceDate":"', i.invoice_date, '","dueDate":"', i.due_date,
  '","currencyCode":', to_json(i.currency_code), ',"totalAmount":"', round(i.total_amount, c.decimal_places),
  '","status":"', i.status, '","createdAt":"', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '"}')`;

/**
 * The list page's SQL for one combination of filters, sort and order, built once and kept (at
 * most 2^4 x 6 x 2 texts). $1 organization, $2 today, then the filters present, LIMIT, OFFSET, and
 * the version of the organization's invoices the caller already holds this page at (-1: none).
 * One statement answers that version (`version`, migration 20261125000100) and, only when it
 * differs (the page's subqueries are evaluated on first use, inside the CASE), the page as the
 * JSON text of its items (`data`, built by PostgreSQL: the route sends it without parsing and
 * serialising every row in Node) and the total: a count over the filtered rows (an index-only scan
 * for the usual filters) rather than a window over the page query, which would read and keep every
 * matching row to count them. A page past the end still gets its total.
 */
const listSql = new Map<string, string>();
function listInvoicesSql(f: InvoiceFilters, sort: InvoiceSort, order: 'asc' | 'desc'): string {
  const key = `${+!!f.customerId}${+!!f.fromDate}${+!!f.toDate}${+!!f.status}:${sort}:${order}`;
  let text = listSql.get(key);
  if (text) return text;
  const where = ['organization_id = $1'];
  let n = 2;
  if (f.customerId) where.push(`customer_id = $${++n}`);
  if (f.fromDate) where.push(`invoice_date >= $${++n}::date`);
  if (f.toDate) where.push(`invoice_date <= $${++n}::date`);
  if (f.status) where.push(`${EFFECTIVE_SQL} = $${++n}`);
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
       JOIN currencies c ON c.code = i.currency_code) END AS data
    FROM (SELECT coalesce((SELECT version FROM invoice_list_versions WHERE organization_id = $1), 0) AS version
          OFFSET 0) v`; // OFFSET 0: read the version once, not once per use (the planner would inline it)
  listSql.set(key, text);
  return text;
}

/**
 * The version of the organization's invoices and, unless it is `heldVersion` (the version a page
 * already held was computed at), that page of the list as JSON text (its items, in the response
 * schema's shape) and the total.
 */
export async function listInvoicesJson(
  db: Db,
  orgId: string,
  f: InvoiceFilters,
  page: { offset: number; perPage: number; sort: InvoiceSort; order: 'asc' | 'desc' },
  today: string,
  heldVersion: string | null,
): Promise<{ version: string; page: { data: string; total: number } | null }> {
  const params: unknown[] = [orgId, today];
  for (const v of [f.customerId, f.fromDate, f.toDate, f.status]) if (v) params.push(v);
  params.push(page.perPage, page.offset, heldVersion ?? '-1');
  const { rows } = await db.executeQuery<{ version: string; data: string | null; total: number | null }>(
    CompiledQuery.raw(listInvoicesSql(f, page.sort, page.order), params),
  );
  const { version, data, total } = rows[0];
  return { version, page: data === null ? null : { data, total: total! } };
}

export function findCustomer(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findAccounts(db: Db, orgId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('accounts')
    .select(['id', 'code', 'account_type_id', 'is_active'])
    .where('organization_id', '=', orgId)
    .where('id', 'in', ids)
    .execute();
}

export async function accountIdsByCode(db: Db, orgId: string, codes: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'code'])
    .where('organization_id', '=', orgId)
    .where('code', 'in', codes)
    .execute();
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** The contact-delete blocker (SVC-7002): invoices of the contact that are not cancelled. */
export async function contactHasOpenInvoices(db: Db, orgId: string, contactId: string): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('customer_id', '=', contactId)
    .where('status', '<>', 'cancelled')
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** The public view link (A10): looked up across organizations, so it runs on the system handle. */
export function findByTokenHash(system: Db, tokenHash: string) {
  return system
    .selectFrom('invoices')
    .select(['id', 'organization_id', 'invoice_number', 'pdf_key', 'status'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * One batch of the overdue job: claims sent/viewed invoices past due with SKIP LOCKED, so a
 * second instance (or a user's transition holding a row) is never waited on nor redone.
 */
export async function markOverdueBatch(system: Db, today: string, limit: number): Promise<number> {
  const result = await sql`
    UPDATE invoices SET status = 'overdue', updated_at = now()
    WHERE id IN (
      SELECT id FROM invoices
      WHERE status IN ('sent', 'viewed') AND due_date < ${today}::date
      ORDER BY due_date, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )`.execute(system);
  return Number(result.numAffectedRows ?? 0);
}

import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, InvoiceItemsTable, InvoiceStatus, InvoicesTable } from '../../db/types.js';
import type { InvoiceSort } from './invoices.schemas.js';

type Db = Kysely<DB>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type ItemRow = Selectable<InvoiceItemsTable>;

const COLUMNS = [
  'id', 'organization_id', 'invoice_number', 'customer_id', 'customer_name', 'invoice_date', 'due_date', 'currency_code',
  'exchange_rate', 'subtotal', 'tax_amount', 'discount_amount', 'total_amount', 'base_amount', 'notes', 'terms', 'pdf_key',
  'token_hash', 'sent_at', 'sent_to', 'email_id', 'send_claimed_at', 'viewed_at', 'paid_at', 'paid_bank_account_id', 'cancelled_at', 'created_by',
  'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof InvoicesTable>;

/** The status as of `today`: sent/viewed past due reads as overdue before the job has run (A10). */
const effective = (today: string) =>
  sql<InvoiceStatus>`CASE WHEN invoices.status IN ('sent', 'viewed') AND invoices.due_date < ${today}::date THEN 'overdue' ELSE invoices.status END`;

type NewInvoice = Omit<Insertable<InvoicesTable>, 'invoice_number' | 'organization_id' | 'status'>;
type NewItem = Omit<Insertable<InvoiceItemsTable>, 'organization_id' | 'invoice_id'> & { id: string };

/**
 * Creation in one statement (A4): bump the year's counter, insert the invoice numbered from it and
 * its items. One round trip instead of three keeps the counter row's lock short, which is what
 * bounds concurrent creations in one organization. Item ids are made by the caller.
 */
export async function insertNumberedInvoice(db: Db, orgId: string, year: number, v: NewInvoice, items: NewItem[]): Promise<InvoiceRow> {
  const { rows } = await sql<InvoiceRow>`
    WITH n AS (
      INSERT INTO invoice_counters (organization_id, year, last_number) VALUES (${orgId}, ${year}, 1)
      ON CONFLICT (organization_id, year) DO UPDATE SET last_number = invoice_counters.last_number + 1
      RETURNING last_number
    ), inv AS (
      INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code,
        exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, notes, terms, created_by)
      SELECT ${orgId}, 'INV-' || ${String(year)} || '-' || CASE WHEN n.last_number < 10000 THEN lpad(n.last_number::text, 4, '0') ELSE n.last_number::text END,
        ${v.customer_id}, ${v.customer_name}, ${v.invoice_date}::date, ${v.due_date}::date, ${v.currency_code}, ${v.exchange_rate}::numeric,
        ${v.subtotal}::numeric, ${v.tax_amount}::numeric, ${v.discount_amount}::numeric, ${v.total_amount}::numeric, ${v.base_amount}::numeric,
        ${v.notes ?? null}, ${v.terms ?? null}, ${v.created_by ?? null}::uuid
      FROM n
      RETURNING *
    ), items AS (
      INSERT INTO invoice_items (id, organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax, account_id)
      SELECT x.id, inv.organization_id, inv.id, x.line_number, x.description, x.quantity, x.unit_price, x.tax_rate, x.line_total, x.line_tax, x.account_id
      FROM inv CROSS JOIN jsonb_to_recordset(${JSON.stringify(items)}::jsonb) AS x(
        id uuid, line_number integer, description text, quantity numeric, unit_price numeric, tax_rate numeric,
        line_total numeric, line_tax numeric, account_id uuid)
    )
    SELECT * FROM inv`.execute(db);
  return rows[0];
}

export async function insertItems(db: Db, items: Insertable<InvoiceItemsTable>[]): Promise<ItemRow[]> {
  if (items.length === 0) return [];
  return db.insertInto('invoice_items').values(items).returningAll().execute();
}

export async function deleteItems(db: Db, orgId: string, invoiceId: string) {
  await db.deleteFrom('invoice_items').where('organization_id', '=', orgId).where('invoice_id', '=', invoiceId).execute();
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

export async function listInvoices(
  db: Db,
  orgId: string,
  f: InvoiceFilters,
  page: { offset: number; perPage: number; sort: InvoiceSort; order: 'asc' | 'desc' },
  today: string,
) {
  let q = db.selectFrom('invoices').where('organization_id', '=', orgId);
  if (f.customerId) q = q.where('customer_id', '=', f.customerId);
  if (f.fromDate) q = q.where('invoice_date', '>=', f.fromDate);
  if (f.toDate) q = q.where('invoice_date', '<=', f.toDate);
  if (f.status) q = q.where(effective(today), '=', f.status);
  const sortColumn = SORT_COLUMNS[page.sort];
  const [rows, count] = await Promise.all([
    q
      .select([
        'id', 'invoice_number', 'customer_id', 'customer_name', 'invoice_date', 'due_date', 'currency_code', 'total_amount', 'created_at',
      ])
      .select(effective(today).as('status'))
      .orderBy(sortColumn === 'status' ? effective(today) : sql.ref(`invoices.${sortColumn}`), page.order)
      .orderBy('invoice_number', page.order)
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findCustomer(db: Db, orgId: string, id: string) {
  return db.selectFrom('contacts').selectAll().where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst();
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

/**
 * The ledger account behind a bank account (A8). Bank accounts arrive with a later issue: until
 * their table exists this answers null and the caller falls back to account 1100. The query
 * assumes the spec's BankAccount shape (id, organization_id, account_id, is_active, created_at).
 */
export async function bankLedgerAccount(db: Db, orgId: string, bankAccountId: string | null): Promise<{ found: boolean; accountId: string | null }> {
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('public.bank_accounts') IS NOT NULL AS present`.execute(db);
  if (!rows[0]?.present) return { found: false, accountId: null };
  const result = bankAccountId
    ? await sql<{ account_id: string }>`SELECT account_id FROM bank_accounts WHERE organization_id = ${orgId} AND id = ${bankAccountId}`.execute(db)
    : await sql<{ account_id: string }>`SELECT account_id FROM bank_accounts WHERE organization_id = ${orgId} AND is_active ORDER BY created_at, id LIMIT 1`.execute(db);
  return { found: true, accountId: result.rows[0]?.account_id ?? null };
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

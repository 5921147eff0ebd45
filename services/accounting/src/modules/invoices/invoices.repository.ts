import { CompiledQuery, type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { ContactsTable, DB, InvoiceItemsTable, InvoiceStatus, InvoicesTable } from '../../db/types.js';
import type { InvoiceSort } from './invoices.schemas.js';
import { CUSTOMER_LOCKED_SQL, INSERT_ITEMS_SQL, INSERT_NUMBERED_SQL, listInvoicesSql } from './invoices.sql.js';

type Db = Kysely<DB>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type ItemRow = Selectable<InvoiceItemsTable>;
type CustomerRow = Selectable<ContactsTable> & { organization_tax_rates: string[] };

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

/** The items of a new invoice, written before it (INSERT_ITEMS_SQL): the lead of its commitWith. */
export function newItemsStatement(orgId: string, invoiceId: string, items: NewItem[]): CompiledQuery {
  return CompiledQuery.raw(INSERT_ITEMS_SQL, [orgId, invoiceId, JSON.stringify(items)]);
}

/** The numbered invoice, written after its items (INSERT_NUMBERED_SQL). */
export async function insertNumberedInvoice(
  db: Db,
  orgId: string,
  year: number,
  id: string,
  v: NewInvoice,
): Promise<InvoiceRow> {
  const { rows } = await db.executeQuery<InvoiceRow>(
    CompiledQuery.raw(INSERT_NUMBERED_SQL, [
      orgId,
      year,
      id,
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
  /** An ILIKE pattern (lib/like.ts), matched against the number and the customer's name. */
  search?: string;
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
  for (const v of [f.customerId, f.fromDate, f.toDate, f.status, f.search]) if (v) params.push(v);
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

/**
 * The customer of an invoice being written, with the rows the invoice's foreign keys will check
 * (the customer, the organization, the creating user) locked FOR KEY SHARE now, before the numbered
 * insert takes the counter row (issue 31): a change holding one of them (FOR UPDATE) is waited for
 * here, not while the counter is held, and the foreign-key checks at the end of the numbered
 * statement find the rows already locked by this transaction (no wait, no second lock record).
 * The organization's tax rates (issue 32) come with it, in the same statement: one round trip less
 * per invoice written.
 */
export async function findCustomerLocked(
  db: Db,
  orgId: string,
  id: string,
  userId: string,
): Promise<CustomerRow | undefined> {
  const { rows } = await db.executeQuery<CustomerRow>(CompiledQuery.raw(CUSTOMER_LOCKED_SQL, [userId, orgId, id]));
  return rows[0];
}

/** The items' accounts, locked FOR KEY SHARE for the same reason (their foreign key). */
export function findAccounts(db: Db, orgId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('accounts')
    .select(['id', 'code', 'account_type_id', 'is_active'])
    .where('organization_id', '=', orgId)
    .where('id', 'in', ids)
    .forKeyShare()
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

import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, ExpenseStatus, ExpensesTable } from '../../db/types.js';
import type { ExpenseSort } from './expenses.schemas.js';

type Db = Kysely<DB>;
export type ExpenseRow = Selectable<ExpensesTable>;
type NewExpense = Omit<Insertable<ExpensesTable>, 'expense_number' | 'organization_id' | 'status'>;

/**
 * Creation in one statement: bump the year's counter and insert the expense numbered from it
 * (EXP-<year>-<sequence>, gapless and unique as invoice numbers, A4). The counter row's lock
 * serialises concurrent creations and a rollback gives the number back.
 */
export async function insertNumberedExpense(db: Db, orgId: string, year: number, v: NewExpense): Promise<ExpenseRow> {
  const { rows } = await sql<ExpenseRow>`
    WITH n AS (
      INSERT INTO expense_counters (organization_id, year, last_number) VALUES (${orgId}, ${year}, 1)
      ON CONFLICT (organization_id, year) DO UPDATE SET last_number = expense_counters.last_number + 1
      RETURNING last_number
    )
    INSERT INTO expenses (id, organization_id, expense_number, vendor_id, vendor_name, expense_date, category, amount, tax_amount,
      currency_code, exchange_rate, base_amount, payment_method, account_id, description, receipt_key, receipt_content_type, created_by)
    SELECT COALESCE(${v.id ?? null}::uuid, gen_random_uuid()), ${orgId},
      'EXP-' || ${String(year)} || '-' || CASE WHEN n.last_number < 10000 THEN lpad(n.last_number::text, 4, '0') ELSE n.last_number::text END,
      ${v.vendor_id ?? null}::uuid, ${v.vendor_name ?? null}, ${v.expense_date}::date, ${v.category}, ${v.amount}::numeric,
      ${v.tax_amount ?? '0'}::numeric, ${v.currency_code}, ${v.exchange_rate}::numeric, ${v.base_amount}::numeric,
      ${v.payment_method ?? null}, ${v.account_id ?? null}::uuid, ${v.description ?? null}, ${v.receipt_key ?? null},
      ${v.receipt_content_type ?? null}, ${v.created_by ?? null}::uuid
    FROM n
    RETURNING *`.execute(db);
  return rows[0];
}

export function findExpense(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('expenses')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Locks the expense for a transition or an edit. */
export function lockExpense(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('expenses')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function updateExpense(db: Db, orgId: string, id: string, values: Updateable<ExpensesTable>) {
  return db
    .updateTable('expenses')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteExpense(db: Db, orgId: string, id: string) {
  await db.deleteFrom('expenses').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

export interface ExpenseFilters {
  status?: ExpenseStatus;
  category?: string;
  vendorId?: string;
  fromDate?: string;
  toDate?: string;
}

const SORT_COLUMNS = {
  expenseDate: 'expense_date',
  expenseNumber: 'expense_number',
  amount: 'amount',
  category: 'category',
  status: 'status',
  createdAt: 'created_at',
} as const satisfies Record<ExpenseSort, keyof ExpensesTable>;

export async function listExpenses(
  db: Db,
  orgId: string,
  f: ExpenseFilters,
  page: { offset: number; perPage: number; sort: ExpenseSort; order: 'asc' | 'desc' },
) {
  let q = db.selectFrom('expenses').where('organization_id', '=', orgId);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.category) q = q.where('category', '=', f.category);
  if (f.vendorId) q = q.where('vendor_id', '=', f.vendorId);
  if (f.fromDate) q = q.where('expense_date', '>=', f.fromDate);
  if (f.toDate) q = q.where('expense_date', '<=', f.toDate);
  const [rows, count] = await Promise.all([
    q
      .select([
        'id',
        'expense_number',
        'vendor_id',
        'vendor_name',
        'expense_date',
        'category',
        'amount',
        'currency_code',
        'status',
        'receipt_key',
        'created_at',
      ])
      .orderBy(SORT_COLUMNS[page.sort], page.order)
      .orderBy('expense_number', page.order)
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findVendor(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('contacts')
    .select(['id', 'name', 'type', 'is_active'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The contact-delete blocker (SVC-7003): expenses of the contact that are not rejected. */
export async function contactHasOpenExpenses(db: Db, orgId: string, contactId: string): Promise<boolean> {
  const row = await db
    .selectFrom('expenses')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('vendor_id', '=', contactId)
    .where('status', '<>', 'rejected')
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

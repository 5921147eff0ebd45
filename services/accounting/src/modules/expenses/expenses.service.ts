import { randomUUID } from 'node:crypto';
import { type Dec, dec, formatAmount, roundHalfUp } from '@app/shared/money';
import type { Kysely, Updateable } from 'kysely';
import { hasRowNaming } from '../../db/has-row.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB, ExpensesTable } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { type PageRequest, pageMeta } from '../../lib/pagination.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import * as accounts from '../accounts/accounts.repository.js';
import type { AccountDeleteBlocker } from '../accounts/accounts.service.js';
import type { ContactDeleteBlocker } from '../contacts/contacts.service.js';
import { assertCurrency, currencyDecimals } from '../currencies/currencies.js';
import { documentRate, formatRate } from '../exchange-rates/exchange-rates.service.js';
import * as repo from './expenses.repository.js';
import type { CreateExpenseBody, ExpenseSort, ExpensesQuery, UpdateExpenseBody } from './expenses.schemas.js';

type Db = Kysely<DB>;

/** A contact with expenses that are not rejected cannot be deleted (SVC-7003). */
export const openExpensesBlock: ContactDeleteBlocker = async (trx, orgId, contactId) =>
  (await repo.contactHasOpenExpenses(trx, orgId, contactId)) ? 'SVC-7003' : null;

/** An account an expense is booked on (in any status) is kept. */
export const expenseAccountBlock: AccountDeleteBlocker = async (trx, orgId, accountId) =>
  (await hasRowNaming(trx, 'expenses', 'account_id', orgId, accountId)) ? 'the account is used by expenses' : null;

const EXPENSE_TYPE = 5;
const MAX_AMOUNT = '1000000000000000';

/** Where a checked receipt goes once the expense is known to be valid (see receipts.ts). */
export interface ReceiptToStore {
  contentType: string;
  /** Moves the scanned, typed upload into storage under `key`; 500 SVC-4007 when that fails. */
  store(key: string): Promise<void>;
}

/** A JSON number as an exact decimal; null when not finite (G14). */
function decimalOf(n: number): Dec | null {
  return Number.isFinite(n) ? dec(n) : null;
}

function checkMoney(field: string, value: number | string, decimals: number, opts: { positive: boolean }): Dec {
  // Strings are stored values carried over by a PUT that did not change them.
  const d = typeof value === 'string' ? dec(value) : decimalOf(value);
  const bad = (msg: string) => new AppError('SVC-9003', { [field]: [msg] });
  if (!d) throw bad('must be a finite number');
  if (opts.positive ? d.lte(0) : d.lt(0)) throw bad(opts.positive ? 'must be greater than 0' : 'must be at least 0');
  if (d.gte(MAX_AMOUNT)) throw bad(`must be below ${MAX_AMOUNT}`);
  if (d.decimalPlaces() > decimals) throw bad(`must have at most ${decimals} decimal places`);
  return d;
}

async function vendorOf(db: Db, orgId: string, vendorId: string | null | undefined) {
  if (!vendorId) return null;
  const v = await repo.findVendor(db, orgId, vendorId);
  // A customer-only or deleted contact is not a vendor.
  if (!v || v.type === 'customer' || !v.is_active)
    throw new AppError('SVC-4004', { vendorId: ['is not an active vendor'] });
  return v;
}

async function checkExpenseAccount(db: Db, orgId: string, accountId: string | null | undefined) {
  if (!accountId) return;
  const a = await accounts.findAccountHeader(db, orgId, accountId);
  if (!a || a.account_type_id !== EXPENSE_TYPE || !a.is_active)
    throw new AppError('SVC-9003', { accountId: ['must be an active Expense account'] });
}

type Merged = Omit<CreateExpenseBody, 'amount' | 'taxAmount'> & {
  amount: number | string;
  taxAmount?: number | string;
};

/** Validation, vendor, account, rate (A5) and amounts shared by create and update. */
async function prepare(db: Db, p: Principal, body: Merged): Promise<Updateable<ExpensesTable>> {
  const baseCurrency = p.organization.baseCurrency;
  // Either case in, upper-case from here on (docs/decisions.md).
  const currencyCode = (body.currencyCode ?? baseCurrency).toUpperCase();
  assertCurrency(currencyCode);
  const decimals = currencyDecimals(currencyCode);
  const amount = checkMoney('amount', body.amount, decimals, { positive: true });
  const tax =
    body.taxAmount === undefined ? dec(0) : checkMoney('taxAmount', body.taxAmount, decimals, { positive: false });
  if (tax.gt(amount)) throw new AppError('SVC-9003', { taxAmount: ['must not exceed amount (amount is gross)'] });
  const category = body.category.trim();
  if (!category) throw new AppError('SVC-9003', { category: ['must not be blank'] });
  const vendor = await vendorOf(db, p.orgId, body.vendorId);
  await checkExpenseAccount(db, p.orgId, body.accountId);
  const exchangeRate = await documentRate(db, p.orgId, currencyCode, baseCurrency, body.expenseDate);
  const baseDecimals = currencyDecimals(baseCurrency);
  return {
    vendor_id: vendor?.id ?? null,
    vendor_name: vendor?.name ?? null,
    expense_date: body.expenseDate,
    category,
    amount: amount.toFixed(decimals),
    tax_amount: tax.toFixed(decimals),
    currency_code: currencyCode,
    exchange_rate: exchangeRate,
    base_amount: roundHalfUp(amount.mul(exchangeRate), baseDecimals).toFixed(baseDecimals),
    payment_method: body.paymentMethod?.trim() || null,
    account_id: body.accountId ?? null,
    description: body.description ?? null,
  };
}

function receiptKey(orgId: string, expenseId: string, contentType: string): string {
  const ext = contentType === 'application/pdf' ? 'pdf' : contentType === 'image/png' ? 'png' : 'jpg';
  return `receipts/${orgId}/${expenseId}-${randomUUID().slice(0, 8)}.${ext}`;
}

/** POST /expenses: pending, numbered; the receipt (already scanned and typed) is stored last. */
export function createExpense(
  scope: TenantScope,
  p: Principal,
  body: CreateExpenseBody,
  receipt: ReceiptToStore | null,
) {
  return scope.transaction((trx) => insertExpense(trx, p, body, receipt));
}

/** The insert of createExpense inside the caller's transaction (a purchase invoice's expense, sef module). */
export async function insertExpense(
  trx: TenantTx,
  p: Principal,
  body: CreateExpenseBody,
  receipt: ReceiptToStore | null,
) {
  const values = await prepare(trx, p, body);
  const id = randomUUID();
  let key: string | null = null;
  if (receipt) {
    key = receiptKey(p.orgId, id, receipt.contentType);
    await receipt.store(key);
  }
  const row = await repo.insertNumberedExpense(trx, p.orgId, Number(body.expenseDate.slice(0, 4)), {
    ...(values as Required<typeof values>),
    id,
    receipt_key: key,
    receipt_content_type: receipt?.contentType ?? null,
    created_by: p.userId,
  });
  return presentExpense(row, p.organization.baseCurrency);
}

/**
 * PUT /expenses/:id: pending only (400 SVC-4002 with details.status); the fields given replace
 * the stored ones and the rate is recomputed (A5). Returns the replaced receipt key, if any, for
 * removal after commit.
 */
export function updateExpense(
  scope: TenantScope,
  p: Principal,
  id: string,
  body: UpdateExpenseBody,
  receipt: ReceiptToStore | null,
) {
  return scope.transaction((trx) => replaceExpense(trx, p, id, body, receipt));
}

async function replaceExpense(
  trx: TenantTx,
  p: Principal,
  id: string,
  body: UpdateExpenseBody,
  receipt: ReceiptToStore | null,
) {
  const current = await repo.lockExpense(trx, p.orgId, id);
  if (!current) throw new AppError('SVC-4001');
  if (current.status !== 'pending') throw new AppError('SVC-4002', { status: [current.status] });
  const date = body.expenseDate ?? current.expense_date;
  // The number carries the year of the expense date and never changes, so neither does the year.
  if (date.slice(0, 4) !== current.expense_date.slice(0, 4)) {
    throw new AppError('SVC-9003', {
      expenseDate: [`must stay in ${current.expense_date.slice(0, 4)}, the year of ${current.expense_number}`],
    });
  }
  const merged: Merged = {
    vendorId: body.vendorId !== undefined ? body.vendorId : current.vendor_id,
    expenseDate: date,
    category: body.category ?? current.category,
    amount: body.amount ?? current.amount,
    currencyCode: body.currencyCode ?? current.currency_code,
    taxAmount: body.taxAmount ?? current.tax_amount,
    paymentMethod: body.paymentMethod !== undefined ? body.paymentMethod : current.payment_method,
    accountId: body.accountId !== undefined ? body.accountId : current.account_id,
    description: body.description !== undefined ? body.description : current.description,
  };
  const values = await prepare(trx, p, merged);
  let replaced: string | null = null;
  if (receipt) {
    const key = receiptKey(p.orgId, id, receipt.contentType);
    await receipt.store(key);
    values.receipt_key = key;
    values.receipt_content_type = receipt.contentType;
    replaced = current.receipt_key;
  }
  const row = await repo.updateExpense(trx, p.orgId, id, values);
  return { expense: presentExpense(row, p.organization.baseCurrency), replacedReceipt: replaced };
}

/** DELETE: pending only (400 SVC-4002); the receipt key is returned for removal after commit. */
export function deleteExpense(scope: TenantScope, id: string): Promise<string | null> {
  return scope.transaction((trx) => removeExpense(trx, scope.orgId, id));
}

async function removeExpense(trx: TenantTx, orgId: string, id: string): Promise<string | null> {
  const current = await repo.lockExpense(trx, orgId, id);
  if (!current) throw new AppError('SVC-4001');
  if (current.status !== 'pending') throw new AppError('SVC-4002', { status: [current.status] });
  await repo.deleteExpense(trx, orgId, id);
  return current.receipt_key;
}

/** GET /expenses/:id/receipt: the expense row that names its stored receipt. */
export async function findExpenseReceipt(scope: TenantScope, id: string) {
  const row = await scope.run((db) => repo.findExpense(db, scope.orgId, id));
  if (!row) throw new AppError('SVC-4001');
  return row;
}

export function getExpense(scope: TenantScope, p: Principal, id: string) {
  return scope.run((db) => readExpense(db, p, id));
}

async function readExpense(db: Db, p: Principal, id: string) {
  const row = await repo.findExpense(db, p.orgId, id);
  if (!row) throw new AppError('SVC-4001');
  return presentExpense(row, p.organization.baseCurrency);
}

export function listExpenses(scope: TenantScope, p: Principal, q: ExpensesQuery, page: PageRequest<ExpenseSort>) {
  return scope.run((db) => findExpenses(db, p, q, page));
}

async function findExpenses(db: Db, p: Principal, q: ExpensesQuery, page: PageRequest<ExpenseSort>) {
  if (q.fromDate && q.toDate && q.fromDate > q.toDate)
    throw new AppError('SVC-9003', { fromDate: ['must not be after toDate'] });
  const { rows, total } = await repo.listExpenses(db, p.orgId, q, page);
  return { data: rows.map(presentSummary), meta: pageMeta(total, page) };
}

const receiptUrl = (id: string, key: string | null) => (key ? `/api/v1/expenses/${id}/receipt` : null);

function presentSummary(
  r: Pick<
    repo.ExpenseRow,
    | 'id'
    | 'expense_number'
    | 'vendor_id'
    | 'vendor_name'
    | 'expense_date'
    | 'category'
    | 'amount'
    | 'currency_code'
    | 'status'
    | 'receipt_key'
    | 'created_at'
  >,
) {
  return {
    id: r.id,
    expenseNumber: r.expense_number,
    vendorId: r.vendor_id,
    vendorName: r.vendor_name,
    expenseDate: r.expense_date,
    category: r.category,
    amount: formatAmount(r.amount, currencyDecimals(r.currency_code)),
    currencyCode: r.currency_code,
    status: r.status,
    receiptUrl: receiptUrl(r.id, r.receipt_key),
    createdAt: r.created_at.toISOString(),
  };
}

export function presentExpense(r: repo.ExpenseRow, baseCurrency: string) {
  return {
    ...presentSummary(r),
    exchangeRate: formatRate(r.exchange_rate),
    baseAmount: formatAmount(r.base_amount, currencyDecimals(baseCurrency)),
    taxAmount: formatAmount(r.tax_amount, currencyDecimals(r.currency_code)),
    paymentMethod: r.payment_method,
    accountId: r.account_id,
    description: r.description,
    createdBy: r.created_by,
    updatedAt: r.updated_at.toISOString(),
    approvedBy: r.approved_by,
    approvedAt: r.approved_at ? r.approved_at.toISOString() : null,
    rejectedAt: r.rejected_at ? r.rejected_at.toISOString() : null,
    rejectionReason: r.rejection_reason,
    paidAt: r.paid_at,
    paidBankAccountId: r.paid_bank_account_id,
  };
}

import { dec, roundHalfUp } from '@app/shared/money';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { ExpenseStatus } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import { SYSTEM_ACCOUNTS } from '../accounts/default-chart.js';
import { paymentLedgerAccount } from '../banking/bank-ledger.js';
import { currencyDecimals } from '../currencies/currencies.js';
import { postJournalEntries } from '../ledger/ledger.service.js';
import type { Posting } from '../ledger/ledger.types.js';
import { postingTexts } from '../ledger/posting-texts.js';
import * as repo from './expenses.repository.js';
import type { PayBody, RejectBody } from './expenses.schemas.js';
import { presentExpense } from './expenses.service.js';

/**
 * The expense status machine (spec "Expense status", A12) and its postings (A8), each written in
 * the transaction that changes the status (STYLE 5).
 */
type ExpenseAction = 'approve' | 'reject' | 'pay';

const TRANSITIONS: Record<ExpenseAction, Partial<Record<ExpenseStatus, ExpenseStatus>>> = {
  approve: { pending: 'approved' },
  reject: { pending: 'rejected' },
  pay: { approved: 'paid' },
};

/** The status after `action`, or 400 SVC-4003 with details.status. */
export function nextExpenseStatus(current: ExpenseStatus, action: ExpenseAction): ExpenseStatus {
  const to = TRANSITIONS[action][current];
  if (!to)
    throw new AppError('SVC-4003', {
      status: [current],
      action: [`'${action}' is not allowed when the expense is ${current}`],
    });
  return to;
}

const DEFAULT_EXPENSE = SYSTEM_ACCOUNTS.generalExpenses;
const VAT_RECEIVABLE = SYSTEM_ACCOUNTS.vatReceivable;
const AP = SYSTEM_ACCOUNTS.payable;
const BANK = SYSTEM_ACCOUNTS.bank;

async function accountsByCode(trx: TenantTx, orgId: string, codes: string[]) {
  const rows = await trx
    .selectFrom('accounts')
    .select(['id', 'code'])
    .where('organization_id', '=', orgId)
    .where('code', 'in', codes)
    .execute();
  const found = new Map(rows.map((r) => [r.code, r.id]));
  const missing = codes.filter((c) => !found.has(c));
  // The default chart (A7) is created at registration; a missing system account is a data error.
  if (missing.length) throw new AppError('SVC-8001', { accountCode: missing });
  return found;
}

async function lockOrThrow(trx: TenantTx, orgId: string, id: string) {
  const e = await repo.lockExpense(trx, orgId, id);
  if (!e) throw new AppError('SVC-4001');
  return e;
}

function posting(
  e: repo.ExpenseRow,
  baseCurrency: string,
  p: Omit<Posting, 'currencyCode' | 'exchangeRate' | 'baseAmount' | 'locked'>,
): Posting {
  const baseDecimals = currencyDecimals(baseCurrency);
  return {
    ...p,
    currencyCode: e.currency_code,
    exchangeRate: e.exchange_rate,
    baseAmount: roundHalfUp(dec(p.amount).mul(e.exchange_rate), baseDecimals).toFixed(baseDecimals),
    locked: true,
  };
}

/**
 * approve (owner, admin): Dr the expense account (accountId or 5000) / Cr 2110 for the net
 * (amount - taxAmount), plus Dr 1300 / Cr 2110 for taxAmount when above zero.
 */
export function approveExpense(scope: TenantScope, p: Principal, id: string) {
  return scope.transaction((trx) => approve(trx, p, id));
}

async function approve(trx: TenantTx, p: Principal, id: string) {
  const e = await lockOrThrow(trx, p.orgId, id);
  const to = nextExpenseStatus(e.status, 'approve');
  const codes = await accountsByCode(trx, p.orgId, [DEFAULT_EXPENSE, VAT_RECEIVABLE, AP]);
  const decimals = currencyDecimals(e.currency_code);
  const tax = dec(e.tax_amount);
  const net = dec(e.amount).minus(tax);
  const common = {
    transactionDate: e.expense_date,
    referenceType: 'expense' as const,
    referenceId: e.id,
    createdBy: p.userId,
  };
  const postings: Posting[] = [];
  if (net.gt(0)) {
    postings.push(
      posting(e, p.organization.baseCurrency, {
        ...common,
        description: postingTexts(p.organization.language).expense(e.expense_number, e.category).slice(0, 500),
        debitAccountId: e.account_id ?? codes.get(DEFAULT_EXPENSE)!,
        creditAccountId: codes.get(AP)!,
        amount: net.toFixed(decimals),
      }),
    );
  }
  if (tax.gt(0)) {
    postings.push(
      posting(e, p.organization.baseCurrency, {
        ...common,
        description: postingTexts(p.organization.language).expenseVat(e.expense_number),
        debitAccountId: codes.get(VAT_RECEIVABLE)!,
        creditAccountId: codes.get(AP)!,
        amount: tax.toFixed(decimals),
      }),
    );
  }
  await postJournalEntries(trx, p.orgId, postings);
  const row = await repo.updateExpense(trx, p.orgId, id, {
    status: to,
    approved_by: p.userId,
    approved_at: new Date(),
  });
  return presentExpense(row, p.organization.baseCurrency);
}

/** reject (owner, admin): pending to rejected, with an optional reason; no postings. */
export function rejectExpense(scope: TenantScope, p: Principal, id: string, body: RejectBody) {
  return scope.transaction((trx) => reject(trx, p, id, body));
}

async function reject(trx: TenantTx, p: Principal, id: string, body: RejectBody) {
  const e = await lockOrThrow(trx, p.orgId, id);
  const to = nextExpenseStatus(e.status, 'reject');
  const row = await repo.updateExpense(trx, p.orgId, id, {
    status: to,
    rejected_by: p.userId,
    rejected_at: new Date(),
    rejection_reason: body.reason?.trim() || null,
  });
  return presentExpense(row, p.organization.baseCurrency);
}

/**
 * pay (owner, admin): approved to paid; Dr 2110 / Cr the bank's ledger account for amount,
 * referenceType payment. The bank account is the one named, else the organization's first active
 * one, else account 1100 (as invoice mark-paid).
 */
export function payExpense(scope: TenantScope, p: Principal, id: string, body: PayBody) {
  return scope.transaction(async (trx) => (await payExpenseIn(trx, p, id, body)).expense);
}

/** Who may pay an expense (PATCH /expenses/:id/pay, and a bank line's "pay and match"). */
export const EXPENSE_PAYERS = ['owner', 'admin'] as const;

/** pay inside the caller's transaction: the expense as presented and its payment postings. */
export async function payExpenseIn(trx: TenantTx, p: Principal, id: string, body: PayBody) {
  if (!(EXPENSE_PAYERS as readonly string[]).includes(p.role))
    throw new AppError('SVC-9001', { required: [...EXPENSE_PAYERS], current: [p.role] });
  const e = await lockOrThrow(trx, p.orgId, id);
  const to = nextExpenseStatus(e.status, 'pay');
  if (body.paidAt < e.expense_date) throw new AppError('SVC-9003', { paidAt: ['must not be before expenseDate'] });
  const codes = await accountsByCode(trx, p.orgId, [AP, BANK]);
  const bank = await paymentLedgerAccount(trx, p.orgId, body.bankAccountId ?? null);
  const postings = await postJournalEntries(trx, p.orgId, [
    posting(e, p.organization.baseCurrency, {
      transactionDate: body.paidAt,
      description: postingTexts(p.organization.language).expensePayment(e.expense_number),
      debitAccountId: codes.get(AP)!,
      creditAccountId: bank?.accountId ?? codes.get(BANK)!,
      amount: dec(e.amount).toFixed(currencyDecimals(e.currency_code)),
      referenceType: 'payment',
      referenceId: e.id,
      createdBy: p.userId,
    }),
  ]);
  const row = await repo.updateExpense(trx, p.orgId, id, {
    status: to,
    paid_at: body.paidAt,
    paid_bank_account_id: bank?.bankAccountId ?? null,
  });
  return { expense: presentExpense(row, p.organization.baseCurrency), postings };
}

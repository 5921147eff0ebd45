import { dec } from '@app/shared/money';
import type { Kysely } from 'kysely';
import { hasRowNaming } from '../../db/has-row.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { paymentReference } from '../../domain/payment-reference.js';
import { AppError, addDetail, type ErrorDetails } from '../../lib/errors.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import * as accounts from '../accounts/accounts.repository.js';
import type { AccountDeleteBlocker } from '../accounts/accounts.service.js';
import { assertCurrency, currencyDecimals, formatMoney } from '../currencies/currencies.js';
import { postManualPosting, readTransaction } from '../ledger/transactions.service.js';
import * as repo from './banking.repository.js';
import {
  BANK_TRANSACTION_SORTS,
  type BankTransactionsQuery,
  type CreateBankAccountBody,
  type ReconcileBody,
} from './banking.schemas.js';
import { type BankLine, matchScore, type PostingCandidate, suggestMatches } from './reconciliation.js';

type Db = Kysely<DB>;
const ASSET_TYPE = 1;
const MAX_BALANCE = '1000000000000000';
/** Candidates read per bank line and rule: more than a page can use, few enough to stay cheap. */
const CANDIDATES_PER_LINE = 10;

/** The ledger account of a bank account (active or not) is kept. */
export const bankAccountBlock: AccountDeleteBlocker = async (trx, orgId, accountId) =>
  (await hasRowNaming(trx, 'bank_accounts', 'account_id', orgId, accountId))
    ? 'the account is used by a bank account'
    : null;

export function presentBankAccount(r: repo.BankAccountRow) {
  return {
    id: r.id,
    accountId: r.account_id,
    accountCode: r.account_code,
    bankName: r.bank_name,
    accountNumber: r.account_number,
    iban: r.iban,
    currencyCode: r.currency_code,
    currentBalance: formatMoney(r.current_balance, r.currency_code),
    isActive: r.is_active,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function presentBankTransaction(r: repo.BankTransactionRow, currencyCode: string) {
  return {
    id: r.id,
    transactionDate: r.transaction_date,
    amount: formatMoney(r.amount, currencyCode),
    description: r.description || null,
    reference: r.reference || null,
    reconciled: r.reconciled,
    matchedTransactionId: r.matched_transaction_id,
    reconciledAt: r.reconciled_at ? r.reconciled_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
  };
}

export function listBankAccounts(scope: TenantScope) {
  return scope.run((db) => readBankAccounts(db, scope.orgId));
}

async function readBankAccounts(db: Db, orgId: string) {
  return { data: (await repo.listBankAccounts(db, orgId)).map(presentBankAccount) };
}

/** The caller's bank account (404 SVC-5001), before an import reads its upload. */
export function getBankAccount(scope: TenantScope, id: string) {
  return scope.run((db) => bankAccountOrThrow(db, scope.orgId, id));
}

export async function bankAccountOrThrow(db: Db, orgId: string, id: string) {
  const b = await repo.findBankAccount(db, orgId, id);
  if (!b) throw new AppError('SVC-5001');
  return b;
}

/** POST /bank-accounts: the ledger account must be one of the organization's Asset accounts. */
export function createBankAccount(scope: TenantScope, body: CreateBankAccountBody) {
  return scope.transaction((trx) => insertBankAccount(trx, scope.orgId, body));
}

async function insertBankAccount(trx: TenantTx, orgId: string, body: CreateBankAccountBody) {
  const account = await accounts.findAccountHeader(trx, orgId, body.accountId);
  if (!account) throw new AppError('SVC-5003', { accountId: ['ledger account not found'] });
  if (account.account_type_id !== ASSET_TYPE)
    throw new AppError('SVC-5002', { accountId: ['must be an Asset account'] });
  if (!account.is_active) throw new AppError('SVC-9003', { accountId: ['account is inactive'] });
  // Either case in, upper-case from here on (docs/decisions.md).
  const currencyCode = body.currencyCode.toUpperCase();
  assertCurrency(currencyCode);
  const decimals = currencyDecimals(currencyCode);
  let opening = dec(0);
  if (body.currentBalance !== undefined) {
    if (!Number.isFinite(body.currentBalance))
      throw new AppError('SVC-9003', { currentBalance: ['must be a finite number'] });
    opening = dec(body.currentBalance);
    if (opening.abs().gte(MAX_BALANCE))
      throw new AppError('SVC-9003', { currentBalance: [`must be below ${MAX_BALANCE} in absolute value`] });
    if (opening.decimalPlaces() > decimals)
      throw new AppError('SVC-9003', { currentBalance: [`must have at most ${decimals} decimal places`] });
  }
  const bankName = body.bankName.trim();
  if (!bankName) throw new AppError('SVC-9003', { bankName: ['must not be blank'] });
  const id = await repo.insertBankAccount(trx, {
    organization_id: orgId,
    account_id: account.id,
    bank_name: bankName,
    account_number: body.accountNumber?.trim() || null,
    iban: body.iban ? body.iban.replace(/\s+/g, '').toUpperCase() || null : null,
    currency_code: currencyCode,
    opening_balance: opening.toFixed(),
    current_balance: opening.toFixed(),
  });
  return presentBankAccount((await repo.findBankAccount(trx, orgId, id))!);
}

/** GET /bank-accounts/:id/transactions: a page of lines and the A15 suggestions for its unreconciled ones. */
export function listBankTransactions(scope: TenantScope, id: string, q: BankTransactionsQuery, country: string) {
  return scope.run((db) => readBankTransactions(db, scope.orgId, id, q, country));
}

async function readBankTransactions(db: Db, orgId: string, id: string, q: BankTransactionsQuery, country: string) {
  const page = pageRequest(q, BANK_TRANSACTION_SORTS, 'transactionDate');
  if (q.fromDate && q.toDate && q.fromDate > q.toDate)
    throw new AppError('SVC-9003', { fromDate: ['must not be after toDate'] });
  const bank = await bankAccountOrThrow(db, orgId, id);
  const reconciled = q.reconciled === undefined ? undefined : q.reconciled === 'true';
  const { rows, total } = await repo.listBankTransactions(
    db,
    orgId,
    id,
    { fromDate: q.fromDate, toDate: q.toDate, reconciled },
    page,
  );
  const open: BankLine[] = rows
    .filter((r) => !r.reconciled)
    .map((r) => ({
      id: r.id,
      date: r.transaction_date,
      amount: r.amount,
      description: r.description,
      reference: r.reference,
    }));
  const candidates = await repo.reconciliationCandidates(db, orgId, bank.account_id, open, CANDIDATES_PER_LINE);
  const suggestions = suggestMatches(
    open,
    candidates.map((c) => ({ ...candidateOf(c, country), bankId: c.bank_id })),
    bank.account_id,
  );
  return {
    data: rows.map((r) => presentBankTransaction(r, bank.currency_code)),
    meta: pageMeta(total, page),
    suggestions,
  };
}

function candidateOf(c: Omit<repo.CandidateRow, 'bank_id'>, country: string): PostingCandidate {
  return {
    id: c.id,
    date: c.transaction_date,
    amount: c.amount,
    description: c.description,
    debitAccountId: c.debit_account_id,
    creditAccountId: c.credit_account_id,
    documentNumber: c.document_number,
    paymentReference: c.document_number ? paymentReference(country, c.document_number) : null,
  };
}

/**
 * POST /bank-accounts/:id/reconcile: the bank line (404 SVC-5004) and the posting (404 SVC-9002)
 * are locked, each must be unreconciled (400 SVC-5005), and the posting must touch the bank
 * account's ledger account (422 SVC-9003). Both are marked reconciled; `confidence` is the
 * pair's A15 score. With invoiceId or expenseId in place of transactionId (exactly one of the
 * three): the bank line pays that document and its payment posting is matched, in one transaction
 * (payFromLine); the invoice's after-commit work runs once it has committed.
 */
export async function reconcile(
  scope: TenantScope,
  p: Principal,
  id: string,
  body: ReconcileBody,
  payments: DocumentPayments,
) {
  const given = (['transactionId', 'invoiceId', 'expenseId', 'entry'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1) {
    // The fields given are named (none given: the posting, the usual one).
    const details: ErrorDetails = {};
    for (const field of given.length ? given : (['transactionId'] as const))
      addDetail(details, field, 'give exactly one of transactionId, invoiceId, expenseId and entry');
    throw new AppError('SVC-9003', details);
  }
  if (body.transactionId) {
    const transactionId = body.transactionId;
    return scope.transaction((trx) => reconcileLine(trx, p, id, body.bankTransactionId, transactionId));
  }
  if (body.entry) return postAndMatch(scope, p, id, body.bankTransactionId, body.entry);
  const doc: PaidDocument = body.invoiceId
    ? { kind: 'invoice', id: body.invoiceId }
    : { kind: 'expense', id: body.expenseId as string };
  let afterCommit: (() => Promise<void>) | undefined;
  const out = await scope.transaction(async (trx) => {
    const paid = await payFromLine(trx, p, id, body.bankTransactionId, doc, payments);
    afterCommit = paid.afterCommit;
    return matchNew(trx, p, paid.bank, paid.line, paid.postingId);
  });
  await afterCommit?.();
  return out;
}

/**
 * POST /bank-accounts/:id/unreconcile: a match undone (the wrong posting was matched). The line is
 * locked (404 SVC-5004) and must be matched (422 SVC-9003); it and its posting are unmatched and
 * both are offered for matching again. What a match wrote stays: an invoice or expense paid by
 * "pay and match" stays paid and the posting of "post and match" stays in the ledger; each is undone
 * where it was made (the document's own actions, a reversing entry), which the ledger keeps as history.
 */
export function unreconcile(scope: TenantScope, p: Principal, id: string, bankTransactionId: string) {
  return scope.transaction(async (trx) => {
    const { bank, line } = await lockedLine(trx, p, id, bankTransactionId);
    const postingId = line.matched_transaction_id;
    if (!line.reconciled || !postingId) throw new AppError('SVC-9003', { bankTransactionId: ['not reconciled'] });
    const updated = await repo.setMatch(trx, p.orgId, line.id, postingId, null);
    return {
      bankTransaction: presentBankTransaction(updated, bank.currency_code),
      transaction: await readTransaction(trx, p.orgId, p.organization.baseCurrency, postingId),
    };
  });
}

/** A document a bank line pays: an invoice (money in) or an expense (money out). */
export interface PaidDocument {
  kind: 'invoice' | 'expense';
  id: string;
}

/**
 * How a document is marked paid inside the caller's transaction (given by the app: the invoices and
 * expenses modules import this one, so it cannot import them). Answers the payment postings written
 * and what is due once the transaction has committed (an invoice's fiscalization or e-invoice report).
 */
export interface DocumentPayments {
  pay(
    trx: TenantTx,
    p: Principal,
    doc: PaidDocument,
    paidAt: string,
    bankAccountId: string,
  ): Promise<{
    postings: Array<{ id: string; debit_account_id: string; credit_account_id: string; currency_code: string }>;
    afterCommit?: () => Promise<void>;
  }>;
}

/**
 * "Pay and match": the line is locked and checked first (unreconciled, money in for an invoice and
 * out for an expense), then the document is marked paid on the line's date from this bank account;
 * its payment posting on the bank's ledger account, in the bank account's currency, is the one matched.
 * Any refusal rolls the payment back with the match.
 */
async function payFromLine(
  trx: TenantTx,
  p: Principal,
  id: string,
  bankTransactionId: string,
  doc: PaidDocument,
  payments: DocumentPayments,
) {
  const field = doc.kind === 'invoice' ? 'invoiceId' : 'expenseId';
  const { bank, line } = await openLine(trx, p, id, bankTransactionId);
  const moneyIn = dec(line.amount).gt(0);
  if (doc.kind === 'invoice' && !moneyIn)
    throw new AppError('SVC-9003', { invoiceId: ['an invoice is paid by money in; this bank line is money out'] });
  if (doc.kind === 'expense' && moneyIn)
    throw new AppError('SVC-9003', { expenseId: ['an expense is paid by money out; this bank line is money in'] });
  const paid = await payments.pay(trx, p, doc, line.transaction_date, bank.id).catch((err: unknown) => {
    // The payment date is the line's: say so, rather than name a paidAt the request did not send.
    if (err instanceof AppError && err.code === 'SVC-9003' && err.details?.paidAt)
      throw new AppError('SVC-9003', { bankTransactionId: [`the bank line's date is before the document's date`] });
    throw err;
  });
  const posting = paid.postings.find(
    (x) => x.debit_account_id === bank.account_id || x.credit_account_id === bank.account_id,
  );
  if (!posting) throw new AppError('SVC-9003', { [field]: ['the document has no amount to pay'] });
  if (posting.currency_code !== bank.currency_code)
    throw new AppError('SVC-9003', {
      [field]: [`the document is not in the bank account's currency ${bank.currency_code}`],
    });
  return { bank, line, postingId: posting.id, afterCommit: paid.afterCommit };
}

/**
 * "Post and match": a new manual posting for the line (its date and amount, the bank account's
 * currency; money in debits the bank's ledger account, money out credits it, accountId the other
 * side), with POST /transactions' checks, matched in the same transaction. A refusal writes neither.
 */
async function postAndMatch(
  scope: TenantScope,
  p: Principal,
  id: string,
  bankTransactionId: string,
  entry: NonNullable<ReconcileBody['entry']>,
) {
  let base = p.organization.baseCurrency;
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await scope.transaction(async (trx) => {
      const { bank, line } = await openLine(trx, p, id, bankTransactionId);
      if (entry.accountId === bank.account_id)
        throw new AppError('SVC-9003', { 'entry.accountId': ["must differ from the bank account's ledger account"] });
      const amount = dec(line.amount);
      const [debitAccountId, creditAccountId] = amount.gt(0)
        ? [bank.account_id, entry.accountId]
        : [entry.accountId, bank.account_id];
      const posted = await postManualPosting(trx, p.orgId, p.userId, base, {
        transactionDate: line.transaction_date,
        description: entry.description,
        debitAccountId,
        creditAccountId,
        amount: amount.abs().toFixed(),
        currencyCode: bank.currency_code,
      }).catch((err: unknown) => {
        // The ledger names the side; the request named the account.
        if (err instanceof AppError && err.details) {
          const side = debitAccountId === entry.accountId ? 'debitAccountId' : 'creditAccountId';
          const { [side]: messages, ...rest } = err.details;
          if (messages) throw new AppError(err.code, { ...rest, 'entry.accountId': messages }, err.headers);
        }
        throw err;
      });
      if (!posted.posted) return { baseCurrency: posted.baseCurrency };
      return { result: await matchNew(trx, p, bank, line, posted.posted.id) };
    });
    if ('result' in outcome) return outcome.result;
    base = outcome.baseCurrency;
  }
  throw new Error('the organization base currency kept changing during one entry');
}

/** The bank account and its line, locked (404 SVC-5004 when the line is not on this bank account). */
async function lockedLine(trx: TenantTx, p: Principal, id: string, bankTransactionId: string) {
  const bank = await bankAccountOrThrow(trx, p.orgId, id);
  const line = await repo.lockBankTransaction(trx, p.orgId, id, bankTransactionId);
  if (!line) throw new AppError('SVC-5004', { bankTransactionId: ['bank transaction not found on this bank account'] });
  return { bank, line };
}

/** The bank account and its line, locked, which must not be reconciled yet. */
async function openLine(trx: TenantTx, p: Principal, id: string, bankTransactionId: string) {
  const { bank, line } = await lockedLine(trx, p, id, bankTransactionId);
  if (line.reconciled) throw new AppError('SVC-5005', { bankTransactionId: ['already reconciled'] });
  return { bank, line };
}

async function reconcileLine(
  trx: TenantTx,
  p: Principal,
  id: string,
  bankTransactionId: string,
  transactionId: string,
) {
  const { bank, line } = await lockedLine(trx, p, id, bankTransactionId);
  const posting = await repo.lockPosting(trx, p.orgId, transactionId);
  if (!posting) throw new AppError('SVC-9002', { transactionId: ['ledger transaction not found'] });
  if (line.reconciled) throw new AppError('SVC-5005', { bankTransactionId: ['already reconciled'] });
  return matchLocked(trx, p, bank, line, posting);
}

type LockedBank = Awaited<ReturnType<typeof bankAccountOrThrow>>;
type LockedLine = NonNullable<Awaited<ReturnType<typeof repo.lockBankTransaction>>>;

/** The pay- and post-and-match paths: the posting they just wrote, matched with the line they hold. */
async function matchNew(trx: TenantTx, p: Principal, bank: LockedBank, line: LockedLine, postingId: string) {
  const posting = await repo.lockPosting(trx, p.orgId, postingId);
  if (!posting) throw new Error(`the posting ${postingId} just written is not found`);
  return matchLocked(trx, p, bank, line, posting);
}

/** Both rows locked, the line unreconciled: the posting must be free and on the bank's ledger account. */
async function matchLocked(
  trx: TenantTx,
  p: Principal,
  bank: LockedBank,
  line: LockedLine,
  posting: NonNullable<Awaited<ReturnType<typeof repo.lockPosting>>>,
) {
  if (posting.reconciled) throw new AppError('SVC-5005', { transactionId: ['already reconciled'] });
  if (posting.debit_account_id !== bank.account_id && posting.credit_account_id !== bank.account_id) {
    throw new AppError('SVC-9003', {
      transactionId: [`the posting does not touch the bank account's ledger account ${bank.account_code}`],
    });
  }
  const doc = await repo.documentNumberOf(trx, p.orgId, posting.reference_type, posting.reference_id);
  const confidence = matchScore(
    {
      id: line.id,
      date: line.transaction_date,
      amount: line.amount,
      description: line.description,
      reference: line.reference,
    },
    candidateOf({ ...posting, description: posting.description, document_number: doc }, p.organization.country),
    bank.account_id,
  );
  const updated = await repo.setMatch(trx, p.orgId, line.id, posting.id, new Date());
  return {
    bankTransaction: presentBankTransaction(updated, bank.currency_code),
    transaction: await readTransaction(trx, p.orgId, p.organization.baseCurrency, posting.id),
    confidence,
  };
}

import { dec } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { pgCode } from '../../lib/pg-error.js';
import * as repo from './ledger.repository.js';
import type { Posting, ReferenceType } from './ledger.types.js';
import { sumRangesUpTo } from './period-ranges.js';

export type { LedgerRow } from './ledger.repository.js';

type LedgerRow = repo.LedgerRow;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function checkPosting(p: Posting, i: number): void {
  const bad = (field: string, msg: string) => new AppError('SVC-9003', { [`postings[${i}].${field}`]: [msg] });
  if (!ISO_DATE.test(p.transactionDate)) throw bad('transactionDate', 'must be a date (YYYY-MM-DD)');
  if (!p.description) throw bad('description', 'is required');
  if (p.debitAccountId === p.creditAccountId) throw bad('creditAccountId', 'must differ from debitAccountId');
  if (!DECIMAL.test(p.amount) || dec(p.amount).lte(0)) throw bad('amount', 'must be a decimal greater than 0');
  if (!DECIMAL.test(p.exchangeRate) || dec(p.exchangeRate).lte(0))
    throw bad('exchangeRate', 'must be a decimal greater than 0');
  if (!DECIMAL.test(p.baseAmount) || dec(p.baseAmount).lt(0))
    throw bad('baseAmount', 'must be a decimal of at least 0');
}

/**
 * Writes postings (A8) inside the caller's transaction and moves the running balances of the
 * accounts they touch, in one statement. Pass every posting of one business event in one call:
 * balance rows are locked in account-id order within a call, which is what keeps concurrent
 * postings free of deadlocks. Accounts must belong to the organization (404 SVC-8001 otherwise).
 * Callers compute exchangeRate (documentRate) and baseAmount; amounts are decimal strings.
 */
export async function postJournalEntries(
  trx: Kysely<DB>,
  organizationId: string,
  postings: Posting[],
): Promise<LedgerRow[]> {
  if (postings.length === 0) return [];
  postings.forEach(checkPosting);
  const rows: repo.PostingInput[] = postings.map((p) => ({
    transaction_date: p.transactionDate,
    description: p.description,
    notes: p.notes ?? null,
    debit_account_id: p.debitAccountId,
    credit_account_id: p.creditAccountId,
    amount: p.amount,
    currency_code: p.currencyCode,
    exchange_rate: p.exchangeRate,
    base_amount: p.baseAmount,
    reference_type: p.referenceType,
    reference_id: p.referenceId,
    reversal_of: null,
    locked: p.locked,
    created_by: p.createdBy,
  }));
  try {
    return await repo.insertPostings(trx, organizationId, rows);
  } catch (err) {
    // An account of another organization, or none at all, fails the (organization, account) key.
    if (pgCode(err) === '23503') throw new AppError('SVC-8001');
    throw err;
  }
}

export interface ReversalOptions {
  /** Date of the reversing postings; default the current date. */
  transactionDate?: string;
}

/**
 * Reverses every posting of a document that is not reversed yet (invoice cancelled, A8): new
 * postings with debit and credit swapped, same amounts, "Reversal: " + description, locked,
 * reversal_of set, same reference. Balances move in the same statement. Returns the reversals
 * (empty when there was nothing left to reverse).
 */
export async function reverseReference(
  trx: Kysely<DB>,
  organizationId: string,
  ref: { referenceType: ReferenceType; referenceId: string },
  createdBy: string | null,
  opts: ReversalOptions = {},
): Promise<LedgerRow[]> {
  return reversing(() =>
    repo.insertReversals(trx, organizationId, repo.byReference(ref.referenceType, ref.referenceId), {
      transactionDate: opts.transactionDate ?? null,
      createdBy,
    }),
  );
}

/**
 * reverseReference for several references in one statement (an invoice's sale and payment
 * postings): one call locks all the balance rows involved in account-id order, where two calls
 * would lock them in two rounds.
 */
export async function reverseReferences(
  trx: Kysely<DB>,
  organizationId: string,
  refs: ReadonlyArray<{ referenceType: ReferenceType; referenceId: string }>,
  createdBy: string | null,
  opts: ReversalOptions = {},
): Promise<LedgerRow[]> {
  if (refs.length === 0) return [];
  return reversing(() =>
    repo.insertReversals(trx, organizationId, repo.byReferences(refs), {
      transactionDate: opts.transactionDate ?? null,
      createdBy,
    }),
  );
}

/**
 * Reverses the postings of a manual journal entry not reversed yet (repo.byEntry: a several-line
 * entry's postings, or a lone manual posting); [] when none is left or there is no such entry.
 */
export async function reverseEntry(
  trx: Kysely<DB>,
  organizationId: string,
  entryId: string,
  createdBy: string | null,
  opts: ReversalOptions = {},
): Promise<LedgerRow[]> {
  return reversing(() =>
    repo.insertReversals(trx, organizationId, repo.byEntry(entryId), {
      transactionDate: opts.transactionDate ?? null,
      createdBy,
    }),
  );
}

/** A concurrent reversal of the same posting trips the unique index on reversal_of. */
async function reversing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgCode(err) === '23505') throw new AppError('SVC-9003', { id: ['the posting is already reversed'] });
    throw err;
  }
}

/**
 * Reverses one posting by id. 404 SVC-9002 when it does not exist in the organization;
 * 422 SVC-9003 when it is itself a reversal or was reversed already.
 */
export async function reversePosting(
  trx: Kysely<DB>,
  organizationId: string,
  postingId: string,
  createdBy: string | null,
  opts: ReversalOptions = {},
): Promise<LedgerRow> {
  const posting = await repo.findPosting(trx, organizationId, postingId);
  if (!posting) throw new AppError('SVC-9002');
  if (posting.reversal_of) throw new AppError('SVC-9003', { id: ['a reversal cannot be reversed'] });
  const [row] = await reversing(() =>
    repo.insertReversals(trx, organizationId, repo.byId(postingId), {
      transactionDate: opts.transactionDate ?? null,
      createdBy,
    }),
  );
  if (!row) throw new AppError('SVC-9003', { id: ['the posting is already reversed'] });
  return row;
}

/**
 * Trial balance as of a date (A16): every account with postings up to the date, its debit and
 * credit totals and its balance on its normal side, in base currency, read from the day and month
 * sums (account_period_sums). Amounts are decimal strings with `decimals` places. `balanced`
 * compares the unrounded totals; the reports module answers 500 SVC-6004 when it is false.
 */
export async function trialBalance(db: Kysely<DB>, organizationId: string, asOfDate: string, decimals = 2) {
  const rows = await repo.accountTotals(db, organizationId, sumRangesUpTo(asOfDate));
  let debit = dec(0);
  let credit = dec(0);
  const accounts = rows.map((r) => {
    debit = debit.plus(r.debit_total);
    credit = credit.plus(r.credit_total);
    const balance =
      r.normal_balance === 'debit'
        ? dec(r.debit_total).minus(r.credit_total)
        : dec(r.credit_total).minus(r.debit_total);
    return {
      accountId: r.account_id,
      accountCode: r.code,
      accountName: r.name,
      accountType: r.account_type,
      normalBalance: r.normal_balance,
      debitTotal: dec(r.debit_total).toFixed(decimals),
      creditTotal: dec(r.credit_total).toFixed(decimals),
      balance: balance.toFixed(decimals),
    };
  });
  return {
    accounts,
    totals: { debit: debit.toFixed(decimals), credit: credit.toFixed(decimals) },
    balanced: debit.eq(credit),
  };
}

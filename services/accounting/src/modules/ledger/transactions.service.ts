import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { dec, roundHalfUp } from '@app/shared/money';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { assertCurrency, currencyDecimals, formatMoney } from '../currencies/currencies.js';
import { documentRate, formatRate } from '../exchange-rates/exchange-rates.service.js';
import * as repo from './ledger.repository.js';
import { TRANSACTION_SORTS, type ManualEntryBody, type TransactionsQuery } from './ledger.schemas.js';
import { postJournalEntries, reversePosting } from './ledger.service.js';

type Db = Kysely<DB>;

type Presentable = repo.LedgerRow & { debit_code: string; debit_name: string; credit_code: string; credit_name: string };

/** The spec's Transaction: amounts with their currency's decimals, the rate with 6 (A3). */
export function presentTransaction(t: Presentable, baseCurrency: string) {
  return {
    id: t.id,
    transactionDate: t.transaction_date,
    description: t.description,
    notes: t.notes,
    debitAccountId: t.debit_account_id,
    debitAccountCode: t.debit_code,
    debitAccountName: t.debit_name,
    creditAccountId: t.credit_account_id,
    creditAccountCode: t.credit_code,
    creditAccountName: t.credit_name,
    amount: formatMoney(t.amount, t.currency_code),
    currencyCode: t.currency_code,
    exchangeRate: formatRate(t.exchange_rate),
    baseAmount: formatMoney(t.base_amount, baseCurrency),
    referenceType: t.reference_type,
    referenceId: t.reference_id,
    reversalOf: t.reversal_of,
    locked: t.locked,
    reconciled: t.reconciled,
    reconciledAt: t.reconciled_at ? t.reconciled_at.toISOString() : null,
    createdBy: t.created_by,
    createdAt: t.created_at.toISOString(),
  };
}

export async function listTransactions(db: Db, orgId: string, baseCurrency: string, q: Static<typeof TransactionsQuery>) {
  const page = pageRequest(q, TRANSACTION_SORTS, 'transactionDate');
  if (q.fromDate && q.toDate && q.fromDate > q.toDate) throw new AppError('SVC-9003', { fromDate: ['must not be after toDate'] });
  const { rows, total } = await repo.listTransactions(db, orgId, q, page);
  return { data: rows.map((r) => presentTransaction(r, baseCurrency)), meta: pageMeta(total, page) };
}

export async function getTransaction(db: Db, orgId: string, baseCurrency: string, id: string) {
  const { rows } = await repo.listTransactions(db, orgId, { id }, { sort: 'transactionDate', order: 'desc', perPage: 1, offset: 0 });
  if (!rows[0]) throw new AppError('SVC-9002');
  return presentTransaction(rows[0], baseCurrency);
}

/**
 * A manual journal entry (A8): referenceType manual, not locked, rate as A5 on transactionDate.
 * 422 SVC-9003 for the same account on both sides, an inactive account, an unknown currency,
 * more decimals than the currency has, or no rate; 404 SVC-8001 for an unknown account.
 */
export async function createManualEntry(trx: Db, orgId: string, userId: string, body: Static<typeof ManualEntryBody>) {
  if (body.debitAccountId === body.creditAccountId) {
    throw new AppError('SVC-9003', { creditAccountId: ['must differ from debitAccountId'] });
  }
  const accounts = await repo.accountsForPosting(trx, orgId, [body.debitAccountId, body.creditAccountId]);
  const debit = accounts.find((a) => a.id === body.debitAccountId);
  const credit = accounts.find((a) => a.id === body.creditAccountId);
  if (!debit) throw new AppError('SVC-8001', { debitAccountId: ['account not found'] });
  if (!credit) throw new AppError('SVC-8001', { creditAccountId: ['account not found'] });
  const inactive: Record<string, string[]> = {};
  if (!debit.is_active) inactive.debitAccountId = ['account is inactive'];
  if (!credit.is_active) inactive.creditAccountId = ['account is inactive'];
  if (Object.keys(inactive).length) throw new AppError('SVC-9003', inactive);

  const baseCurrency = debit.base_currency;
  const currency = (body.currencyCode ?? baseCurrency).toUpperCase();
  assertCurrency(currency);
  const amount = dec(body.amount);
  if (amount.decimalPlaces() > currencyDecimals(currency)) {
    throw new AppError('SVC-9003', { amount: [`must have at most ${currencyDecimals(currency)} decimals in ${currency}`] });
  }
  const exchangeRate = await documentRate(trx, orgId, currency, baseCurrency, body.transactionDate);
  const baseAmount = roundHalfUp(amount.mul(exchangeRate), currencyDecimals(baseCurrency));
  const [row] = await postJournalEntries(trx, orgId, [
    {
      transactionDate: body.transactionDate,
      description: body.description.trim() || body.description,
      notes: body.notes ?? null,
      debitAccountId: debit.id,
      creditAccountId: credit.id,
      amount: amount.toFixed(),
      currencyCode: currency,
      exchangeRate,
      baseAmount: baseAmount.toFixed(),
      referenceType: 'manual',
      referenceId: null,
      locked: false,
      createdBy: userId,
    },
  ]);
  return presentTransaction({ ...row, debit_code: debit.code, debit_name: debit.name, credit_code: credit.code, credit_name: credit.name }, baseCurrency);
}

/**
 * Reverses one manual posting (extension: POST /transactions/:id/reverse). Locked postings
 * belong to a document (invoice, expense) and are reversed by that document's cancellation.
 */
export async function reverseManualEntry(trx: Db, orgId: string, userId: string, baseCurrency: string, id: string, date?: string) {
  const posting = await repo.findPosting(trx, orgId, id);
  if (!posting) throw new AppError('SVC-9002');
  if (posting.locked) throw new AppError('SVC-9003', { id: ['a locked posting is reversed through its document'] });
  const reversal = await reversePosting(trx, orgId, id, userId, { transactionDate: date });
  return getTransaction(trx, orgId, baseCurrency, reversal.id);
}

import { randomUUID } from 'node:crypto';
import type { TransactionEnd } from '@app/shared/db/database';
import { type Dec, dec, roundHalfUp } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { assertCurrency, currencyDecimals, formatMoney } from '../currencies/currencies.js';
import { documentRate, formatRate } from '../exchange-rates/exchange-rates.service.js';
import * as repo from './ledger.repository.js';
import {
  type JournalEntryBody,
  type ManualEntryBody,
  TRANSACTION_SORTS,
  type TransactionsQuery,
} from './ledger.schemas.js';
import { reverseEntry, reversePosting } from './ledger.service.js';

type Db = Kysely<DB>;
/** A manual posting's input: the request body, or a bank line's amount as its decimal string. */
type ManualPostingInput = Omit<Static<typeof ManualEntryBody>, 'amount'> & { amount: number | string };

type Presentable = repo.LedgerRow & {
  debit_code: string;
  debit_name: string;
  credit_code: string;
  credit_name: string;
};

/** The spec's Transaction: amounts with their currency's decimals, the rate with 6 (A3). */
/**
 * The manual journal entry a posting belongs to: a several-line entry's id (its postings' and
 * their reversals' reference id), else the lone posting's own id (a reversal's: the posting it
 * reverses); null for a document's postings (invoice, expense, payment).
 */
function entryIdOf(t: Pick<Presentable, 'id' | 'reference_type' | 'reference_id' | 'reversal_of'>): string | null {
  if (t.reference_type !== 'manual') return null;
  return t.reference_id ?? t.reversal_of ?? t.id;
}

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
    entryId: entryIdOf(t),
    reversalOf: t.reversal_of,
    locked: t.locked,
    reconciled: t.reconciled,
    reconciledAt: t.reconciled_at ? t.reconciled_at.toISOString() : null,
    createdBy: t.created_by,
    createdAt: t.created_at.toISOString(),
  };
}

export async function listTransactions(scope: TenantScope, baseCurrency: string, q: Static<typeof TransactionsQuery>) {
  const page = pageRequest(q, TRANSACTION_SORTS, 'transactionDate');
  if (q.fromDate && q.toDate && q.fromDate > q.toDate)
    throw new AppError('SVC-9003', { fromDate: ['must not be after toDate'] });
  const { rows, total } = await scope.run((db) => repo.listTransactions(db, scope.orgId, q, page));
  return { data: rows.map((r) => presentTransaction(r, baseCurrency)), meta: pageMeta(total, page) };
}

export function getTransaction(scope: TenantScope, baseCurrency: string, id: string) {
  return scope.run((db) => readTransaction(db, scope.orgId, baseCurrency, id));
}

/** One posting as the API shows it, read with the handle the caller holds (inside its transaction). */
export async function readTransaction(db: Db, orgId: string, baseCurrency: string, id: string) {
  const { rows } = await repo.listTransactions(
    db,
    orgId,
    { id },
    { sort: 'transactionDate', order: 'desc', perPage: 1, offset: 0 },
  );
  if (!rows[0]) throw new AppError('SVC-9002');
  return presentTransaction(rows[0], baseCurrency);
}

/** 404 SVC-8001 for a missing account, 422 SVC-9003 for an inactive one (debit side first). */
function assertAccountsUsable(
  body: ManualPostingInput,
  accounts: ReadonlyArray<{ id: string; is_active: boolean }>,
): void {
  const debit = accounts.find((a) => a.id === body.debitAccountId);
  const credit = accounts.find((a) => a.id === body.creditAccountId);
  if (!debit) throw new AppError('SVC-8001', { debitAccountId: ['account not found'] });
  if (!credit) throw new AppError('SVC-8001', { creditAccountId: ['account not found'] });
  const inactive: Record<string, string[]> = {};
  if (!debit.is_active) inactive.debitAccountId = ['account is inactive'];
  if (!credit.is_active) inactive.creditAccountId = ['account is inactive'];
  if (Object.keys(inactive).length) throw new AppError('SVC-9003', inactive);
}

/** Currency, decimals and rate (A5) of the entry in `baseCurrency`. */
async function entryAmounts(trx: Db, orgId: string, baseCurrency: string, body: ManualPostingInput) {
  const currency = (body.currencyCode ?? baseCurrency).toUpperCase();
  assertCurrency(currency);
  const amount = dec(body.amount);
  if (amount.decimalPlaces() > currencyDecimals(currency)) {
    throw new AppError('SVC-9003', {
      amount: [`must have at most ${currencyDecimals(currency)} decimals in ${currency}`],
    });
  }
  const exchangeRate = await documentRate(trx, orgId, currency, baseCurrency, body.transactionDate);
  const baseAmount = roundHalfUp(amount.mul(exchangeRate), currencyDecimals(baseCurrency));
  return { currency, amount: amount.toFixed(), exchangeRate, baseAmount: baseAmount.toFixed() };
}

/**
 * A manual journal entry (A8): referenceType manual, not locked, rate as A5 on transactionDate.
 * 422 SVC-9003 for the same account on both sides, an inactive account, an unknown currency,
 * more decimals than the currency has, or no rate; 404 SVC-8001 for an unknown account.
 *
 * The account check, the posting and the running totals are one statement that ends the
 * transaction (COMMIT travels with it), so a base-currency entry costs one round trip after the
 * principal. `baseCurrency` is the caller's view of the organization's; the statement re-checks
 * it under lock, and an entry that finds it changed runs again, in a new transaction, with the
 * new one.
 */
export async function createManualEntry(
  scope: TenantScope,
  userId: string,
  baseCurrency: string,
  body: Static<typeof ManualEntryBody>,
) {
  if (body.debitAccountId === body.creditAccountId) {
    throw new AppError('SVC-9003', { creditAccountId: ['must differ from debitAccountId'] });
  }
  let base = baseCurrency;
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await scope.transaction((trx, end) => postManualEntry(trx, end, scope.orgId, userId, base, body));
    if (outcome.posted) return outcome.posted;
    base = outcome.baseCurrency;
  }
  throw new Error('the organization base currency kept changing during one entry');
}

export type EntryOutcome =
  | { posted: ReturnType<typeof presentTransaction> }
  | { posted?: undefined; baseCurrency: string };

async function postManualEntry(
  trx: Db,
  end: TransactionEnd,
  orgId: string,
  userId: string,
  base: string,
  body: Static<typeof ManualEntryBody>,
): Promise<EntryOutcome> {
  const amounts = await checkedAmounts(trx, orgId, base, body);
  // The posting ends the transaction (its COMMIT in the same round trip).
  const rows = await end.commitWith(() =>
    repo.insertManualPosting(trx, orgId, base, manualPosting(body, amounts, userId)),
  );
  return postedOrChanged(rows, body, base);
}

/**
 * A manual posting inside the caller's transaction, with POST /transactions' checks (a bank line's
 * "post and match"). `{ baseCurrency }`: the organization's base currency changed since `base` was
 * read and nothing was written; the caller runs again with it.
 */
export async function postManualPosting(
  trx: Db,
  orgId: string,
  userId: string,
  base: string,
  body: ManualPostingInput,
): Promise<EntryOutcome> {
  if (body.debitAccountId === body.creditAccountId) {
    throw new AppError('SVC-9003', { creditAccountId: ['must differ from debitAccountId'] });
  }
  const amounts = await checkedAmounts(trx, orgId, base, body);
  return postedOrChanged(
    await repo.insertManualPosting(trx, orgId, base, manualPosting(body, amounts, userId)),
    body,
    base,
  );
}

/** The entry's amounts; a missing or inactive account is reported before a currency problem. */
async function checkedAmounts(trx: Db, orgId: string, base: string, body: ManualPostingInput) {
  try {
    return await entryAmounts(trx, orgId, base, body);
  } catch (err) {
    assertAccountsUsable(body, await repo.accountsForPosting(trx, orgId, [body.debitAccountId, body.creditAccountId]));
    throw err;
  }
}

function manualPosting(body: ManualPostingInput, amounts: Awaited<ReturnType<typeof entryAmounts>>, userId: string) {
  return {
    transactionDate: body.transactionDate,
    description: body.description.trim() || body.description,
    notes: body.notes ?? null,
    debitAccountId: body.debitAccountId,
    creditAccountId: body.creditAccountId,
    amount: amounts.amount,
    currencyCode: amounts.currency,
    exchangeRate: amounts.exchangeRate,
    baseAmount: amounts.baseAmount,
    createdBy: userId,
    entryId: null,
  };
}

/** The inserted posting as presented, or (both accounts usable, no posting) the base currency found. */
function postedOrChanged(
  rows: Awaited<ReturnType<typeof repo.insertManualPosting>>,
  body: ManualPostingInput,
  base: string,
): EntryOutcome {
  const debit = rows.find((r) => r.account_id === body.debitAccountId);
  const credit = rows.find((r) => r.account_id === body.creditAccountId);
  const row = rows[0];
  const posting = row?.posting;
  if (posting && debit && credit) {
    return {
      posted: presentTransaction(
        {
          ...posting,
          reconciled_at: null,
          created_at: new Date(posting.created_at),
          amount_key: null,
          debit_code: debit.account_code,
          debit_name: debit.account_name,
          credit_code: credit.account_code,
          credit_name: credit.account_name,
        },
        base,
      ),
    };
  }
  assertAccountsUsable(
    body,
    rows.map((r) => ({ id: r.account_id, is_active: r.account_active })),
  );
  // Both accounts are usable, so the base currency changed since the principal was read.
  return { baseCurrency: row.account_base_currency };
}

/**
 * Reverses one manual posting (extension: POST /transactions/:id/reverse). Locked postings
 * belong to a document (invoice, expense) and are reversed by that document's cancellation; a
 * posting of a journal entry of several postings is reversed with its entry (422 SVC-9003).
 */
export function reverseManualEntry(
  scope: TenantScope,
  userId: string,
  baseCurrency: string,
  id: string,
  date?: string,
) {
  const orgId = scope.orgId;
  return scope.transaction(async (trx) => {
    const posting = await repo.findPosting(trx, orgId, id);
    if (!posting) throw new AppError('SVC-9002');
    if (posting.locked) throw new AppError('SVC-9003', { id: ['a locked posting is reversed through its document'] });
    // One posting of a several-line entry reversed alone would leave half an entry in the books (a
    // salary without its tax): the entry is reversed whole (POST /transactions/entries/:id/reverse).
    if (posting.reference_type === 'manual' && posting.reference_id !== null) {
      if ((await repo.entryPostingCount(trx, orgId, posting.reference_id)) > 1)
        throw new AppError('SVC-9003', { id: ['a posting of a journal entry is reversed with its entry'] });
    }
    const reversal = await reversePosting(trx, orgId, id, userId, { transactionDate: date });
    return readTransaction(trx, orgId, baseCurrency, reversal.id);
  });
}

export interface JournalPair {
  debitAccountId: string;
  creditAccountId: string;
  amount: Dec;
}

/**
 * The lines of a journal entry checked (422 SVC-9003, details per line: an amount on exactly one
 * side, at most the currency's decimals, no account on both sides, debits equal to credits) and
 * turned into the A8 postings that settle the debits against the credits in line order.
 */
export function journalPairs(lines: Static<typeof JournalEntryBody>['lines'], currency: string): JournalPair[] {
  const details: Record<string, string[]> = {};
  const places = currencyDecimals(currency);
  const debits: Array<{ id: string; left: Dec }> = [];
  const credits: Array<{ id: string; left: Dec }> = [];
  lines.forEach((line, i) => {
    const debit = dec(line.debit ?? 0);
    const credit = dec(line.credit ?? 0);
    if (debit.gt(0) === credit.gt(0)) {
      details[`lines[${i}]`] = ['needs an amount above zero on exactly one side, debit or credit'];
      return;
    }
    const amount = debit.gt(0) ? debit : credit;
    if (amount.decimalPlaces() > places) {
      details[`lines[${i}].${debit.gt(0) ? 'debit' : 'credit'}`] = [
        `must have at most ${places} decimals in ${currency}`,
      ];
      return;
    }
    (debit.gt(0) ? debits : credits).push({ id: line.accountId, left: amount });
  });
  const debitIds = new Set(debits.map((d) => d.id));
  lines.forEach((line, i) => {
    if (dec(line.credit ?? 0).gt(0) && debitIds.has(line.accountId))
      details[`lines[${i}].accountId`] = ['is on both the debit and the credit side of the entry'];
  });
  if (Object.keys(details).length) throw new AppError('SVC-9003', details);
  const total = (xs: Array<{ left: Dec }>) => xs.reduce((s, x) => s.plus(x.left), dec(0));
  const debitTotal = total(debits);
  const creditTotal = total(credits);
  if (debits.length === 0 || credits.length === 0 || !debitTotal.eq(creditTotal)) {
    throw new AppError('SVC-9003', {
      lines: [`debits (${debitTotal.toFixed()}) and credits (${creditTotal.toFixed()}) must be equal and above zero`],
    });
  }
  const pairs: JournalPair[] = [];
  let i = 0;
  let j = 0;
  while (i < debits.length && j < credits.length) {
    const amount = debits[i].left.lt(credits[j].left) ? debits[i].left : credits[j].left;
    pairs.push({ debitAccountId: debits[i].id, creditAccountId: credits[j].id, amount });
    debits[i].left = debits[i].left.minus(amount);
    credits[j].left = credits[j].left.minus(amount);
    if (debits[i].left.isZero()) i++;
    if (credits[j].left.isZero()) j++;
  }
  return pairs;
}

/** Thrown inside the entry's transaction (rolling it back) when the base currency changed under it. */
class BaseCurrencyChanged extends Error {
  constructor(readonly baseCurrency: string) {
    super('base currency changed');
  }
}

/**
 * POST /transactions/entries: a balanced entry of several lines, saved whole or not at all. The
 * lines are checked first (journalPairs), then every account (404 SVC-8001 or 422 SVC-9003 with
 * `lines[i].accountId`), then each posting is inserted as a manual entry is (same statement, same
 * locks) inside one database transaction: a refusal or failure of any posting leaves none.
 */
export async function createJournalEntry(
  scope: TenantScope,
  userId: string,
  baseCurrency: string,
  body: Static<typeof JournalEntryBody>,
) {
  let base = baseCurrency;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await scope.transaction((trx) => postJournalEntry(trx, scope.orgId, userId, base, body));
    } catch (err) {
      if (!(err instanceof BaseCurrencyChanged)) throw err;
      base = err.baseCurrency;
    }
  }
  throw new Error('the organization base currency kept changing during one entry');
}

async function postJournalEntry(
  trx: Db,
  orgId: string,
  userId: string,
  base: string,
  body: Static<typeof JournalEntryBody>,
) {
  const currency = (body.currencyCode ?? base).toUpperCase();
  assertCurrency(currency);
  const pairs = journalPairs(body.lines, currency);
  const ids = [...new Set(body.lines.map((l) => l.accountId))];
  const found = await repo.accountsForPosting(trx, orgId, ids);
  const missing: Record<string, string[]> = {};
  const inactive: Record<string, string[]> = {};
  body.lines.forEach((line, i) => {
    const account = found.find((a) => a.id === line.accountId);
    if (!account) missing[`lines[${i}].accountId`] = ['account not found'];
    else if (!account.is_active) inactive[`lines[${i}].accountId`] = ['account is inactive'];
  });
  if (Object.keys(missing).length) throw new AppError('SVC-8001', missing);
  if (Object.keys(inactive).length) throw new AppError('SVC-9003', inactive);
  const exchangeRate = await documentRate(trx, orgId, currency, base, body.transactionDate);
  const description = body.description.trim() || body.description;
  // The entry's id, carried by each of its postings as their reference id: read and reversed whole.
  const entryId = randomUUID();
  const posted: Array<ReturnType<typeof presentTransaction>> = [];
  for (const pair of pairs) {
    const rows = await repo.insertManualPosting(trx, orgId, base, {
      transactionDate: body.transactionDate,
      description,
      notes: body.notes ?? null,
      debitAccountId: pair.debitAccountId,
      creditAccountId: pair.creditAccountId,
      amount: pair.amount.toFixed(),
      currencyCode: currency,
      exchangeRate,
      baseAmount: roundHalfUp(pair.amount.mul(exchangeRate), currencyDecimals(base)).toFixed(),
      createdBy: userId,
      entryId,
    });
    const debit = rows.find((r) => r.account_id === pair.debitAccountId);
    const credit = rows.find((r) => r.account_id === pair.creditAccountId);
    const posting = rows[0]?.posting;
    // The accounts were checked under the same lock: no posting means the base currency changed.
    if (!posting || !debit || !credit) throw new BaseCurrencyChanged(rows[0]?.account_base_currency ?? base);
    posted.push(
      presentTransaction(
        {
          ...posting,
          reconciled_at: null,
          created_at: new Date(posting.created_at),
          amount_key: null,
          debit_code: debit.account_code,
          debit_name: debit.account_name,
          credit_code: credit.account_code,
          credit_name: credit.account_name,
        },
        base,
      ),
    );
  }
  return { entryId, data: posted };
}

/** GET /transactions/entries/:id: a manual journal entry's postings and their reversals, oldest first. */
export async function getJournalEntry(scope: TenantScope, baseCurrency: string, entryId: string) {
  const data = await scope.run((db) => readJournalEntry(db, scope.orgId, baseCurrency, entryId));
  if (data.length === 0) throw new AppError('SVC-9002');
  return { entryId, data };
}

async function readJournalEntry(db: Db, orgId: string, baseCurrency: string, entryId: string) {
  const { rows } = await repo.listTransactions(
    db,
    orgId,
    { entryId },
    { sort: 'createdAt', order: 'asc', perPage: 200, offset: 0 },
  );
  return rows.map((r) => presentTransaction(r, baseCurrency));
}

/**
 * POST /transactions/entries/:id/reverse: reverses every posting of the entry not reversed yet, in
 * one transaction (each posting's reversal swaps its sides; a posting reversed on its own before is
 * left). 404 SVC-9002 for no such entry; 422 SVC-9003 when nothing is left to reverse.
 */
export function reverseJournalEntry(
  scope: TenantScope,
  userId: string,
  baseCurrency: string,
  entryId: string,
  date?: string,
) {
  const orgId = scope.orgId;
  return scope.transaction(async (trx) => {
    const reversals = await reverseEntry(trx, orgId, entryId, userId, { transactionDate: date });
    if (reversals.length === 0) {
      const entry = await readJournalEntry(trx, orgId, baseCurrency, entryId);
      if (entry.length === 0) throw new AppError('SVC-9002');
      throw new AppError('SVC-9003', { id: ['the entry is already reversed'] });
    }
    const ids = new Set(reversals.map((r) => r.id));
    const data = (await readJournalEntry(trx, orgId, baseCurrency, entryId)).filter((t) => ids.has(t.id));
    return { entryId, data };
  });
}

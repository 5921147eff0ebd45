import type { ChartAccount } from './reports.repository.js';

/**
 * Report groups by code range (A7): the number the code starts with, cut to its first four digits
 * so that sub-accounts ("12001", "1200.01") fall in their parent's range. Codes that do not start
 * with a digit belong to no range.
 */
export function codeNumber(code: string): number | null {
  const m = /^\d+/.exec(code);
  return m ? Number(m[0].slice(0, 4)) : null;
}

const inRange = (code: string, lo: number, hi: number) => {
  const n = codeNumber(code);
  return n !== null && n >= lo && n <= hi;
};

export const ASSET = 1;
export const LIABILITY = 2;
export const EQUITY = 3;
export const REVENUE = 4;
export const EXPENSE = 5;

/** Asset accounts 1500-1999; every other asset account is current (1000-1499 and uncoded ones). */
export const isFixedAsset = (a: Pick<ChartAccount, 'code' | 'account_type_id'>) =>
  a.account_type_id === ASSET && inRange(a.code, 1500, 1999);
/** Liability accounts 2500-2999; every other liability is current. */
export const isLongTermLiability = (a: Pick<ChartAccount, 'code' | 'account_type_id'>) =>
  a.account_type_id === LIABILITY && inRange(a.code, 2500, 2999);

/**
 * Cash and bank ledger accounts (A16 cash-flow): asset accounts 1000-1199 and every account a
 * bank account is booked on.
 */
export function cashAccountIds(accounts: ChartAccount[], bankLedgerIds: ReadonlySet<string>): Set<string> {
  return new Set(
    accounts
      .filter((a) => (a.account_type_id === ASSET && inRange(a.code, 1000, 1199)) || bankLedgerIds.has(a.id))
      .map((a) => a.id),
  );
}

export type CashFlowActivity = 'operating' | 'investing' | 'financing';

/** Classifies a cash movement by the other account of its posting (A16). */
export function activityOf(counter: Pick<ChartAccount, 'code' | 'account_type_id'>): CashFlowActivity {
  if (isFixedAsset(counter)) return 'investing';
  if (isLongTermLiability(counter) || counter.account_type_id === EQUITY) return 'financing';
  return 'operating';
}

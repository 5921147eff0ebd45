import { dec } from '@app/shared/money';
import { AppError } from '../../lib/errors.js';
import type { TenantTx } from '../../plugins/auth.js';
import { currencyDecimals } from '../currencies/currencies.js';
import * as repo from './banking.repository.js';
import { parseStatement } from './statement-csv.js';

/** Rows per INSERT: large enough to amortise the round trip, small enough for one parameter set. */
const BATCH = 5000;
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;

export type RunTx = <T>(fn: (trx: TenantTx) => Promise<T>) => Promise<T>;

/**
 * POST /bank-accounts/:id/import (A14): the CSV is parsed while it streams in (no database work
 * meanwhile), then every accepted row is written in one transaction, in batches, so a failed
 * import leaves nothing. Duplicates: the n-th row with a given (date, amount, description,
 * reference) in this file is a duplicate when the account already has an n-th such row; the
 * database's unique key decides, so overlapping re-imports and concurrent imports are safe and
 * two identical payments in one file stay two.
 */
export async function importStatement(runTx: RunTx, orgId: string, bank: { id: string; currency_code: string }, file: AsyncIterable<Buffer>) {
  const rows = await parseStatement(file, currencyDecimals(bank.currency_code));
  const accepted = rows.dates.length;
  if (accepted === 0) {
    const details = { errors: rows.errors.slice(0, 20).map((e) => `line ${e.line}: ${e.error}`) };
    throw new AppError(rows.dateErrors > 0 ? 'SVC-5008' : 'SVC-5006', details);
  }
  const occurrences = new Array<number>(accepted);
  const seen = new Map<string, number>();
  for (let i = 0; i < accepted; i++) {
    const key = `${rows.dates[i]}\u0000${rows.amounts[i]}\u0000${rows.descriptions[i]}\u0000${rows.references[i]}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    occurrences[i] = n;
  }
  seen.clear();
  const imported = await runTx(async (trx) => {
    let inserted = 0;
    let total = dec(0);
    for (let start = 0; start < accepted; start += BATCH) {
      const end = Math.min(start + BATCH, accepted);
      const r = await repo.insertStatementBatch(trx, orgId, bank.id, {
        dates: rows.dates.slice(start, end),
        amounts: rows.amounts.slice(start, end),
        descriptions: rows.descriptions.slice(start, end),
        references: rows.references.slice(start, end),
        occurrences: occurrences.slice(start, end),
      });
      inserted += r.inserted;
      total = total.plus(r.total);
    }
    if (inserted > 0) await repo.addToBalance(trx, orgId, bank.id, total.toFixed());
    return inserted;
  });
  return { imported, duplicates: accepted - imported, errors: rows.errors };
}

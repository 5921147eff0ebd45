import { dec } from '@app/shared/money';
import type { TenantScope } from '../../db/tenant-scope.js';
import { AppError } from '../../lib/errors.js';
import { currencyDecimals } from '../currencies/currencies.js';
import * as repo from './banking.repository.js';
import { drain, readUpload, type StatementBatch, type StatementSummary, statementBatches } from './statement-csv.js';

/** Rows per INSERT: large enough to amortise the round trip, small enough for one parameter set. */
const BATCH = 5000;
export const STATEMENT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * POST /bank-accounts/:id/import (A14). The upload is read whole first, as raw bytes (at most 5 MB:
 * a larger file is refused before any database work, and no connection is held while a client
 * uploads). Then one transaction: the bytes are parsed as a stream and the accepted rows written
 * in batches as they come, batch k inserted while batch k+1 is parsed, so the parsed rows are never
 * held whole. A failure anywhere (a database error, or a whole-file error found after some batches
 * were written, such as broken quoting at the end) rolls the transaction back and leaves nothing.
 * A file whose rows are all refused is answered before the transaction opens.
 *
 * Duplicates: the n-th row with a given (date, amount, description, reference) in this file is a
 * duplicate when the account already has an n-th such row; the database's unique key decides, so
 * overlapping re-imports and concurrent imports are safe and two identical payments in one file
 * stay two.
 */
export async function importStatement(
  scope: TenantScope,
  bank: { id: string; currency_code: string },
  file: AsyncIterable<Buffer>,
) {
  const chunks = await readUpload(file);
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  const batches = statementBatches(drain(chunks), currencyDecimals(bank.currency_code), BATCH, bytes);
  try {
    const firstBatch = await batches.next();
    if (firstBatch.done) throw nothingAccepted(firstBatch.value);
    let summary: StatementSummary | undefined;
    const orgId = scope.orgId;
    const imported = await scope.transaction(async (trx) => {
      let inserted = 0;
      let total = dec(0);
      // One insert in flight on the transaction's connection while the next batch is parsed.
      let writing: Promise<void> | null = null;
      const write = (b: StatementBatch) => {
        const p = repo.insertStatementBatch(trx, orgId, bank.id, b).then((r) => {
          inserted += r.inserted;
          total = total.plus(r.total);
        });
        p.catch(() => {}); // observed below, when the next batch is ready or at the end
        return p;
      };
      try {
        let next: IteratorResult<StatementBatch, StatementSummary> = firstBatch;
        while (!next.done) {
          const batch = next.value;
          if (writing) await writing;
          writing = write(batch);
          next = await batches.next();
        }
        summary = next.value;
        await writing;
        writing = null;
      } finally {
        // A parse error with an insert in flight: let it settle before the transaction rolls back.
        if (writing) await writing.catch(() => {});
      }
      if (inserted > 0) await repo.addToBalance(trx, orgId, bank.id, total.toFixed());
      return inserted;
    });
    const { accepted, errors } = summary!;
    return { imported, duplicates: accepted - imported, errors };
  } finally {
    // Stops the parser when the import ended early (a database error); a no-op after the last batch.
    await batches.return(undefined as never);
  }
}

function nothingAccepted(s: StatementSummary) {
  const details = { errors: s.errors.slice(0, 20).map((e) => `line ${e.line}: ${e.error}`) };
  return new AppError(s.dateErrors > 0 ? 'SVC-5008' : 'SVC-5006', details);
}

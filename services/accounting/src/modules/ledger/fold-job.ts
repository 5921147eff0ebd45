import type { Database } from '@app/shared/db/database';
import type { Job } from '@app/shared/scheduler';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { foldLedgerMoves } from './ledger.repository.js';

/** Moves per statement: bounds one fold's transaction (and its row locks) after a long pause. */
const BATCH = 20_000;
// Any constant shared by every instance; the transaction-level lock is released at commit.
const LOCK_KEY = 9_2026_1127;

/**
 * Folds the postings' moves into the running totals and the day and month sums (migration
 * 20261127000200, ledger.repository.ts foldLedgerMoves), a batch per transaction until none is
 * left. One instance at a time (G12: a transaction-level advisory lock; `wait` queues behind the
 * instance holding it instead of skipping, for callers that need everything folded when it
 * returns). Reads never depend on it: they add the moves not folded yet. Returns the moves folded.
 */
export async function runFoldJob(db: Database<DB>, opts: { wait?: boolean } = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.system.transaction().execute(async (trx) => {
      if (opts.wait) {
        await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
      } else {
        const { rows } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${LOCK_KEY}) AS ok`.execute(trx);
        if (!rows[0]?.ok) return 0;
      }
      return foldLedgerMoves(trx, BATCH);
    });
    total += n;
    if (n < BATCH) return total;
  }
}

/** The job buildApp schedules (LEDGER_FOLD_INTERVAL, default every second). */
export function ledgerFoldJob(db: Database<DB>, log: FastifyBaseLogger, everyMs: number): Job {
  return {
    name: 'ledger-fold',
    intervalMs: everyMs,
    runOnStart: true,
    run: () => runFoldJob(db).catch((err) => log.error({ err }, 'ledger fold failed')),
  };
}

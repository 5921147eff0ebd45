import type { Database } from '@app/shared/db/database';
import type { Job } from '@app/shared/scheduler';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { todayIso } from './invoice-status.js';
import { markOverdueBatch } from './invoices.repository.js';

const BATCH = 500;
const HOUR = 3_600_000;
// Any constant shared by every instance; the transaction-level lock is released at commit.
const LOCK_KEY = 4_2026_1121;

/**
 * Moves sent and viewed invoices past their due date to overdue (A10). Safe with several
 * instances (G12): one transaction-level advisory lock lets one instance run the pass, and each
 * batch claims rows with FOR UPDATE SKIP LOCKED, so rows a user is transitioning are skipped and
 * picked up next time. Reads never depend on it (they derive the status), it only persists it.
 * A background job, not a request: it runs as the system role across organizations and opens its
 * own transaction on db.system (requests go through a TenantScope; see db/tenant-scope.ts).
 */
export async function runOverdueJob(db: Database<DB>, today = todayIso()): Promise<number> {
  return db.system.transaction().execute(async (trx) => {
    const { rows } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${LOCK_KEY}) AS ok`.execute(trx);
    if (!rows[0]?.ok) return 0;
    let total = 0;
    for (;;) {
      const n = await markOverdueBatch(trx, today, BATCH);
      total += n;
      if (n < BATCH) return total;
    }
  });
}

/** The job buildApp schedules: at start-up and then hourly (A10). */
export function overdueInvoicesJob(db: Database<DB>, log: FastifyBaseLogger, everyMs = HOUR): Job {
  return {
    name: 'overdue-invoices',
    intervalMs: everyMs,
    runOnStart: true,
    run: () =>
      runOverdueJob(db)
        .then((n) => n > 0 && log.info({ invoices: n }, 'invoices marked overdue'))
        .catch((err) => log.error({ err }, 'overdue job failed')),
  };
}

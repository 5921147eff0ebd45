import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';

/** Whether a rate feed has recorded `day` as done in job_runs. */
export async function feedDayDone(db: Kysely<DB>, job: string, day: string): Promise<boolean> {
  const row = await db
    .selectFrom('job_runs')
    .select('job')
    .where('job', '=', job)
    .where('run_date', '=', day)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Claims a feed's day inside the writing transaction (G12): a transaction-scoped advisory lock, so
 * one instance writes at a time, then the day's record. Null when the day is this caller's to do.
 */
export async function claimFeedDay(trx: Kysely<DB>, job: string, day: string): Promise<'busy' | 'already-done' | null> {
  const lock = await sql<{
    ok: boolean;
  }>`SELECT pg_try_advisory_xact_lock(hashtext(${`accounting:${job}`})) AS ok`.execute(trx);
  if (!lock.rows[0]?.ok) return 'busy';
  return (await feedDayDone(trx, job, day)) ? 'already-done' : null;
}

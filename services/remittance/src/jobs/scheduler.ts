import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.js';

/** Advisory lock keys of the jobs (G12). */
export const JOB_LOCKS = { consentExpiry: 5_100_001, ratesRefresh: 5_100_002, balanceSync: 5_100_003, idempotencyCleanup: 5_100_004 } as const;

/**
 * Runs `work` only where this instance wins the job's advisory lock for the duration of the
 * job, so several instances never run the same job at once (undefined when another holds it).
 * The work itself runs on other pool connections. An embedded PGlite database belongs to one
 * process, so there is nobody to race with (and its single connection cannot be held).
 */
export async function runExclusive<T>(db: Kysely<DB>, kind: 'postgres' | 'pglite', key: number, work: () => Promise<T>): Promise<T | undefined> {
  if (kind === 'pglite') return work();
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(conn);
    if (!rows[0]?.locked) return undefined;
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

export interface Job {
  name: string;
  intervalMs: number;
  runOnStart: boolean;
  run(): Promise<unknown>;
}

/** Interval timers for background jobs; stop() clears them and waits for a running job. */
export class Scheduler {
  private timers: NodeJS.Timeout[] = [];
  private jobs: Job[] = [];
  private running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  add(job: Job): void {
    if (job.intervalMs > 0) this.jobs.push(job);
  }

  start(): void {
    for (const job of this.jobs) this.startJob(job);
  }

  private startJob(job: Job): void {
    const tick = () => {
      if (this.stopped) return;
      const p = job
        .run()
        .catch((err) => this.log.warn({ err, job: job.name }, 'background job failed'))
        .finally(() => this.running.delete(p));
      this.running.add(p);
    };
    const timer = setInterval(tick, job.intervalMs);
    timer.unref();
    this.timers.push(timer);
    if (job.runOnStart) setImmediate(tick);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await Promise.allSettled([...this.running]);
  }
}

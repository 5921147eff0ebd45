import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';

/**
 * Runs `work` only where this instance wins the job's advisory lock for the duration of the
 * job, so several instances never run the same job at once (G12); undefined when another
 * instance holds it. The work itself runs on other pool connections. An embedded PGlite
 * database belongs to one process, so there is nobody to race with (and its single connection
 * cannot be held). Jobs that do all their work in one transaction may instead take
 * `pg_try_advisory_xact_lock` inside it, which works on both databases.
 */
export async function runExclusive<T, DB>(
  db: Kysely<DB>,
  kind: 'postgres' | 'pglite',
  key: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  if (kind === 'pglite') return work();
  const release = await lockSlot(db);
  try {
    return await db.connection().execute(async (conn) => {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(conn);
      if (!rows[0]?.locked) return undefined;
      try {
        return await work();
      } finally {
        await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
      }
    });
  } finally {
    release();
  }
}

/**
 * How many jobs of one instance may hold a job lock at once. Each holds a pool connection for
 * its lock while its work takes others, so as many jobs as the pool has connections, started
 * together (every job runs on start), would hold them all and wait for ever for one to work on
 * (seen with five accounting jobs on a pool of four). Two at a time keep half of the smallest
 * pool we run (4) for the work and the requests; the others wait their turn (the scheduler
 * skips a job's tick while it waits, so nothing piles up).
 */
export const JOB_LOCK_SLOTS = 2;

const slots = new WeakMap<object, { held: number; waiting: (() => void)[] }>();

async function lockSlot(db: object): Promise<() => void> {
  let s = slots.get(db);
  if (!s) {
    s = { held: 0, waiting: [] };
    slots.set(db, s);
  }
  const state = s;
  if (state.held >= JOB_LOCK_SLOTS) await new Promise<void>((resolve) => state.waiting.push(resolve));
  else state.held += 1;
  return () => {
    const next = state.waiting.shift();
    // The slot passes straight to the next waiter (held stays), or is given back.
    if (next) next();
    else state.held -= 1;
  };
}

export interface Job {
  name: string;
  /** 0 or less: the job is not scheduled at all (tests and switched-off features). */
  intervalMs: number;
  /** Run once as soon as the app is ready, then every interval. */
  runOnStart: boolean;
  /** Never throws out of the scheduler: a failure is logged and the next tick tries again. */
  run(): Promise<unknown>;
}

/**
 * Interval timers for a service's background jobs. A job never overlaps itself on one instance
 * (a tick while it still runs is skipped); across instances each job claims its work with an
 * advisory lock or FOR UPDATE SKIP LOCKED (G12). stop() clears the timers and waits for running
 * jobs.
 */
export class Scheduler {
  private timers: NodeJS.Timeout[] = [];
  private jobs: Job[] = [];
  private running = new Map<string, Promise<unknown>>();
  private stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  add(job: Job): void {
    if (job.intervalMs > 0) this.jobs.push(job);
  }

  /** The names of the scheduled jobs, in the order they were added. */
  get names(): string[] {
    return this.jobs.map((j) => j.name);
  }

  start(): void {
    for (const job of this.jobs) this.startJob(job);
  }

  private startJob(job: Job): void {
    const tick = () => {
      if (this.stopped || this.running.has(job.name)) return;
      const p = job
        .run()
        .catch((err) => this.log.warn({ err, job: job.name }, 'background job failed'))
        .finally(() => this.running.delete(job.name));
      this.running.set(job.name, p);
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
    await Promise.allSettled([...this.running.values()]);
  }
}

/** A scheduler whose jobs start when the app is ready and stop (awaited) when it closes. */
export function createScheduler(app: FastifyInstance): Scheduler {
  const scheduler = new Scheduler(app.log);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());
  return scheduler;
}

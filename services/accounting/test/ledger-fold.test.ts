import type { Database } from '@app/shared/db/database';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import { ledgerFoldJob, runFoldJob } from '../src/modules/ledger/fold-job.js';
import { buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { accountIds, manualEntry } from './reports-fixtures.js';

/**
 * The fold job itself (fold-job.ts; its mutation run, docs/testing.md): what it answers, its
 * batches, its lock and the job it schedules. ledger-moves.test.ts checks the figures it leaves.
 */
let h: TestApp;
let s: Session;
let ids: Record<string, string>;
beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
  ids = await accountIds(h.app, s);
});
afterAll(() => h?.close());

async function moveCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_moves`.execute(h.t.db.system);
  return rows[0].n;
}

async function debitTotal(code: string): Promise<string | undefined> {
  const row = await h.t.db.system
    .selectFrom('account_balances')
    .select('debit_total')
    .where('account_id', '=', ids[code])
    .executeTakeFirst();
  return row?.debit_total;
}

describe('runFoldJob', () => {
  it('answers the number of moves it folded (one per posting), then 0 when none is left', async () => {
    await runFoldJob(h.t.db, { wait: true });
    await manualEntry(h.app, s, ids, '2026-05-01', '1000', '3000', 10);
    await manualEntry(h.app, s, ids, '2026-05-02', '1000', '3000', 15);
    expect(await moveCount()).toBe(2);
    expect(await runFoldJob(h.t.db)).toBe(2);
    expect(await moveCount()).toBe(0);
    expect(await runFoldJob(h.t.db, { wait: true })).toBe(0);
    expect(await debitTotal('1000')).toBe('25.0000');
  });

  it('folds more moves than one batch holds (20,000) in several batches, all of them', async () => {
    // 20,001 postings: 20,001 moves, one full batch and one more.
    await sql`
      INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
        amount, currency_code, exchange_rate, base_amount, reference_type, locked)
      SELECT ${s.orgId}, '2026-06-01', 'bulk', ${ids['1100']}, ${ids['4000']}, 1, 'EUR', 1, 1, 'manual', false
      FROM generate_series(1, 20001)`.execute(h.t.db.system);
    expect(await moveCount()).toBe(20_001);
    expect(await runFoldJob(h.t.db)).toBe(20_001);
    expect(await moveCount()).toBe(0);
    expect(await debitTotal('1100')).toBe('20001.0000');
  }, 120_000);
});

describe('ledgerFoldJob', () => {
  it('is the job "ledger-fold", run at start and every interval, and folds the pending moves', async () => {
    const errors: unknown[] = [];
    const log = { error: (...args: unknown[]) => errors.push(args) } as unknown as FastifyBaseLogger;
    const job = ledgerFoldJob(h.t.db, log, 1234);
    expect({ name: job.name, intervalMs: job.intervalMs, runOnStart: job.runOnStart }).toEqual({
      name: 'ledger-fold',
      intervalMs: 1234,
      runOnStart: true,
    });
    await manualEntry(h.app, s, ids, '2026-07-01', '1000', '3000', 1);
    expect(await moveCount()).toBe(1);
    await job.run();
    expect(await moveCount()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('logs a failed fold and does not throw (the scheduler keeps running)', async () => {
    const errors: Array<[unknown, string]> = [];
    const log = { error: (obj: unknown, msg: string) => errors.push([obj, msg]) } as unknown as FastifyBaseLogger;
    const broken = {
      system: {
        transaction: () => ({
          execute: async () => {
            throw new Error('database gone');
          },
        }),
      },
    } as unknown as Database<DB>;
    // Resolves (a rejection here would fail the test): the error goes to the log.
    await ledgerFoldJob(broken, log, 1000).run();
    expect(errors).toEqual([[{ err: expect.objectContaining({ message: 'database gone' }) }, 'ledger fold failed']]);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('runFoldJob on PostgreSQL: one instance at a time', () => {
  it('skips (answers 0, folds nothing) while another instance holds the lock, and with `wait` folds once it is free', async () => {
    await manualEntry(h.app, s, ids, '2026-08-01', '1000', '3000', 3);
    const other = new pg.Client({ connectionString: h.t.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [920261127]);
      expect(await runFoldJob(h.t.db)).toBe(0);
      expect(await moveCount()).toBe(1);
      let done = false;
      const waiting = runFoldJob(h.t.db, { wait: true }).then((n) => {
        done = true;
        return n;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(done).toBe(false);
      await other.query('COMMIT');
      expect(await waiting).toBe(1);
    } finally {
      await other.end();
    }
    expect(await moveCount()).toBe(0);
  });
});

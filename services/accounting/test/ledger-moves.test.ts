import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFoldJob } from '../src/modules/ledger/fold-job.js';
import { authed, buildTestApp, foldLedger, registerOrg, type Session, type TestApp } from './helpers.js';
import { accountIds, manualEntry, report } from './reports-fixtures.js';

// Postings append themselves to ledger_moves, one row for both sides (a trigger); a job folds them into the running
// totals and the day and month sums (migration 20261127000200). Every figure must be the same
// whether a posting's moves are pending, folded, or some of each.
let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
});
afterAll(() => h?.close());

/** Every figure the API shows that comes from the totals or the sums. */
async function figures(s: Session) {
  const accounts = (await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/accounts' }))).json()
    .data as Array<{ code: string; currentBalance: string }>;
  return {
    balances: Object.fromEntries(accounts.map((a) => [a.code, a.currentBalance])),
    trial: await report(h.app, s, 'trial-balance?date=2026-12-31'),
    trialMarch: await report(h.app, s, 'trial-balance?date=2026-03-15'),
    sheet: await report(h.app, s, 'balance-sheet?date=2026-12-31'),
    profit: await report(h.app, s, 'profit-loss?from=2026-01-01&to=2026-12-31'),
    profitFeb: await report(h.app, s, 'profit-loss?from=2026-02-10&to=2026-03-20'),
    cash: await report(h.app, s, 'cash-flow?from=2026-01-01&to=2026-12-31'),
  };
}

async function moveCount(orgId: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM ledger_moves WHERE organization_id = ${orgId}`.execute(h.t.db.system);
  return rows[0].n;
}

const ENTRIES: Array<[string, string, string, number]> = [
  ['2026-01-15', '1000', '3000', 1000],
  ['2026-02-12', '1100', '4000', 250.5],
  ['2026-03-01', '5000', '1000', 80.25],
  ['2026-03-15', '1000', '1100', 120],
  ['2026-03-31', '5000', '2110', 33.33],
  ['2026-11-20', '1100', '4000', 999.99],
];

describe('ledger moves', () => {
  it('give the same figures pending, folded, and half of each', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const ids = await accountIds(h.app, s);
    for (const [date, debit, credit, amount] of ENTRIES.slice(0, 3))
      await manualEntry(h.app, s, ids, date, debit, credit, amount);
    await foldLedger(h.t.db);
    for (const [date, debit, credit, amount] of ENTRIES.slice(3))
      await manualEntry(h.app, s, ids, date, debit, credit, amount);
    expect(await moveCount(s.orgId)).toBe(3);
    const half = await figures(s);
    expect(half.balances['1000']).toBe('1039.75');
    expect(half.trial.totals).toEqual({ debit: '2484.07', credit: '2484.07' });
    await foldLedger(h.t.db);
    expect(await moveCount(s.orgId)).toBe(0);
    expect(await figures(s)).toEqual(half);
  });

  it('fold every move exactly once: the totals equal the postings', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const ids = await accountIds(h.app, s);
    for (const [date, debit, credit, amount] of ENTRIES) await manualEntry(h.app, s, ids, date, debit, credit, amount);
    const reversed = await manualEntry(h.app, s, ids, '2026-04-01', '1000', '4000', 77);
    const rev = await h.app.inject(
      authed(s.token, { method: 'POST', url: `/api/v1/transactions/${reversed.id}/reverse`, payload: {} }),
    );
    expect(rev.statusCode).toBe(201);
    expect(await foldLedger(h.t.db)).toBeGreaterThanOrEqual(8);
    // Folding again finds nothing.
    expect(await foldLedger(h.t.db)).toBe(0);
    const { rows } = await sql<{ mismatches: number }>`
      WITH expected AS (
        SELECT account_id, sum(debit) AS debit, sum(credit) AS credit, count(*) AS n FROM (
          SELECT debit_account_id AS account_id, base_amount AS debit, 0 AS credit FROM ledger_transactions WHERE organization_id = ${s.orgId}
          UNION ALL
          SELECT credit_account_id, 0, base_amount FROM ledger_transactions WHERE organization_id = ${s.orgId}
        ) m GROUP BY account_id
      )
      SELECT count(*)::int AS mismatches FROM expected e
      FULL JOIN (SELECT * FROM account_balances WHERE organization_id = ${s.orgId}) b ON b.account_id = e.account_id
      WHERE b.debit_total IS DISTINCT FROM e.debit OR b.credit_total IS DISTINCT FROM e.credit OR b.posting_count IS DISTINCT FROM e.n`.execute(
      h.t.db.system,
    );
    expect(rows[0].mismatches).toBe(0);
  });

  it('follow a posting changed or deleted by hand', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const ids = await accountIds(h.app, s);
    const kept = await manualEntry(h.app, s, ids, '2026-06-01', '1000', '3000', 100);
    const gone = await manualEntry(h.app, s, ids, '2026-06-02', '1000', '3000', 40);
    await foldLedger(h.t.db);
    const db = h.t.db.system;
    await sql`UPDATE ledger_transactions SET base_amount = 60, amount = 60, debit_account_id = ${ids['1100']} WHERE id = ${kept.id}`.execute(
      db,
    );
    await sql`DELETE FROM ledger_transactions WHERE id = ${gone.id}`.execute(db);
    // An update of other columns (reconciliation) moves nothing.
    await sql`UPDATE ledger_transactions SET reconciled = true WHERE id = ${kept.id}`.execute(db);
    // The change: the old posting taken back and the new one; the deletion: taken back.
    expect(await moveCount(s.orgId)).toBe(3);
    for (const folded of [false, true]) {
      if (folded) await foldLedger(h.t.db);
      const f = await figures(s);
      expect([folded, f.balances['1000'], f.balances['1100'], f.balances['3000']]).toEqual([
        folded,
        '0.00',
        '60.00',
        '60.00',
      ]);
      expect(
        f.trial.accounts.map((a: { accountCode: string; debitTotal: string; creditTotal: string }) => [
          a.accountCode,
          a.debitTotal,
          a.creditTotal,
        ]),
      ).toEqual([
        ['1100', '60.00', '0.00'],
        ['3000', '0.00', '60.00'],
      ]);
    }
  });

  it('are folded by the scheduled job', async () => {
    const app = await buildTestApp({ RATE_LIMITS: 'off', LEDGER_FOLD_INTERVAL: '50ms' });
    try {
      const s = await registerOrg(app.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
      const ids = await accountIds(app.app, s);
      await manualEntry(app.app, s, ids, '2026-06-01', '1000', '3000', 5);
      const deadline = Date.now() + 5_000;
      let left = -1;
      while (Date.now() < deadline) {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_moves`.execute(app.t.db.system);
        left = rows[0].n;
        if (left === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(left).toBe(0);
      const b = await app.t.db.system
        .selectFrom('account_balances')
        .select('debit_total')
        .where('account_id', '=', ids['1000'])
        .executeTakeFirstOrThrow();
      expect(b.debit_total).toBe('5.0000');
    } finally {
      await app.close();
    }
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('ledger moves on PostgreSQL', () => {
  it('leave a posting that commits while a fold runs to the next fold: counted once, never lost', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const ids = await accountIds(h.app, s);
    await manualEntry(h.app, s, ids, '2026-07-01', '1000', '3000', 10);
    const writer = new pg.Client({ connectionString: h.t.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
           amount, currency_code, exchange_rate, base_amount, reference_type, locked)
         VALUES ($1, '2026-07-02', 'in flight', $2, $3, 7, 'EUR', 1, 7, 'manual', false)`,
        [s.orgId, ids['1000'], ids['3000']],
      );
      // The fold runs while the posting is uncommitted: it takes the first posting's moves only.
      expect(await runFoldJob(h.t.db, { wait: true })).toBeGreaterThanOrEqual(1);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    expect(await moveCount(s.orgId)).toBe(1);
    const pending = await figures(s);
    expect(pending.balances['1000']).toBe('17.00');
    await foldLedger(h.t.db);
    expect(await moveCount(s.orgId)).toBe(0);
    expect(await figures(s)).toEqual(pending);
  });

  it('keep the totals exact under concurrent postings while the job folds every few milliseconds', async () => {
    const app = await buildTestApp({ RATE_LIMITS: 'off', LEDGER_FOLD_INTERVAL: '5ms' });
    try {
      const s = await registerOrg(app.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
      const ids = await accountIds(app.app, s);
      const N = 60;
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          manualEntry(
            app.app,
            s,
            ids,
            `2026-08-${String(1 + (i % 28)).padStart(2, '0')}`,
            i % 2 ? '1000' : '1100',
            '4000',
            1 + (i % 7),
          ),
        ),
      );
      expect(results).toHaveLength(N);
      const expected = Array.from({ length: N }, (_, i) => 1 + (i % 7)).reduce((a, b) => a + b, 0);
      const during = (await report(app.app, s, 'trial-balance?date=2026-12-31')).totals;
      expect(during).toEqual({ debit: expected.toFixed(2), credit: expected.toFixed(2) });
      await foldLedger(app.t.db);
      expect((await report(app.app, s, 'trial-balance?date=2026-12-31')).totals).toEqual(during);
      const b = await app.t.db.system
        .selectFrom('account_balances')
        .select(['credit_total', 'posting_count'])
        .where('account_id', '=', ids['4000'])
        .executeTakeFirstOrThrow();
      expect(b).toEqual({ credit_total: `${expected}.0000`, posting_count: N });
    } finally {
      await app.close();
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, foldLedger, registerOrg, type Session, type TestApp } from './helpers.js';
import { accountIds } from './reports-fixtures.js';

/**
 * The day and month sums are upserted in the posting's own statement; concurrent postings must
 * neither deadlock nor lose an addition. Needs real concurrent connections (TEST_DATABASE_URL);
 * PGlite runs one statement at a time.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
if (!onPostgres)
  console.warn('reports-concurrency: skipped, set TEST_DATABASE_URL=postgres://... to run it on real PostgreSQL');

describe.skipIf(!onPostgres)('period sums under concurrent postings on real PostgreSQL', () => {
  let h: TestApp;
  let s: Session;
  let a: Record<string, string>;
  beforeAll(async () => {
    h = await buildTestApp({ RATE_LIMITS: 'off' });
    s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    a = await accountIds(h.app, s);
  });
  afterAll(() => h?.close());

  it('equal a GROUP BY over the postings after 150 concurrent entries on shared accounts, days and months', async () => {
    const codes = ['1000', '1100', '3000', '4000', '5100'];
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        h.app.inject(
          authed(s.token, {
            method: 'POST',
            url: '/api/v1/transactions',
            payload: {
              transactionDate: `2026-0${1 + (i % 3)}-${i % 2 ? '28' : '01'}`,
              description: `c${i}`,
              debitAccountId: a[codes[i % 5]],
              creditAccountId: a[codes[(i * 3 + 1) % 5] === codes[i % 5] ? codes[(i + 2) % 5] : codes[(i * 3 + 1) % 5]],
              amount: (i % 11) + 0.25,
            },
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.statusCode !== 201).map((r) => r.body)).toEqual([]);

    await foldLedger(h.t.db);
    const { rows } = await sql<{ grain: string; mismatches: number }>`
      WITH expected AS (
        SELECT g.grain, CASE g.grain WHEN 'day' THEN m.d ELSE date_trunc('month', m.d)::date END AS period_start,
               m.account_id, m.counter_account_id, sum(m.debit) AS debit, sum(m.credit) AS credit, count(*) AS n
        FROM (
          SELECT transaction_date AS d, debit_account_id AS account_id, credit_account_id AS counter_account_id, base_amount AS debit, 0 AS credit
          FROM ledger_transactions WHERE organization_id = ${s.orgId}
          UNION ALL
          SELECT transaction_date, credit_account_id, debit_account_id, 0, base_amount FROM ledger_transactions WHERE organization_id = ${s.orgId}
        ) m CROSS JOIN (VALUES ('day'), ('month')) g (grain)
        GROUP BY 1, 2, 3, 4
      )
      SELECT grain, count(*)::int AS mismatches FROM (
        SELECT COALESCE(e.grain, p.grain) AS grain FROM expected e
        FULL JOIN (SELECT * FROM account_period_sums WHERE organization_id = ${s.orgId}) p
          ON p.grain = e.grain AND p.period_start = e.period_start AND p.account_id = e.account_id AND p.counter_account_id = e.counter_account_id
        WHERE p.debit_total IS DISTINCT FROM e.debit OR p.credit_total IS DISTINCT FROM e.credit OR p.posting_count IS DISTINCT FROM e.n
      ) x GROUP BY grain`.execute(h.t.db.system);
    expect(rows).toEqual([]);
    const count = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM account_period_sums WHERE organization_id = ${s.orgId}`.execute(h.t.db.system);
    expect(count.rows[0].n).toBeGreaterThan(0);
  });
});

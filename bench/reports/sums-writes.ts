import type pg from 'pg';
import { PERIOD_SUMS_CTE } from '../../services/accounting/src/modules/ledger/ledger.sql.js';
import { percentile } from '../lib.js';

/**
 * Write cost of the covering primary key of account_period_sums (migration 20261123005500: the key
 * INCLUDEs debit_total, credit_total and posting_count, so an update of the figures changes an
 * indexed column and can never be a HOT update; it always adds an index entry). Measured on two
 * copies of the loaded sums table made the same way (same rows, same heap layout, VACUUM ANALYZE),
 * one with the primary key as before that migration (key columns only) and one with the covering
 * key: the fold's sums upsert (PERIOD_SUMS_CTE, the ledger's own text, for one posting's two moves:
 * the day and month rows of both sides, 4 rows updated in place) timed
 * alternately on each copy, statement by statement, for postings dated on the latest day up to
 * `today` that has sums rows (today itself on freshly generated data; a kept database reused on a
 * later day has none for today) over the account pairs that have sums rows that day. Also the
 * share of HOT updates (pg_stat_user_tables) and the index growth over the run. The copies are
 * dropped afterwards.
 */
export interface WriteCost {
  statements: number;
  /** The day the measured postings are dated. */
  day: string;
  plain: { p50: number; mean: number; hot: number; indexGrowthKb: number };
  covering: { p50: number; mean: number; hot: number; indexGrowthKb: number };
}

const KEY = 'organization_id, grain, period_start, account_id, counter_account_id';

export async function measureSumsWriteCost(
  admin: pg.Client,
  orgId: string,
  today: string,
  statements: number,
): Promise<WriteCost> {
  const tables = { plain: 'bench_sums_plain_key', covering: 'bench_sums_covering_key' } as const;
  for (const [kind, table] of Object.entries(tables)) {
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.query(`CREATE TABLE ${table} (LIKE account_period_sums INCLUDING DEFAULTS)`);
    await admin.query(`INSERT INTO ${table} SELECT * FROM account_period_sums ORDER BY ${KEY}`);
    await admin.query(
      kind === 'plain'
        ? `ALTER TABLE ${table} ADD PRIMARY KEY (${KEY})`
        : `ALTER TABLE ${table} ADD PRIMARY KEY (${KEY}) INCLUDE (debit_total, credit_total, posting_count)`,
    );
    await admin.query(`VACUUM ANALYZE ${table}`);
  }
  try {
    const { rows: latest } = await admin.query<{ day: string | null }>(
      `SELECT max(period_start)::text AS day FROM account_period_sums WHERE organization_id = $1 AND grain = 'day' AND period_start <= $2`,
      [orgId, today],
    );
    const day = latest[0].day;
    if (!day) throw new Error(`no sums rows up to ${today}`);
    const { rows: pairs } = await admin.query<{ account_id: string; counter_account_id: string }>(
      `SELECT account_id, counter_account_id FROM account_period_sums
       WHERE organization_id = $1 AND grain = 'day' AND period_start = $2 ORDER BY account_id, counter_account_id`,
      [orgId, day],
    );
    const upsert = (table: string) =>
      `WITH d (organization_id, account_id, counter_account_id, transaction_date, debit, credit, posting_count) AS (
         VALUES ($1::uuid, $3::uuid, $4::uuid, $2::date, 1.00::numeric, 0::numeric, 1),
                ($1::uuid, $4::uuid, $3::uuid, $2::date, 0::numeric, 1.00::numeric, 1)
       ),${PERIOD_SUMS_CTE.replace('INSERT INTO account_period_sums AS s', `INSERT INTO ${table} AS s`)}
       SELECT count(*)::text AS count FROM sums`;
    const text = { plain: upsert(tables.plain), covering: upsert(tables.covering) };
    const indexSize = async (table: string) =>
      Number((await admin.query<{ s: string }>(`SELECT pg_relation_size('${table}_pkey') AS s`)).rows[0].s);
    const stats = async (table: string) =>
      (
        await admin.query<{ upd: string; hot: string }>(
          `SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = $1`,
          [table],
        )
      ).rows[0];
    const before = {
      plain: { index: await indexSize(tables.plain), ...(await stats(tables.plain)) },
      covering: { index: await indexSize(tables.covering), ...(await stats(tables.covering)) },
    };
    const times = { plain: [] as number[], covering: [] as number[] };
    for (let i = 0; i < statements; i++) {
      const pair = pairs[i % pairs.length];
      const params = [orgId, day, pair.account_id, pair.counter_account_id];
      // Alternate which copy goes first, so neither always runs right after the other's write.
      const order = i % 2 === 0 ? (['plain', 'covering'] as const) : (['covering', 'plain'] as const);
      for (const kind of order) {
        const t0 = performance.now();
        const r = await admin.query<{ count: string }>(text[kind], params);
        times[kind].push(performance.now() - t0);
        if (String(r.rows[0].count) !== '4') throw new Error(`${kind}: upserted ${r.rows[0].count} rows, expected 4`);
      }
    }
    // This backend's counters reach pg_stat_user_tables when it flushes them: force it now.
    await admin.query('SELECT pg_stat_force_next_flush()');
    await admin.query('SELECT 1');
    const result = (kind: 'plain' | 'covering') => {
      const ts = times[kind];
      return async () => {
        const after = await stats(tables[kind]);
        const upd = Number(after.upd) - Number(before[kind].upd);
        const hot = Number(after.hot) - Number(before[kind].hot);
        return {
          p50: percentile(ts, 50),
          mean: ts.reduce((a, b) => a + b, 0) / ts.length,
          hot: upd > 0 ? hot / upd : 0,
          indexGrowthKb: ((await indexSize(tables[kind])) - before[kind].index) / 1024,
        };
      };
    };
    return { statements, day, plain: await result('plain')(), covering: await result('covering')() };
  } finally {
    for (const table of Object.values(tables)) await admin.query(`DROP TABLE IF EXISTS ${table}`);
  }
}

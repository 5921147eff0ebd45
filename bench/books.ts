/**
 * Issue 3 benchmark (books), on real PostgreSQL, app in production mode with RATE_LIMITS=off:
 *  (a) POST /transactions requests/s next to a bare Fastify route running one transaction of
 *      three INSERTs on the same database, measured in the same run;
 *  (b) GET /accounts and the trial-balance read for an organization with 1,000,000 postings
 *      (bulk-loaded with INSERT ... SELECT generate_series, running totals set to match).
 * Usage: node --import tsx bench/books.ts   (or npm run bench -- books)
 */

import { createDatabase } from '@app/shared/db/database';
import pg from 'pg';
import type { DB } from '../services/accounting/src/db/types.js';
import { trialBalance } from '../services/accounting/src/modules/ledger/ledger.service.js';
import { rebuildLedgerTotals } from './ledger-totals.js';
import {
  accountingEnv,
  createBenchDatabase,
  json,
  load,
  machine,
  percentile,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const APP_PORT = 3910;
const BARE_PORT = 3911;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 1_000_000);

const APP_ENV = accountingEnv(APP_PORT);

async function register(base: string, name: string) {
  const body = await json(
    await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        organizationName: name,
        country: 'RS',
        baseCurrency: 'RSD',
        language: 'sr',
        email: `${name.toLowerCase()}@example.test`,
        password: 'Correct-Horse-9',
        fullName: 'Bench',
      }),
    }),
  );
  const token = body.tokens.accessToken as string;
  const accounts = await json(await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${token}` } }));
  const ids = Object.fromEntries(accounts.data.map((a: { code: string; id: string }) => [a.code, a.id])) as Record<
    string,
    string
  >;
  return { token, orgId: body.organization.id as string, ids };
}

const fmt = (r: Awaited<ReturnType<typeof load>>) =>
  `${r.requestsPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`;

const db = await createBenchDatabase('bench_books');
try {
  // (a) write throughput ------------------------------------------------------------------------
  let app = await startProcess(
    await serviceEntry(ROOT, 'accounting'),
    { ...APP_ENV, ACCOUNTING_DATABASE_URL: db.url },
    `http://127.0.0.1:${APP_PORT}/health`,
  );
  const base = `http://127.0.0.1:${APP_PORT}/api/v1`;
  let small: Awaited<ReturnType<typeof register>>;
  let big: Awaited<ReturnType<typeof register>>;
  let post: Awaited<ReturnType<typeof load>>;
  let postFx: Awaited<ReturnType<typeof load>>;
  const entry = (ids: Record<string, string>, extra: object = {}) =>
    JSON.stringify({
      transactionDate: '2026-11-20',
      description: 'bench entry',
      debitAccountId: ids['1000'],
      creditAccountId: ids['1100'],
      amount: 12.34,
      ...extra,
    });
  try {
    small = await register(base, 'BenchSmall');
    big = await register(base, 'BenchBig');
    const headers = { authorization: `Bearer ${small.token}`, 'content-type': 'application/json' };
    await load({ url: `${base}/transactions`, method: 'POST', headers, body: entry(small.ids), seconds: 2 });
    post = await load({
      url: `${base}/transactions`,
      method: 'POST',
      headers,
      body: entry(small.ids),
      seconds: SECONDS,
    });
    postFx = await load({
      url: `${base}/transactions`,
      method: 'POST',
      headers,
      body: entry(small.ids, { currencyCode: 'EUR' }),
      seconds: SECONDS,
    });
  } finally {
    await stopProcess(app);
  }

  const bare = await startProcess(
    `${ROOT}/bench/servers/bare-posting.ts`,
    { DATABASE_URL: db.url, PORT: String(BARE_PORT) },
    `http://127.0.0.1:${BARE_PORT}/health`,
  );
  let baseline: Awaited<ReturnType<typeof load>>;
  try {
    const body = JSON.stringify({ ...JSON.parse(entry(small!.ids)), org: small!.orgId });
    const headers = { 'content-type': 'application/json' };
    await load({ url: `http://127.0.0.1:${BARE_PORT}/post`, method: 'POST', headers, body, seconds: 2 });
    baseline = await load({
      url: `http://127.0.0.1:${BARE_PORT}/post`,
      method: 'POST',
      headers,
      body,
      seconds: SECONDS,
    });
  } finally {
    await stopProcess(bare);
  }

  // (b) 1,000,000 postings ------------------------------------------------------------------------
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const loadStarted = performance.now();
  try {
    const accountIds = Object.values(big!.ids);
    // A bulk load: no audit rows and no per-row foreign-key checks (the ids come from the chart).
    await admin.query('SET session_replication_role = replica');
    const CHUNK = 250_000;
    for (let from = 0; from < POSTINGS; from += CHUNK) {
      const to = Math.min(POSTINGS, from + CHUNK) - 1;
      await admin.query(
        `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
           amount, currency_code, exchange_rate, base_amount, reference_type, locked)
         SELECT $1, DATE '2023-01-01' + (g % 1420), 'bulk ' || g,
                ($2::uuid[])[1 + g % $3], ($2::uuid[])[1 + (g % $3 + 1 + (g / $3) % ($3 - 1)) % $3],
                ((g % 100000) + 1) / 100.0, 'RSD', 1, ((g % 100000) + 1) / 100.0, 'manual', false
         FROM generate_series($4::int, $5::int) AS g`,
        [big!.orgId, accountIds, accountIds.length, from, to],
      );
    }
    await admin.query('SET session_replication_role = origin');
    await rebuildLedgerTotals(admin, big!.orgId);
    await admin.query('ANALYZE');
  } finally {
    await admin.end();
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  app = await startProcess(
    await serviceEntry(ROOT, 'accounting'),
    { ...APP_ENV, ACCOUNTING_DATABASE_URL: db.url },
    `http://127.0.0.1:${APP_PORT}/health`,
  );
  let accounts: Awaited<ReturnType<typeof load>>;
  let accountsOne: Awaited<ReturnType<typeof load>>;
  let firstPage: Awaited<ReturnType<typeof load>>;
  try {
    const headers = { authorization: `Bearer ${big!.token}` };
    const check = await json(await fetch(`${base}/accounts`, { headers }));
    if (!check.data.some((a: { currentBalance: string }) => a.currentBalance !== '0.00'))
      throw new Error('bulk load left no balances');
    await load({ url: `${base}/accounts`, headers, seconds: 2 });
    accounts = await load({ url: `${base}/accounts`, headers, seconds: SECONDS });
    accountsOne = await load({ url: `${base}/accounts`, headers, seconds: SECONDS, connections: 1 });
    firstPage = await load({
      url: `${base}/transactions?perPage=20&fromDate=2026-11-01`,
      headers,
      seconds: SECONDS,
      connections: 1,
    });
  } finally {
    await stopProcess(app);
  }

  // Trial balance, in process through the service's tenant context (the reports module's read).
  const tdb = await createDatabase<DB>({ url: db.url, appRole: 'accounting_app' });
  const timings: Record<string, number[]> = {};
  let balanced = false;
  try {
    for (const [label, date] of [
      ['as of today', '2026-11-21'],
      ['as of 30 days ago', '2026-10-22'],
      ['as of 1 year ago', '2025-11-21'],
    ] as const) {
      timings[label] = [];
      for (let i = 0; i < 60; i++) {
        const t0 = performance.now();
        const tb = await tdb.withContext({ kind: 'tenant', orgId: big!.orgId }, (conn) =>
          trialBalance(conn, big!.orgId, date),
        );
        timings[label].push(performance.now() - t0);
        balanced = tb.balanced;
      }
    }
  } finally {
    await tdb.close();
  }

  const ratio = (post!.requestsPerSec / baseline!.requestsPerSec) * 100;
  const tbRows = Object.entries(timings)
    .map(
      ([label, t]) =>
        `| trial balance ${label} (1 connection, 60 runs, in process) | p50 ${percentile(t, 50).toFixed(1)} ms, p95 ${percentile(t, 95).toFixed(1)} ms |`,
    )
    .join('\n');
  const body = `Command: \`node --import tsx bench/books.ts\` (or \`npm run bench -- books\`; real PostgreSQL at ${new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432').host}, ${machine()}, app with NODE_ENV=production and RATE_LIMITS=off, autocannon 16 connections unless stated, ${SECONDS} s per phase, server and load generator in separate processes on loopback, 2 cores shared with other work).

(a) Writes: every request posts 12.34 between the same two accounts of one organization (the
worst case: all requests contend for the same two balance rows).

| what | result |
|---|---|
| POST /transactions, base currency (auth, validation, RLS, account check, posting + balances in one statement) | ${fmt(post!)} |
| POST /transactions in EUR (adds the rate-in-force lookup) | ${fmt(postFx!)} |
| baseline: bare Fastify + pg, BEGIN, 3 INSERTs, COMMIT, table owner, no checks | ${fmt(baseline!)} |
| **POST /transactions / baseline** | **${ratio.toFixed(0)}%** (target 75%) |

(b) Reads with ${POSTINGS.toLocaleString('en')} postings in one organization (bulk load and running totals: ${loadSeconds.toFixed(0)} s).

| what | result |
|---|---|
| GET /accounts (17 accounts with currentBalance), 16 connections | ${fmt(accounts!)} |
| GET /accounts, 1 connection | ${fmt(accountsOne!)} |
| GET /transactions?perPage=20&fromDate=2026-11-01, 1 connection | ${fmt(firstPage!)} |
${tbRows}
| trial balance balanced | ${balanced} |

How: a posting is one statement (CTE: INSERT the posting(s), then upsert the running totals in
account_balances in account-id order), so a manual entry is BEGIN+context, one account lookup
(FOR KEY SHARE), the posting statement and COMMIT. Balances and the trial balance read the
running totals; a past date subtracts only the postings dated after it, so its cost grows with
the postings after that date (a year back here: about 250,000 postings, ~136 ms). Since
issue 12 the trial balance reads the day and month sums instead (see the Reports section). GET /transactions pays for its
window count over the filtered range (about 14,000 postings from 2026-11-01 here).
`;
  writeSection('Books', body);
  console.log(body);
} finally {
  await db.drop();
}

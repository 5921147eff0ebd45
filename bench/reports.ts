/**
 * Issue 12 benchmark (reports), on real PostgreSQL, app in production mode with RATE_LIMITS=off:
 * one organization with 1,000,000 postings over 3 years across 200 accounts (bench/reports/data.ts),
 * 50 other organizations around it. For each report and period: p50 and p99 of sequential HTTP
 * requests (target < 100 ms; dashboard < 50 ms) next to a plain GROUP BY over the postings answering
 * the same question (bench/reports/group-by.ts), interleaved request by request in the same run.
 * Every report's figures are checked against the GROUP BY's before anything is timed.
 * Usage: node --import tsx bench/reports.ts   (or npm run bench -- reports)
 * BENCH_KEEP_DB=1 keeps the database (printed at the end) for EXPLAIN and profiles; BENCH_DB_URL=<url> reuses
 * such a database instead of generating one; BENCH_BEFORE_ROOT=<checkout with node_modules> runs that
 * checkout's server too, on the same database, interleaved request by request (a "before" column).
 * BENCH_ONLY=vat,dashboard times only those reports. After the reports, the write cost of the covering
 * primary key of account_period_sums (bench/reports/sums-writes.ts): BENCH_WRITE_STATEMENTS upserts per
 * key variant (default 2000; 0 skips it); and the write cost of the VAT report's triggers
 * (bench/reports/vat-writes.ts): BENCH_VAT_WRITES runs per case and variant (default 200; 0 skips it).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import { addDays, monthStart } from '../services/accounting/src/modules/ledger/period-ranges.js';
import { organizationToday } from '../services/accounting/src/modules/reports/report-dates.js';
import {
  accountingEnv,
  createBenchDatabase,
  json,
  machine,
  percentile,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';
import { describeData, generate, type LoadedData } from './reports/data.js';
import * as groupBy from './reports/group-by.js';
import { measureSumsWriteCost, type WriteCost } from './reports/sums-writes.js';
import { measureVatWriteCost, type VatWriteCost } from './reports/vat-writes.js';

const APP_PORT = 3950;
const BEFORE_PORT = 3951;
const REUSE_URL = process.env.BENCH_DB_URL;
const BEFORE_ROOT = process.env.BENCH_BEFORE_ROOT;
const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 1_000_000);
const OTHERS = Number(process.env.BENCH_OTHERS ?? 50);
const PER_OTHER = Number(process.env.BENCH_PER_OTHER ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 5;
const PASSWORD = 'Correct-Horse-9';

const base = `http://127.0.0.1:${APP_PORT}/api/v1`;
const beforeBase = `http://127.0.0.1:${BEFORE_PORT}/api/v1`;
const appEnv = (url: string) => ({ ...accountingEnv(APP_PORT), ACCOUNTING_DATABASE_URL: url });

async function register(name: string): Promise<string> {
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
        password: PASSWORD,
        fullName: 'Bench',
      }),
    }),
  );
  return body.organization.id as string;
}

async function login(name: string): Promise<string> {
  const body = await json(
    await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${name.toLowerCase()}@example.test`, password: PASSWORD }),
    }),
  );
  return (body.tokens?.accessToken ?? body.accessToken) as string;
}

interface Case {
  report: keyof typeof groupBy.fromReport;
  period: string;
  path: string;
  target: number;
  baseline: () => Promise<groupBy.Figures>;
}

interface Measured extends Case {
  service: number[];
  before: number[];
  plain: number[];
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const loadBefore = os.loadavg();
const today = organizationToday('RS');
const from = addDays(today, -1095);
const lastYear = String(Number(today.slice(0, 4)) - 1);
const back = addDays(monthStart(today, -30), Math.min(Number(today.slice(8)), 28) - 1);
const periods = [
  { label: 'current month', from: monthStart(today), to: today, asOf: today },
  { label: `past year ${lastYear}`, from: `${lastYear}-01-01`, to: `${lastYear}-12-31`, asOf: `${lastYear}-12-31` },
  { label: `2.5 years back (${back})`, from: back, to: today, asOf: back },
];

const db = REUSE_URL ? { url: REUSE_URL, drop: async () => {} } : await createBenchDatabase('bench_reports');
const admin = new pg.Client({ connectionString: db.url });
try {
  let app = await startProcess(
    await serviceEntry(ROOT, 'accounting'),
    appEnv(db.url),
    `http://127.0.0.1:${APP_PORT}/health`,
  );
  let orgId: string;
  const otherOrgIds: string[] = [];
  if (REUSE_URL) await stopProcess(app);
  else
    try {
      orgId = await register('BenchReports');
      for (let i = 0; i < OTHERS; i += 5) {
        const batch = Array.from({ length: Math.min(5, OTHERS - i) }, (_, j) => register(`BenchOther${i + j}`));
        otherOrgIds.push(...(await Promise.all(batch)));
      }
    } finally {
      await stopProcess(app);
    }

  await admin.connect();
  const loadStarted = performance.now();
  let data: LoadedData;
  if (REUSE_URL) {
    const orgs = (
      await admin.query<{ id: string; name: string }>(
        "SELECT id, name FROM organizations WHERE name = 'BenchReports' OR name LIKE 'BenchOther%' ORDER BY name",
      )
    ).rows;
    orgId = orgs.find((o) => o.name === 'BenchReports')!.id;
    otherOrgIds.push(...orgs.filter((o) => o.name !== 'BenchReports').map((o) => o.id));
    data = await describeData(admin, orgId, otherOrgIds);
  } else {
    data = await generate(admin, { orgId: orgId!, otherOrgIds, postings: POSTINGS, perOther: PER_OTHER, from, today });
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const { rows: chartRows } = await admin.query<{ id: string; code: string; account_type_id: number }>(
    'SELECT id, code, account_type_id FROM accounts WHERE organization_id = $1',
    [orgId!],
  );
  const idOf = (code: string) => chartRows.find((a) => a.code === code)!.id;
  const chart: groupBy.Chart = {
    // A16: asset accounts 1000-1199 (no bank accounts exist here, so no others).
    cashIds: chartRows.filter((a) => a.account_type_id === 1 && a.code >= '1000' && a.code < '1200').map((a) => a.id),
    vatPayableId: idOf('2300'),
    vatReceivableId: idOf('1300'),
  };

  const cases: Case[] = [
    {
      report: 'dashboard',
      period: `today (${today})`,
      path: '/reports/dashboard',
      target: 50,
      baseline: () => groupBy.dashboard(admin, orgId, chart, today),
    },
  ];
  for (const p of periods) {
    const range = `from=${p.from}&to=${p.to}`;
    cases.push(
      {
        report: 'profit-loss',
        period: p.label,
        path: `/reports/profit-loss?${range}`,
        target: 100,
        baseline: () => groupBy.profitLoss(admin, orgId, p.from, p.to),
      },
      {
        report: 'balance-sheet',
        period: p.label,
        path: `/reports/balance-sheet?date=${p.asOf}`,
        target: 100,
        baseline: () => groupBy.balanceSheet(admin, orgId, p.asOf),
      },
      {
        report: 'cash-flow',
        period: p.label,
        path: `/reports/cash-flow?${range}`,
        target: 100,
        baseline: () => groupBy.cashFlow(admin, orgId, chart, p.from, p.to),
      },
      {
        report: 'vat',
        period: p.label,
        path: `/reports/vat?${range}`,
        target: 100,
        baseline: () => groupBy.vat(admin, orgId, chart, p.from, p.to),
      },
      {
        report: 'trial-balance',
        period: p.label,
        path: `/reports/trial-balance?date=${p.asOf}`,
        target: 100,
        baseline: () => groupBy.trialBalance(admin, orgId, p.asOf),
      },
    );
  }

  // BENCH_ONLY=vat,dashboard times only those reports (a quick look; the section needs them all).
  const only = process.env.BENCH_ONLY?.split(',');
  if (only) cases.splice(0, cases.length, ...cases.filter((c) => only.includes(c.report)));
  app = await startProcess(
    await serviceEntry(ROOT, 'accounting'),
    appEnv(db.url),
    `http://127.0.0.1:${APP_PORT}/health`,
  );
  // After this checkout's server (its migrations applied), so the before server finds them done.
  const beforeApp = BEFORE_ROOT
    ? await startProcess(
        await serviceEntry(BEFORE_ROOT, 'accounting'),
        { ...appEnv(db.url), ACCOUNTING_PORT: String(BEFORE_PORT) },
        `http://127.0.0.1:${BEFORE_PORT}/health`,
      )
    : null;
  if (REUSE_URL) await admin.query('VACUUM ANALYZE account_period_sums');
  const measured: Measured[] = [];
  const mismatches: string[] = [];
  try {
    const headers = { authorization: `Bearer ${await login('BenchReports')}` };
    const request = async (path: string, url = base) => {
      const res = await fetch(`${url}${path}`, { headers });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${Buffer.from(body).toString()}`);
      return body;
    };
    const timed = async (fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    // Right answers first: a fast report with wrong figures is worthless.
    for (const c of cases) {
      const body = Buffer.from(await request(c.path)).toString();
      const report = groupBy.fromReport[c.report](JSON.parse(body));
      const plain = await c.baseline();
      for (const key of Object.keys(plain)) {
        if (report[key] !== plain[key])
          mismatches.push(`${c.report} ${c.period} ${key}: report ${report[key]}, GROUP BY ${plain[key]}`);
      }
      // The before server must answer byte for byte the same report.
      if (beforeApp && Buffer.from(await request(c.path, beforeBase)).toString() !== body)
        mismatches.push(`${c.report} ${c.period}: body differs from the before server's`);
    }
    if (mismatches.length) throw new Error(`reports disagree with the GROUP BY:\n${mismatches.join('\n')}`);
    for (const c of cases) {
      for (let i = 0; i < WARMUP; i++) {
        await request(c.path);
        if (beforeApp) await request(c.path, beforeBase);
        await c.baseline();
      }
      const m: Measured = { ...c, service: [], before: [], plain: [] };
      for (let i = 0; i < RUNS; i++) {
        m.service.push(await timed(() => request(c.path)));
        if (beforeApp) m.before.push(await timed(() => request(c.path, beforeBase)));
        m.plain.push(await timed(c.baseline));
      }
      measured.push(m);
      const beforeNote = beforeApp ? `, before p50 ${percentile(m.before, 50).toFixed(1)} ms` : '';
      console.log(
        `${c.report} ${c.period}: service p50 ${percentile(m.service, 50).toFixed(1)} ms${beforeNote}, GROUP BY p50 ${percentile(m.plain, 50).toFixed(1)} ms`,
      );
    }
  } finally {
    await stopProcess(app);
    if (beforeApp) await stopProcess(beforeApp);
  }

  const writeStatements = Number(process.env.BENCH_WRITE_STATEMENTS ?? 2000);
  let writes: WriteCost | null = null;
  if (writeStatements > 0) {
    writes = await measureSumsWriteCost(admin, orgId!, today, writeStatements);
    console.log('sums upsert, plain key vs covering key:', JSON.stringify(writes));
  }
  const vatWriteRuns = Number(process.env.BENCH_VAT_WRITES ?? 200);
  let vatWrites: VatWriteCost | null = null;
  if (vatWriteRuns > 0) {
    vatWrites = await measureVatWriteCost(admin, orgId!, vatWriteRuns);
    console.log('VAT report triggers, write cost:', JSON.stringify(vatWrites));
  }

  const loadAfter = os.loadavg();
  const ms = (v: number) => v.toFixed(1);
  const loadavg = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
  const rows = measured
    .map((m) => {
      const p50 = percentile(m.service, 50);
      const before = BEFORE_ROOT ? ` ${ms(percentile(m.before, 50))} / ${ms(percentile(m.before, 99))} |` : '';
      return `| ${m.report} | ${m.period} |${before} ${ms(p50)} / ${ms(percentile(m.service, 99))} | ${ms(percentile(m.plain, 50))} | < ${m.target} ms | ${p50 < m.target ? 'met' : '**missed**'} |`;
    })
    .join('\n');
  const section = `Command: \`node --import tsx bench/reports.ts\` (or \`npm run bench -- reports\`; real PostgreSQL at 127.0.0.1:5432, ${machine()}, commit ${commit}, ${os.cpus().length} cores, app with NODE_ENV=production and RATE_LIMITS=off, server and client in separate processes on loopback).
**The machine is shared and was noisy**: other sessions' builds and test suites ran on the same
${os.cpus().length} cores; load average (1 / 5 / 15 min) ${loadavg(loadBefore)} at the start and ${loadavg(loadAfter)} at the end,
so absolute figures are inflated and scattered; the columns were measured interleaved, request by request.
${
  BEFORE_ROOT
    ? `
Before: the server of the checkout at BENCH_BEFORE_ROOT (${process.env.BENCH_BEFORE_LABEL ?? 'an earlier commit'}), started on the same database and port ${BEFORE_PORT},
timed in the same loop (after, before, GROUP BY, request by request); before timing, its body was checked byte-identical to
this checkout's for every row. It runs on this checkout's schema (its migrations must be a subset).
`
    : ''
}
Data (generated with set-based SQL, \`bench/reports/data.ts\`; ${REUSE_URL ? 'generated by an earlier run of this bench kept with BENCH_KEEP_DB and reused here with BENCH_DB_URL, VACUUM ANALYZE of the sums before timing' : `load, totals and VACUUM ANALYZE ${loadSeconds.toFixed(0)} s`}): one organization
with ${data.accounts} accounts (the default chart plus created ones in every code range) and ${(data.documentPostings + data.manualPostings).toLocaleString('en')} postings
evenly over ${from} .. ${today}: ${data.invoices.toLocaleString('en')} invoices (two lines, 20% and 10%, every tenth in EUR) and ${data.expenses.toLocaleString('en')} expenses
with their sale, approval and payment postings (${data.documentPostings.toLocaleString('en')}), and ${data.manualPostings.toLocaleString('en')} manual postings over 600 account
pairs (each account with three counter accounts on each side); ${data.periodSumRows.toLocaleString('en')} day and month sums rows. Around it
${otherOrgIds.length} other organizations with ${PER_OTHER.toLocaleString('en')} postings each (${data.otherPostings.toLocaleString('en')}), written between the big one's chunks.

Service: ${RUNS} sequential requests per row after ${WARMUP} warm-ups, JSON, through auth, RLS and the
route (p99 of ${RUNS} samples is their maximum). GROUP BY: the same question answered by a plain
GROUP BY over \`ledger_transactions\` (two per-side GROUP BYs per account, the cash and VAT filters),
table owner over pg, no sums table, p50 of the same ${RUNS} interleaved runs. Before timing, every report's
figures were checked equal to the GROUP BY's (trial balance: every account's debit and credit
and the totals; balance sheet: the three totals; profit and loss: the totals and the account
count; cash flow: the three sections, net, opening and closing; VAT: output, input, net;
dashboard: cash, month to date and the 12 months; its receivables and expense categories read
invoices and expenses, not postings). Periods: current month = the 1st to today
(balance sheet and trial balance: as of today); past year = 1 January to 31 December
(as of 31 December); 2.5 years back = from that date to today for the period reports (as of
that date for balance sheet and trial balance).

${BEFORE_ROOT ? '| report | period | before p50 / p99 ms | service p50 / p99 ms | GROUP BY p50 ms | target | met or missed |\n|---|---|---|---|---|---|---|' : '| report | period | service p50 / p99 ms | GROUP BY p50 ms | target | met or missed |\n|---|---|---|---|---|---|'}
${rows}

How: every ledger figure comes from \`account_period_sums\` (day and month sums per account and
counter account, kept by the posting statement; docs/accounting/reports.md), so a
range reads its whole months and at most about 60 edge days per account pair, whatever the number
of postings; the GROUP BY reads every posting in the range. Here a day holds about
${Math.round(data.periodSumRows / 1096).toLocaleString('en')} sums rows (one per account and counter account with postings that day), so what a
report reads is set by the days at the range's edges and the months in it: as of a date late in a
month (today, ${today}) that is that month's days plus every month before. The VAT report is different: it lists
every invoice (per tax rate) and every expense of the period, so it reads invoices, items and
expenses, and its cost grows with the documents in the period, not with the postings.
`;
  const writeSection_ = writes
    ? `
Write cost of the covering primary key (migration 20261123005500 INCLUDEs the figures, so a sums
update is never HOT): \`bench/reports/sums-writes.ts\`, in this run, on two copies of this
database's sums table (${data.periodSumRows.toLocaleString('en')} rows, same layout, VACUUM ANALYZE), one with the key as before
that migration and one with the covering key; the posting statement's sums upsert (the ledger's
PERIOD_SUMS_CTE text, one posting's two moves dated ${writes.day}: 4 rows updated) ${writes.statements.toLocaleString('en')} times on each,
alternating statement by statement, over the account pairs with sums rows that day; as the table
owner over pg, one round trip each.

| primary key | upsert p50 ms | mean ms | HOT share of updates | index growth |
|---|---|---|---|---|
| key columns only (before 20261123005500) | ${writes.plain.p50.toFixed(3)} | ${writes.plain.mean.toFixed(3)} | ${(writes.plain.hot * 100).toFixed(0)} % | ${writes.plain.indexGrowthKb.toFixed(0)} kB |
| covering (INCLUDE debit_total, credit_total, posting_count) | ${writes.covering.p50.toFixed(3)} | ${writes.covering.mean.toFixed(3)} | ${(writes.covering.hot * 100).toFixed(0)} % | ${writes.covering.indexGrowthKb.toFixed(0)} kB |
`
    : '';
  const vatWriteSection = vatWrites
    ? `
Write cost of the VAT report's precomputed rows (migration 20261123007000; docs/accounting/reports.md):
\`bench/reports/vat-writes.ts\`, in this run, on this database: the statement each case's trigger fires on,
as the application writes it (the status UPDATE; for a draft's lines the INSERT of 2 lines), timed with the
trigger and without it (ALTER TABLE ... DISABLE TRIGGER) in alternating batches of 10 after 2 uncounted runs,
${vatWrites.runs} runs per case and variant, over the organization's latest ${vatWrites.cases[0].documents} documents of the kind; each run
the statement and SET CONSTRAINTS ALL IMMEDIATE (the recomputation of the days that COMMIT runs) timed
together, then ROLLBACK; as the table owner over pg, one round trip each. The rest of the request (postings,
COMMIT, a send's PDF and mail) is the same with and without.

| statement | without trigger p50 / mean ms | with trigger p50 / mean ms | added p50 ms |
|---|---|---|---|
${vatWrites.cases.map((c) => `| ${c.name} | ${c.without.p50.toFixed(3)} / ${c.without.mean.toFixed(3)} | ${c.with.p50.toFixed(3)} / ${c.with.mean.toFixed(3)} | ${(c.with.p50 - c.without.p50).toFixed(3)} |`).join('\n')}
`
    : '';
  writeSection('Reports (issue 12)', section + writeSection_ + vatWriteSection);
  console.log(section + writeSection_ + vatWriteSection);
} finally {
  await admin.end().catch(() => {});
  // BENCH_KEEP_DB=1 leaves the database for analysis (EXPLAIN, profiles); drop it by hand afterwards.
  if (process.env.BENCH_KEEP_DB) console.log(`kept database ${db.url}`);
  else await db.drop();
}

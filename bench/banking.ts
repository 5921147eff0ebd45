/**
 * Issue 10 benchmark (banking), on real PostgreSQL, app in production mode with RATE_LIMITS=off:
 *  (a) POST /bank-accounts/:id/import of a 5 MB statement (about 80,000 rows) into an account that
 *      already holds 80,000 lines: wall time (target < 2 s) and the server's peak RSS during the
 *      import (target < 150 MB), next to bare Fastify + pg inserting the same file into a plain
 *      table and into the app's own table;
 *  (b) GET /bank-accounts/:id/transactions with suggestions, 20 unreconciled lines on a ledger
 *      account with 100,000 postings: p50 of sequential requests (target < 20 ms), and
 *      throughput with 50 connections next to a bare route running the minimal two queries.
 * Usage: node --import tsx bench/banking.ts   (or npm run bench -- banking)
 *   BENCH_BEFORE=checkout   also runs the service of another checkout (the commit before a change,
 *                           with its node_modules) on its own database, measured in the same rounds,
 *                           interleaved with this one: a "before" next to "after" from one run
 *                           (BENCH_BEFORE_COMMIT names it when the checkout has no .git)
 */

import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BankingApi, kb, procStatus as proc, ROWS, resetPeak, statement } from './banking-data.js';
import {
  accountingEnv,
  createBenchDatabase,
  json,
  load,
  machine,
  percentile,
  processCpuMs,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const BARE_PORT = 3941;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BEFORE = process.env.BENCH_BEFORE;
const dataDir = mkdtempSync(join(tmpdir(), 'bench-banking-'));
const commitOf = (dir: string) => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return process.env.BENCH_BEFORE_COMMIT ?? 'unknown';
  }
};
const HEAD = commitOf(ROOT);
const load1 = () => loadavg()[0].toFixed(1);
const LOAD_START = load1();

/** One service under test: its own database, process and organization. */
interface Target {
  name: string;
  script: string;
  port: number;
  db?: Awaited<ReturnType<typeof createBenchDatabase>>;
  proc?: ChildProcess;
  api: BankingApi;
  importBanks: string[];
  listUrl: string;
  imports: Array<{ ms: number; peakMb: number; rssBeforeMb: number; cpuMs: number | null; result: string }>;
  seq: number[];
  load?: Awaited<ReturnType<typeof load>>;
  suggestions: number;
}

const targets: Target[] = [];
const target = (name: string, script: string, port: number): Target => ({
  name,
  script,
  port,
  api: new BankingApi(`http://127.0.0.1:${port}/api/v1`),
  importBanks: [],
  listUrl: '',
  imports: [],
  seq: [],
  suggestions: 0,
});
targets.push(target('after', await serviceEntry(ROOT, 'accounting'), 3940));
if (BEFORE) targets.push(target('before', await serviceEntry(BEFORE, 'accounting'), 3942));

const files = [statement(2021), statement(2022), statement(2023), statement(2024)];
const bareRuns: Record<'plain' | 'app', number[]> = { plain: [], app: [] };
let bareLoad: Awaited<ReturnType<typeof load>> | undefined;
let peakResettable = false;
let bare: ChildProcess | undefined;

async function setUp(t: Target) {
  t.db = await createBenchDatabase('bench_banking');
  t.proc = await startProcess(
    t.script,
    { ...accountingEnv(t.port, { DATA_DIR: dataDir }), ACCOUNTING_DATABASE_URL: t.db.url },
    `http://127.0.0.1:${t.port}/health`,
  );
  await t.api.register('bench.banking@example.test');
  t.importBanks = [
    await t.api.newBank(await t.api.newLedger('1181')),
    await t.api.newBank(await t.api.newLedger('1182')),
  ];
}

/** (a) round r on each target's own account: seed 80,000 lines (year N), then measure importing 80,000 new ones (year N+1). */
async function importRound(t: Target, round: number) {
  const bankId = t.importBanks[round];
  await t.api.importTo(bankId, files[round * 2]);
  const pid = t.proc!.pid!;
  const rssBefore = kb(proc(pid), 'VmRSS');
  peakResettable = resetPeak(pid);
  const cpu0 = processCpuMs(pid);
  const { ms, out } = await t.api.importTo(bankId, files[round * 2 + 1]);
  const cpu1 = processCpuMs(pid);
  const peak = kb(proc(pid), 'VmHWM');
  t.imports.push({
    ms,
    peakMb: peak / 1024,
    rssBeforeMb: rssBefore / 1024,
    cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
    result: JSON.stringify({ imported: out.imported, duplicates: out.duplicates, errors: out.errors.length }),
  });
}

/** (b) the list's data (BankingApi.seedSuggestionList), and the suggestions its first page carries. */
async function seedList(t: Target) {
  const seeded = await t.api.seedSuggestionList(t.db!.url);
  t.listUrl = seeded.listUrl;
  t.suggestions = (await json(await fetch(t.listUrl, { headers: t.api.headers }))).suggestions.length;
  return seeded;
}

try {
  for (const t of targets) await setUp(t);
  const after = targets[0];
  bare = await startProcess(
    `${ROOT}/bench/servers/bare-banking.ts`,
    { DATABASE_URL: after.db!.url, PORT: String(BARE_PORT) },
    `http://127.0.0.1:${BARE_PORT}/health`,
  );

  // (b) first, on databases that nothing else has written to yet (no autovacuum of the imports'
  // tables running): sequential requests interleaved over the targets, then 50 connections on each in turn.
  const listed = [];
  for (const t of targets) listed.push(await seedList(t));
  for (let i = 0; i < 50; i++)
    for (const t of targets) await fetch(t.listUrl, { headers: t.api.headers }).then((r) => r.arrayBuffer());
  for (let i = 0; i < 500; i++) {
    for (const t of targets) {
      const t0 = performance.now();
      await fetch(t.listUrl, { headers: t.api.headers }).then((r) => r.arrayBuffer());
      t.seq.push(performance.now() - t0);
    }
  }
  for (const t of targets)
    t.load = await load({ url: t.listUrl, headers: t.api.headers, seconds: SECONDS, connections: 50 });
  bareLoad = await load({
    url: `http://127.0.0.1:${BARE_PORT}/lines?account=${listed[0].bankId}&ledger=${listed[0].ledger}`,
    seconds: SECONDS,
    connections: 50,
  });
  // (a) rounds interleaved over the targets, so that the machine's noise hits all of them alike.
  for (let round = 0; round < 2; round++)
    for (const t of round % 2 ? [...targets].reverse() : targets) await importRound(t, round);
  // Baselines on the same files: a plain table, and the app's own table (triggers, same keys).
  const sameSchemaBank = await after.api.newBank(await after.api.newLedger('1183'));
  for (const table of ['plain', 'app'] as const) {
    const account = table === 'app' ? sameSchemaBank : '00000000-0000-4000-8000-0000000000aa';
    const url = `http://127.0.0.1:${BARE_PORT}/import?table=${table}&account=${account}&org=${after.api.orgId}`;
    await json(await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: files[0] }));
    const t0 = performance.now();
    await json(await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: files[1] }));
    bareRuns[table].push(performance.now() - t0);
  }
} finally {
  if (bare) await stopProcess(bare);
  for (const t of targets) {
    if (t.proc) await stopProcess(t.proc);
    await t.db?.drop();
  }
  rmSync(dataDir, { recursive: true, force: true });
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const fmt = (r: Awaited<ReturnType<typeof load>>) =>
  `${r.requestsPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`;
const what = (t: Target) =>
  t.name === 'before'
    ? `before (${commitOf(BEFORE!)}, as its \`npm start\` runs it: ${t.script.endsWith('.js') ? 'compiled' : 'under tsx'})`
    : `after (${HEAD}, compiled, as \`npm start\` runs it)`;
const section = `Command: \`${BEFORE ? `BENCH_BEFORE=<checkout of ${commitOf(BEFORE)}> ` : ''}npm run bench -- banking\` on ${HEAD} (real PostgreSQL at 127.0.0.1:5432, ${machine()}, app with NODE_ENV=production and RATE_LIMITS=off, server and client in separate processes on loopback, 2 cores shared with other sessions' builds and tests: load average ${LOAD_START} at the start, ${load1()} at the end, so figures are noisy). Each service runs on its own database; the measurements alternate between them (import rounds and sequential requests interleaved) so that noise hits them alike.

(a) Import of a 5 MB statement of ${ROWS.toLocaleString('en')} new rows (4.9 MB) into a bank account that already holds ${ROWS.toLocaleString('en')} lines, through
the API (multipart upload read as raw bytes, then in one transaction csv-parse streaming over them and
${Math.ceil(ROWS / 5000)} batched \`INSERT ... SELECT FROM unnest ... ON CONFLICT DO NOTHING\` written while the next batch is parsed,
fingerprints with the n-th occurrence, RLS and the statement-level audit trigger included). Peak RSS is the server
process's VmHWM, reset just before the import${peakResettable ? '' : ' (reset not permitted here: the figure is the peak since start)'};
"RSS before" is what the process held before it. Server CPU is the server process's user + system time during the import (the database's work is not in it).

| service | round | wall (target < 2 s) | peak RSS (target < 150 MB) | RSS before | server CPU | result |
|---|---|---|---|---|---|---|
${targets.flatMap((t) => t.imports.map((r, i) => `| ${what(t)} | ${i + 1} | ${ms(r.ms)} | ${r.peakMb.toFixed(0)} MB | ${r.rssBeforeMb.toFixed(0)} MB | ${r.cpuMs === null ? '-' : ms(r.cpuMs)} | ${r.result} |`)).join('\n')}
| baseline: bare Fastify + pg, same file, plain table (no triggers, no RLS), same unique key | 1 | ${ms(bareRuns.plain[0])} | | | | |
| baseline: bare Fastify + pg, same file, the app's \`bank_transactions\` (its triggers run; this checkout's schema) | 1 | ${ms(bareRuns.app[0])} | | | | |

(b) \`GET /bank-accounts/:id/transactions?reconciled=false&perPage=20\`: 20 unreconciled lines on a
ledger account with 100,000 postings; the response carries ${targets.map((t) => `${t.suggestions} (${t.name})`).join(', ')} suggestions (A15 scoring in
TypeScript over candidates read in one query: per line the partial indexes on (debit/credit account, amount_key) WHERE NOT
reconciled, the partial indexes on the open document postings by (account, date), and for lines with a reference the (account, date) indexes for their own day).

| service | 500 sequential requests (target p50 < 20 ms) | 50 connections, ${SECONDS} s |
|---|---|---|
${targets.map((t) => `| ${what(t)} | p50 ${percentile(t.seq, 50).toFixed(1)} ms, p95 ${percentile(t.seq, 95).toFixed(1)} ms | ${fmt(t.load!)} |`).join('\n')}
| baseline: bare Fastify + pg, the page query and the amount-candidate query | | ${fmt(bareLoad!)} |
`;
writeSection('Banking (issue 10)', section);
console.log(section);

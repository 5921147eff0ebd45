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
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { accountingEnv, createBenchDatabase, json, load, machine, percentile, ROOT, startProcess, stopProcess, writeSection } from './lib.js';

const APP_PORT = 3940;
const BARE_PORT = 3941;
const ROWS = 80_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), 'bench-banking-'));

/** A statement of ROWS lines just under 5 MB; `year` keeps two statements apart. */
function statement(year: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const d = `${year}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const amount = ((i % 2 ? -1 : 1) * (((i * 7919) % 500_000) + 1) / 100).toFixed(2);
    lines.push(`${d},Uplata racun br ${String(i).padStart(6, '0')} usluge,${amount},RF${String(i).padStart(8, '0')}`);
  }
  const buf = Buffer.from(`${lines.join('\n')}\n`);
  if (buf.length > 5 * 1024 * 1024) throw new Error(`statement too large: ${buf.length}`);
  return buf;
}

function multipart(csv: Buffer) {
  const boundary = '----benchboundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    csv,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** Linux: reset the process's peak RSS (clear_refs 5), then read it back after the work. */
const proc = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
const kb = (status: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
function resetPeak(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const db = await createBenchDatabase('bench_banking');
const admin = new pg.Client({ connectionString: db.url });
try {
  const app = await startProcess(`${ROOT}/services/accounting/src/server.ts`, { ...accountingEnv(APP_PORT, { DATA_DIR: dataDir }), ACCOUNTING_DATABASE_URL: db.url }, `http://127.0.0.1:${APP_PORT}/health`);
  const bare = await startProcess(`${ROOT}/bench/servers/bare-banking.ts`, { DATABASE_URL: db.url, PORT: String(BARE_PORT) }, `http://127.0.0.1:${BARE_PORT}/health`);
  const base = `http://127.0.0.1:${APP_PORT}/api/v1`;
  const importRuns: Array<{ ms: number; peakMb: number; rssBeforeMb: number; result: string }> = [];
  const bareRuns: Record<'plain' | 'app', number[]> = { plain: [], app: [] };
  let seq: number[] = [];
  let appLoad: Awaited<ReturnType<typeof load>>;
  let bareLoad: Awaited<ReturnType<typeof load>>;
  let suggestionsShown = 0;
  let peakResettable = false;
  try {
    await admin.connect();
    const reg = await json(await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organizationName: 'Bench d.o.o.', country: 'RS', baseCurrency: 'RSD', language: 'sr', email: 'bench.banking@example.test', password: 'Correct-Horse-9', fullName: 'Bench' }),
    }));
    const orgId = reg.organization.id as string;
    const headers = { authorization: `Bearer ${reg.tokens.accessToken}`, 'content-type': 'application/json' };
    const accounts = (await json(await fetch(`${base}/accounts`, { headers }))).data as Array<{ id: string; code: string }>;
    const code = (c: string) => accounts.find((a) => a.code === c)!.id;
    const newLedger = async (c: string) => (await json(await fetch(`${base}/accounts`, { method: 'POST', headers, body: JSON.stringify({ code: c, name: `Bank ${c}`, accountTypeId: 1 }) }))).id as string;
    const newBank = async (accountId: string) =>
      (await json(await fetch(`${base}/bank-accounts`, { method: 'POST', headers, body: JSON.stringify({ accountId, bankName: 'Bench banka', currencyCode: 'RSD' }) }))).id as string;
    const importTo = async (bankId: string, csv: Buffer) => {
      const { body, type } = multipart(csv);
      const t0 = performance.now();
      const res = await fetch(`${base}/bank-accounts/${bankId}/import`, { method: 'POST', headers: { authorization: headers.authorization, 'content-type': type }, body });
      const out = await json(res);
      return { ms: performance.now() - t0, out };
    };

    // (a) two rounds, each on its own account: seed 80,000 lines (statement of year N), then
    // import 80,000 new ones (year N+1) and measure that.
    const files = [statement(2021), statement(2022), statement(2023), statement(2024)];
    const appBank = [await newBank(await newLedger('1181')), await newBank(await newLedger('1182'))];
    for (let round = 0; round < 2; round++) {
      const bankId = appBank[round];
      await importTo(bankId, files[round * 2]);
      const rssBefore = kb(proc(app.pid!), 'VmRSS');
      peakResettable = resetPeak(app.pid!);
      const { ms, out } = await importTo(bankId, files[round * 2 + 1]);
      const peak = kb(proc(app.pid!), 'VmHWM');
      importRuns.push({ ms, peakMb: peak / 1024, rssBeforeMb: rssBefore / 1024, result: JSON.stringify({ imported: out.imported, duplicates: out.duplicates, errors: out.errors.length }) });
    }
    // Baselines on the same files: a plain table, and the app's own table (triggers, same keys).
    const sameSchemaBank = await newBank(await newLedger('1183'));
    for (const table of ['plain', 'app'] as const) {
      const account = table === 'app' ? sameSchemaBank : '00000000-0000-4000-8000-0000000000aa';
      const url = `http://127.0.0.1:${BARE_PORT}/import?table=${table}&account=${account}&org=${orgId}`;
      await json(await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: files[0] }));
      const t0 = performance.now();
      await json(await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: files[1] }));
      bareRuns[table].push(performance.now() - t0);
    }

    // (b) 100,000 postings on one ledger account (seeded in SQL as the owner: half money in,
    // half money out, amounts and dates spread), then 20 bank lines.
    const ledger = await newLedger('1190');
    const bankId = await newBank(ledger);
    await admin.query(
      `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id, amount,
         currency_code, exchange_rate, base_amount, reference_type, locked)
       SELECT $1, DATE '2024-01-01' + (g % 900), 'Seed posting ' || g,
         CASE WHEN g % 2 = 0 THEN $2::uuid ELSE $4::uuid END, CASE WHEN g % 2 = 0 THEN $3::uuid ELSE $2::uuid END,
         ((g * 7919) % 500000 + 1) / 100.0, 'RSD', 1, ((g * 7919) % 500000 + 1) / 100.0, 'manual', false
       FROM generate_series(1, 100000) g`,
      [orgId, ledger, code('4900'), code('5000')],
    );
    await admin.query('ANALYZE ledger_transactions');
    const lines = Array.from({ length: 20 }, (_, i) => {
      const g = 1000 + i * 37; // amounts and dates of existing postings, half of them shifted by days
      const amount = (((g * 7919) % 500000) + 1) / 100;
      const date = new Date(Date.UTC(2024, 0, 1) + ((g % 900) + (i % 2 ? 0 : 2)) * 86_400_000).toISOString().slice(0, 10);
      return `${date},Line ${i},${(g % 2 === 0 ? amount : -amount).toFixed(2)},`;
    });
    await importTo(bankId, Buffer.from(`${lines.join('\n')}\n`));
    const listUrl = `${base}/bank-accounts/${bankId}/transactions?reconciled=false&perPage=20`;
    const first = await json(await fetch(listUrl, { headers }));
    suggestionsShown = first.suggestions.length;
    for (let i = 0; i < 50; i++) await fetch(listUrl, { headers }).then((r) => r.arrayBuffer());
    seq = [];
    for (let i = 0; i < 500; i++) {
      const t0 = performance.now();
      await fetch(listUrl, { headers }).then((r) => r.arrayBuffer());
      seq.push(performance.now() - t0);
    }
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/lines?account=${bankId}&ledger=${ledger}`;
    appLoad = await load({ url: listUrl, headers, seconds: SECONDS, connections: 50 });
    bareLoad = await load({ url: bareUrl, seconds: SECONDS, connections: 50 });
  } finally {
    await admin.end().catch(() => {});
    await stopProcess(bare);
    await stopProcess(app);
  }

  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const fmt = (r: Awaited<ReturnType<typeof load>>) => `${r.requestsPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`;
  const section = `Command: \`node --import tsx bench/banking.ts\` (or \`npm run bench -- banking\`; real PostgreSQL at 127.0.0.1:5432, ${machine()}, app with NODE_ENV=production and RATE_LIMITS=off, server and client in separate processes on loopback, 2 cores shared with seven other sessions' builds and tests, so figures are noisy).

(a) Import of a 5 MB statement of ${ROWS.toLocaleString('en')} new rows (4.9 MB) into a bank account that already holds ${ROWS.toLocaleString('en')} lines, through
the API (multipart upload read as raw bytes, then in one transaction csv-parse streaming over them and
${Math.ceil(ROWS / 5000)} batched \`INSERT ... SELECT FROM unnest ... ON CONFLICT DO NOTHING\` written while the next batch is parsed,
fingerprints with the n-th occurrence, RLS and the statement-level audit trigger included). Peak RSS is the server
process's VmHWM, reset just before the import${peakResettable ? '' : ' (reset not permitted here: the figure is the peak since start)'};
"RSS before" is what the process held before it (the server runs under tsx, see the note below).

| what | result |
|---|---|
${importRuns.map((r, i) => `| app, round ${i + 1} | wall ${ms(r.ms)} (target < 2 s), peak RSS ${r.peakMb.toFixed(0)} MB (target < 150 MB; RSS before ${r.rssBeforeMb.toFixed(0)} MB), ${r.result} |`).join('\n')}
| baseline: bare Fastify + pg, same file, plain table (no triggers, no RLS), same unique key | ${ms(bareRuns.plain[0])} |
| baseline: bare Fastify + pg, same file, the app's \`bank_transactions\` (audit trigger runs) | ${ms(bareRuns.app[0])} |

(b) \`GET /bank-accounts/:id/transactions?reconciled=false&perPage=20\`: 20 unreconciled lines on a
ledger account with 100,000 postings; the response carries ${suggestionsShown} suggestions (A15 scoring in
TypeScript over candidates read with the partial indexes on (debit/credit account, amount_key) WHERE NOT
reconciled and the (debit/credit account, date) indexes).

| what | result |
|---|---|
| app, 500 sequential requests | p50 ${seq.length ? percentile(seq, 50).toFixed(1) : '-'} ms (target < 20 ms), p95 ${seq.length ? percentile(seq, 95).toFixed(1) : '-'} ms |
| app, 50 connections, ${SECONDS} s | ${fmt(appLoad!)} |
| baseline: bare Fastify + pg, the page query and the amount-candidate query, 50 connections | ${fmt(bareLoad!)} |
`;
  writeSection('Banking (issue 10)', section);
  console.log(section);
} finally {
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Issue 10 follow-up: what V8 and allocator settings that lower the accounting service's resident
 * memory cost on its hot paths. The compiled service runs once per variant (node flags and
 * environment), all on one database; GET /api/v1/auth/me and the bank transactions list with
 * suggestions (bench/banking.ts's list data) are loaded at 50 connections in interleaved rounds
 * (the variants' order alternating), and each round records req/s and the server process's CPU
 * time per request (from /proc), which moves far less with the machine's load than req/s.
 * Usage: npm run bench -- flags-duel
 *   BENCH_VARIANTS="V8 defaults|growing 50 %:--heap-growing-percent=50"
 *   (name:comma-separated node flags and VAR=value pairs; the first is the reference; by default
 *   V8's defaults and the flags scripts/node-flags.ts gives the service)
 *   BENCH_ROUNDS (8), BENCH_SECONDS (5)
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../scripts/node-flags.js';
import { BankingApi, serviceVariants } from './banking-data.js';
import {
  accountingEnv,
  createBenchDatabase,
  load,
  machine,
  median,
  processCpuMs,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const HEAD = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const variants = serviceVariants(SERVICE_NODE_FLAGS.accounting).map((v, i) => ({
  ...v,
  port: 3950 + i,
  proc: undefined as ChildProcess | undefined,
  rps: {} as Record<string, number[]>,
  cpu: {} as Record<string, number[]>,
}));

const script = await serviceEntry(ROOT, 'accounting');
const db = await createBenchDatabase('bench_flags_duel');
const dataDir = mkdtempSync(join(tmpdir(), 'bench-flags-duel-'));
const routes = ['GET /api/v1/auth/me', 'GET /api/v1/bank-accounts/:id/transactions (suggestions)'];
try {
  for (const v of variants) {
    v.proc = await startProcess(
      script,
      { ...accountingEnv(v.port, { DATA_DIR: dataDir }), ACCOUNTING_DATABASE_URL: db.url, ...v.env },
      `http://127.0.0.1:${v.port}/health`,
      v.args,
      { serviceFlags: false },
    );
  }
  const api = new BankingApi(`http://127.0.0.1:${variants[0].port}/api/v1`);
  await api.register('bench.flags@example.test');
  const { listUrl } = await api.seedSuggestionList(db.url);
  const url = (route: string, port: number) =>
    route === routes[0]
      ? `http://127.0.0.1:${port}/api/v1/auth/me`
      : listUrl.replace(`:${variants[0].port}/`, `:${port}/`);
  for (const v of variants)
    for (const r of routes) await load({ url: url(r, v.port), headers: api.headers, seconds: 2, connections: 50 }); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of routes) {
      for (const v of round % 2 ? [...variants].reverse() : variants) {
        const pid = v.proc!.pid!;
        const c0 = processCpuMs(pid);
        const res = await load({ url: url(r, v.port), headers: api.headers, seconds: SECONDS, connections: 50 });
        const c1 = processCpuMs(pid);
        v.rps[r] ??= [];
        v.rps[r].push(res.requestsPerSec);
        if (c0 !== null && c1 !== null && res.total > 0) {
          v.cpu[r] ??= [];
          v.cpu[r].push(Math.round(((c1 - c0) * 1000) / res.total));
        }
      }
    }
  }
} finally {
  for (const v of variants) if (v.proc) await stopProcess(v.proc);
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

const ref = variants[0];
const body = `Command: \`npm run bench -- flags-duel\` on ${HEAD} (real PostgreSQL at 127.0.0.1:5432, ${machine()}; the service compiled as \`npm start\` runs it, NODE_ENV=production, RATE_LIMITS=off; every variant on one database; ${ROUNDS} interleaved rounds of ${SECONDS} s per route and variant at 50 connections, medians; server CPU per request is the service process's user + system time over a round divided by its responses). Ratios are to the first variant.

| variant | route | req/s (median) | ratio | server CPU µs per request (median) | ratio | rounds (req/s) |
|---|---|---:|---:|---:|---:|---|
${variants
  .flatMap((v) =>
    routes.map((r) => {
      const rps = median(v.rps[r] ?? []);
      const cpu = median(v.cpu[r] ?? []);
      return `| ${v.name}${v.spec && v.spec !== v.name ? ` (\`${v.spec}\`)` : ''} | ${r} | ${rps.toLocaleString('en')} | ${(rps / median(ref.rps[r])).toFixed(2)} | ${cpu} | ${(cpu / median(ref.cpu[r])).toFixed(2)} | ${(v.rps[r] ?? []).join(' / ')} |`;
    }),
  )
  .join('\n')}
`;
writeSection('Accounting start-up flags: what lower memory costs (issue 10)', body);
console.log(body);

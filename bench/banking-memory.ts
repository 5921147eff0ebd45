/**
 * Issue 10, where the statement import's peak RSS comes from: the compiled accounting service through
 * the banking benchmark's phases (bench/banking.ts: the list with suggestions, 550 sequential requests and
 * 10 s at 50 connections, then two rounds of a seed import and a measured import of 80,000 lines), with
 * the process's RSS and V8's heap spaces read after each phase (bench/memory-probe.cjs, preloaded).
 * Each variant of the service's start-up (node flags, environment) runs in its own process on its own
 * database, one after the other.
 * Usage: npm run bench -- banking-memory
 *   BENCH_VARIANTS="V8 defaults|semi-space 8 MB:--max-semi-space-size=8|MALLOC_ARENA_MAX=2:MALLOC_ARENA_MAX=2"
 *   (name:comma-separated node flags and VAR=value pairs; by default V8's defaults and the flags
 *   scripts/node-flags.ts gives the service)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../scripts/node-flags.js';
import { BankingApi, kb, procStatus, resetPeak, serviceVariants, statement } from './banking-data.js';
import {
  accountingEnv,
  createBenchDatabase,
  load,
  machine,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const PORT = 3945;
const HEAD = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const variants = serviceVariants(SERVICE_NODE_FLAGS.accounting);

interface Snapshot {
  phase: string;
  rss: number;
  peak: number;
  heap: string;
  external: number;
}
const files = [statement(2021), statement(2022), statement(2023), statement(2024)];
const script = await serviceEntry(ROOT, 'accounting');
const results: Array<{ name: string; spec: string; snaps: Snapshot[] }> = [];

for (const v of variants) {
  const db = await createBenchDatabase('bench_banking_memory');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-banking-memory-'));
  const probeFile = join(dataDir, 'memory.json');
  const proc = await startProcess(
    script,
    {
      ...accountingEnv(PORT, { DATA_DIR: dataDir }),
      ACCOUNTING_DATABASE_URL: db.url,
      MEMORY_PROBE_FILE: probeFile,
      ...v.env,
    },
    `http://127.0.0.1:${PORT}/health`,
    ['-r', join(ROOT, 'bench/memory-probe.cjs'), ...v.args],
    { serviceFlags: false },
  );
  const pid = proc.pid!;
  const snaps: Snapshot[] = [];
  const snap = async (phase: string) => {
    await new Promise((r) => setTimeout(r, 600)); // the probe writes every 250 ms
    const m = existsSync(probeFile) ? JSON.parse(readFileSync(probeFile, 'utf8')) : null;
    const s = procStatus(pid);
    const sp = (name: string) => (m ? `${m.spaces[name].used}/${m.spaces[name].size}` : '-');
    snaps.push({
      phase,
      rss: kb(s, 'VmRSS') / 1024,
      peak: kb(s, 'VmHWM') / 1024,
      heap: `new ${sp('new_space')}, old ${sp('old_space')}`,
      external: m?.external ?? NaN,
    });
  };
  try {
    const api = new BankingApi(`http://127.0.0.1:${PORT}/api/v1`);
    await snap('started');
    await api.register('bench.memory@example.test');
    const banks = [await api.newBank(await api.newLedger('1181')), await api.newBank(await api.newLedger('1182'))];
    const { listUrl } = await api.seedSuggestionList(db.url);
    for (let i = 0; i < 550; i++) await fetch(listUrl, { headers: api.headers }).then((r) => r.arrayBuffer());
    await snap('after 550 sequential list requests');
    const l = await load({ url: listUrl, headers: api.headers, seconds: 10, connections: 50 });
    await snap(`after 10 s of the list at 50 connections (${l.requestsPerSec} req/s)`);
    for (let round = 0; round < 2; round++) {
      await api.importTo(banks[round], files[round * 2]);
      await snap(`round ${round + 1}: after the seed import`);
      resetPeak(pid);
      const { ms, out } = await api.importTo(banks[round], files[round * 2 + 1]);
      await snap(`round ${round + 1}: measured import (${out.imported} lines, ${Math.round(ms)} ms); peak is its own`);
    }
  } finally {
    await stopProcess(proc);
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  results.push({ name: v.name, spec: v.spec, snaps });
}

const body = `Command: \`npm run bench -- banking-memory\` on ${HEAD} (real PostgreSQL at 127.0.0.1:5432, ${machine()}; the service compiled as \`npm start\` runs it, NODE_ENV=production, RATE_LIMITS=off). Each variant is a fresh process on a fresh database taken through the banking benchmark's phases; after each phase: the process's RSS, its peak since start (or, on a measured import's row, since just before that import), V8's new and old space (used/committed, MB) and external memory (Buffers), read by a preloaded probe (bench/memory-probe.cjs). Requests per second are noted for orientation only: the variants run one after the other, not interleaved.

${results
  .map(
    (r) => `**${r.name}**${r.spec && r.spec !== r.name ? ` (\`${r.spec}\`)` : ''}

| phase | RSS | peak | V8 heap (MB used/committed) | external |
|---|---:|---:|---|---:|
${r.snaps.map((s) => `| ${s.phase} | ${s.rss.toFixed(0)} MB | ${s.peak.toFixed(0)} MB | ${s.heap} | ${s.external} MB |`).join('\n')}
`,
  )
  .join('\n')}`;
writeSection('Banking import memory by phase (issue 10)', body);
console.log(body);

/**
 * Issue 31: WAL bytes per request of each write route next to its physical baseline (the same
 * statements bench/servers/bare-physical.ts runs for hot-paths). Unlike req/s, the WAL a request
 * writes does not move with the machine's load, so these figures are exact on a busy machine. Each
 * side sends its requests one after another to a service on a database of its own; the WAL of that
 * database over the run is read back (bench/wal-records.ts) and divided by the requests.
 *   npm run bench -- wal       BENCH_WAL_REQUESTS (per side, default 300),
 *                              BENCH_BEFORE=<checkout> (also the service of another checkout, e.g. the
 *                              commit before a change, with its own node_modules),
 *                              BENCH_KEEP_DB=1 (keeps the service's database and prints its URL)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  accountingEnv,
  createBenchDatabase,
  json,
  machine,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';
import { setupPhysical } from './physical-schema.js';
import { closeWal, relationNames, type WalUse, walLsn, walSince } from './wal-records.js';

const N = Number(process.env.BENCH_WAL_REQUESTS ?? 300);
const BEFORE = process.env.BENCH_BEFORE;
const KEEP_DB = process.env.BENCH_KEEP_DB === '1';
const H = { 'content-type': 'application/json' };
const today = new Date().toISOString().slice(0, 10);
const ITEMS = [
  { description: 'Konsultantske usluge', quantity: 2, unitPrice: 1500, taxRate: 20 },
  { description: 'Održavanje', quantity: 1, unitPrice: 499.99, taxRate: 10 },
  { description: 'Licenca', quantity: 3, unitPrice: 33.335, taxRate: 20 },
];
let nextPort = 4100 + Math.floor(Math.random() * 800);
const dataDir = mkdtempSync(join(tmpdir(), 'bench-wal-'));
const commitOf = (dir: string) => execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir }).toString().trim();

type Send = () => Promise<Response>;
interface Measured {
  use: WalUse;
  names: Map<string, string>;
}

/** N requests one after another (after 20 unmeasured ones), and the WAL of the database over them. */
async function measure(dbUrl: string, send: Send, settle = 0): Promise<Measured> {
  for (let i = 0; i < 20; i++) await json(await send());
  // The ledger-fold job runs once a second: let it fold the warm-up's moves before the run starts.
  if (settle) await new Promise((r) => setTimeout(r, settle));
  const from = await walLsn();
  for (let i = 0; i < N; i++) await json(await send());
  if (settle) await new Promise((r) => setTimeout(r, settle));
  return { use: await walSince(new URL(dbUrl).pathname.slice(1), from), names: await relationNames(dbUrl) };
}

/** The accounting service of a checkout on a database of its own: WAL per posting and per invoice. */
async function accounting(root: string) {
  const db = await createBenchDatabase('bench_wal_acc');
  const port = nextPort++;
  const child = await startProcess(
    await serviceEntry(root, 'accounting'),
    accountingEnv(port, { ACCOUNTING_DATABASE_URL: db.url, DATA_DIR: dataDir }),
    `http://127.0.0.1:${port}/health`,
  );
  try {
    const base = `http://127.0.0.1:${port}/api/v1`;
    const reg = await json(
      await fetch(`${base}/auth/register`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify({
          organizationName: 'Wal',
          country: 'RS',
          baseCurrency: 'RSD',
          language: 'sr',
          email: 'wal@example.test',
          password: 'Correct-Horse-9',
          fullName: 'Bench',
        }),
      }),
    );
    const auth = { ...H, authorization: `Bearer ${reg.tokens.accessToken}` };
    const accounts = await json(await fetch(`${base}/accounts`, { headers: auth }));
    const ids = Object.fromEntries(accounts.data.map((a: { code: string; id: string }) => [a.code, a.id]));
    const customer = await json(
      await fetch(`${base}/contacts`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ type: 'customer', name: 'Kupac Čačić', email: 'kupac@example.test' }),
      }),
    );
    const posting = await measure(
      db.url,
      () =>
        fetch(`${base}/transactions`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            transactionDate: today,
            description: 'bench entry',
            debitAccountId: ids['1000'],
            creditAccountId: ids['1100'],
            amount: 12.34,
          }),
        }),
      2500,
    );
    const invoice = await measure(db.url, () =>
      fetch(`${base}/invoices`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          customerId: customer.id,
          invoiceDate: today,
          dueDate: today,
          items: ITEMS,
          notes: 'Bench',
        }),
      }),
    );
    return { posting, invoice };
  } finally {
    await stopProcess(child);
    if (KEEP_DB) console.log(`kept ${db.url}`);
    else await db.drop();
  }
}

async function physical() {
  const db = await createBenchDatabase('bench_wal_phys');
  const [o] = await setupPhysical(db.url, 1, 0);
  const port = nextPort++;
  const child = await startProcess(
    `${ROOT}/bench/servers/bare-physical.ts`,
    { DATABASE_URL: db.url, PORT: String(port) },
    `http://127.0.0.1:${port}/health`,
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    const posting = await measure(db.url, () =>
      fetch(`${url}/transactions`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify({
          org: o.org,
          transactionDate: today,
          description: 'bench entry',
          debitAccountId: o.debit,
          creditAccountId: o.credit,
          amount: 12.34,
        }),
      }),
    );
    const invoice = await measure(db.url, () =>
      fetch(`${url}/invoices`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify({ org: o.org, customerId: o.customer, invoiceDate: today, dueDate: today, items: ITEMS }),
      }),
    );
    return { posting, invoice };
  } finally {
    await stopProcess(child);
    await db.drop();
  }
}

const per = (m: Measured) => Math.round(m.use.bytes / N);
const records = (m: Measured) => (m.use.records / N).toFixed(1);
function detail(m: Measured): string {
  return [...m.use.byRelation]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([k, v]) => `${m.names.get(k) ?? k} ${Math.round(v.bytes / N)}`)
    .join(', ');
}

try {
  const now = await accounting(ROOT);
  const was = BEFORE ? await accounting(BEFORE) : null;
  const phys = await physical();
  const rows = (['posting', 'invoice'] as const).map((job) => {
    const route = job === 'posting' ? 'POST /api/v1/transactions' : 'POST /api/v1/invoices (3 items)';
    const ratio = per(now[job]) / per(phys[job]);
    const target = job === 'posting' ? 2 : null;
    const state = target === null ? 'no target' : ratio <= target ? 'met' : 'missed';
    const before = was ? ` ${per(was[job]).toLocaleString('en')} |` : '';
    return `| accounting ${route} | ${per(now[job]).toLocaleString('en')} (${records(now[job])} records) |${before} ${per(phys[job]).toLocaleString('en')} (${records(phys[job])} records) | **${ratio.toFixed(2)}** | ${target === null ? '-' : `≤ ${target}`} | ${state} |`;
  });
  const lines = [
    `Command: \`${BEFORE ? `BENCH_BEFORE=<checkout of ${commitOf(BEFORE)}> ` : ''}npm run bench -- wal\` on ${commitOf(ROOT)} (BENCH_WAL_REQUESTS=${N}; real PostgreSQL 15 at 127.0.0.1:5432 with pg_walinspect, ${machine()}). Requests sent one after another, each side on a database of its own; the WAL of that database over the run (records naming its relations, and the commit records of their transactions, full-page images left out) divided by the requests. Exact on a busy machine: the bytes do not depend on the load.`,
    '',
    `| route | service WAL bytes per request |${BEFORE ? ` before (${commitOf(BEFORE)}) |` : ''} physical baseline | **service / physical** | target | |`,
    `|---|---:|${BEFORE ? '---:|' : ''}---:|---:|---:|---|`,
    ...rows,
    '',
    "Where the service's bytes go (bytes per request, by relation or record type):",
    '',
    `- posting: ${detail(now.posting)}`,
    `- invoice: ${detail(now.invoice)}`,
    `- physical posting: ${detail(phys.posting)}`,
    `- physical invoice: ${detail(phys.invoice)}`,
  ];
  const body = lines.join('\n');
  console.log(body);
  writeSection('WAL bytes per write (issue 31)', body);
} finally {
  await closeWal();
  rmSync(dataDir, { recursive: true, force: true });
}

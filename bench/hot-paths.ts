/**
 * Issue 9 benchmark: every hot route of both services next to two baselines measured in the same
 * run, at 50 connections on real PostgreSQL:
 *  - physical: bare Fastify + pg doing the minimal statements of the job on plain tables (no
 *    triggers, no RLS, no auth) in their own database (bench/servers/bare-physical.ts);
 *  - same schema: bare Fastify + pg running the service's statements on the service's database as
 *    the table owner (bench/servers/bare-me, bare-posting, bare-invoice, bare-same-schema).
 * Accounting routes run with one organization and with 20 (each connection cycles through the 20
 * organizations' tokens, so consecutive requests on a pooled connection change organization).
 * Phases alternate (app, same schema, physical, per route, the order rotating each round); the
 * figures are medians of the rounds.
 *   npm run bench -- hot-paths          BENCH_SECONDS (per phase, default 3), BENCH_ROUNDS (default 5),
 *                                       BENCH_WARMUP (s per side before the rounds, default 3)
 *   BENCH_PROFILE=dir                   also writes a CPU profile of each service (node --cpu-prof)
 *   BENCH_BEFORE=checkout               also measures both services of another checkout (a worktree of
 *                                       the commit before a change, with its node_modules) in the same
 *                                       rounds, on their own databases: "before" next to "service"
 *   BENCH_KEEP_DB=1                     keeps the databases (printed at the end) for EXPLAIN
 *   BENCH_ONLY=regex                    measures only the routes whose name matches (for profiling;
 *                                       BENCHMARKS.md is then left alone)
 *   BENCH_SIDES=app,same,...            with BENCH_ONLY: measures only these sides (app, before, same,
 *                                       physical), e.g. the service alone under `perf record`
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { withCheckDigits } from '../services/remittance/src/lib/national-id.js';
import {
  accountingEnv,
  type CycledRequest,
  createBenchDatabase,
  json,
  type LoadResult,
  load,
  machine,
  median,
  postgresCpu,
  postgresCpuSince,
  processCpuMs,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';
import { setupPhysical, setupPhysicalHistory } from './physical-schema.js';

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const LOAD_START = loadNow();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = 50;
const ORGS = 20;
const INVOICES = 200;
/** Remittance users with a history of HISTORY payments each (issue 31: one user and 100). */
const REMIT_USERS = 100;
const HISTORY = 200;
const PROFILE = process.env.BENCH_PROFILE;
const BEFORE = process.env.BENCH_BEFORE;
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const SIDES = ONLY && process.env.BENCH_SIDES ? new Set(process.env.BENCH_SIDES.split(',')) : null;
/** A port nobody listens on now (other benchmarks may run on the same machine). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const PORT = { app: 0, remit: 0, beforeApp: 0, beforeRemit: 0, physical: 0, me: 0, posting: 0, invoice: 0, same: 0 };
for (const key of Object.keys(PORT) as Array<keyof typeof PORT>) PORT[key] = await freePort();
const url = (port: number) => `http://127.0.0.1:${port}`;
// One profile per thread (tsx runs a loader thread too); the largest file of a directory is the main thread.
const profileArgs = (name: string) => (PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}/${name}`] : []);

const ITEMS = [
  { description: 'Konsultantske usluge', quantity: 2, unitPrice: 1500, taxRate: 20 },
  { description: 'Održavanje', quantity: 1, unitPrice: 499.99, taxRate: 10 },
  { description: 'Licenca', quantity: 3, unitPrice: 33.335, taxRate: 20 },
];
const today = new Date().toISOString().slice(0, 10);
const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Org {
  id: string;
  userId: string;
  sessionId: string;
  token: string;
  customerId: string;
  debit: string;
  credit: string;
}

async function registerOrg(base: string, name: string): Promise<Org> {
  const reg = await json(
    await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: JSON_HEADERS,
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
  const token = reg.tokens.accessToken as string;
  const headers = { authorization: `Bearer ${token}`, ...JSON_HEADERS };
  const accounts = await json(await fetch(`${base}/accounts`, { headers }));
  const ids = Object.fromEntries(accounts.data.map((a: { code: string; id: string }) => [a.code, a.id])) as Record<
    string,
    string
  >;
  const customer = await json(
    await fetch(`${base}/contacts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'customer', name: 'Kupac Čačić', email: 'kupac@example.test' }),
    }),
  );
  return {
    id: reg.organization.id,
    userId: reg.user.id,
    sessionId: JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid,
    token,
    customerId: customer.id,
    debit: ids['1000'],
    credit: ids['1100'],
  };
}

/** 200 sent invoices per organization, written as the owner without audit rows (a bulk load). */
async function fillInvoices(dbUrl: string, orgs: Org[]): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query('SET session_replication_role = replica');
    for (const o of orgs) {
      await c.query(
        `INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code,
           exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, status)
         SELECT $1, 'INV-2025-' || lpad(g::text, 4, '0'), $2, 'Kupac ' || g, DATE '2025-01-01' + g, DATE '2025-02-01' + g, 'RSD',
           1, 1000 + g, 0, 0, 1000 + g, 1000 + g, 'sent'
         FROM generate_series(1, $3) AS g`,
        [o.id, o.customerId, INVOICES],
      );
    }
    await c.query('SET session_replication_role = origin');
    await c.query('ANALYZE');
  } finally {
    await c.end();
  }
}

/** Valid Norwegian national ids, one per bench user (the mock eID signs in whoever it is told). */
const benchPids: string[] = [];
function benchPid(i: number): string {
  for (let k = benchPids.length * 3; benchPids.length <= i; k++) {
    const n = withCheckDigits(
      `${String(1 + (k % 28)).padStart(2, '0')}${String(1 + ((k >> 5) % 12)).padStart(2, '0')}${80 + ((k >> 9) % 15)}${String(100 + (k % 97)).padStart(3, '0')}`,
    );
    if (n && !benchPids.includes(n)) benchPids.push(n);
  }
  return benchPids[i];
}

/** Signs in through the mock eID (mobile flow) and links two bank accounts to the user. */
async function remittanceUser(base: string, dbUrl: string, i = 0) {
  // RFC 8252: the app keeps the PKCE verifier and sends its challenge (issue 33 item 1).
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const start = await json(
    await fetch(`${base}/v1/auth/eid/initiate?platform=mobile&code_challenge=${challenge}&code_challenge_method=S256`),
  );
  const authorizeUrl = new URL(start.redirectUrl);
  authorizeUrl.searchParams.set('pid', benchPid(i));
  authorizeUrl.searchParams.set('given_name', `Bench${i}`);
  const authorize = await fetch(authorizeUrl, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location')!, base);
  const signIn = await json(
    await fetch(`${base}/v1/auth/eid/callback`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
        code_verifier: verifier,
      }),
    }),
  );
  const token = signIn.token as string;
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  let user: string;
  try {
    user = (
      await c.query(`SELECT user_id FROM sessions WHERE token_hash = $1`, [
        createHash('sha256').update(token).digest('hex'),
      ])
    ).rows[0].user_id as string;
    await c.query(
      `INSERT INTO ob_consents (id, user_id, provider, external_consent_id, status, scope, surface, callback_state, granted_at, expires_at)
       VALUES ($2, $1, 'sandbox', 'ext-bench', 'active', 'AISP+PISP', 'api', 'bench-state-' || $2, now(), now() + interval '90 days')`,
      [user, `obc_bench${i}`],
    );
    await c.query(
      `INSERT INTO bank_accounts (id, user_id, consent_id, provider, external_account_id, bank_name, account_number, balance, currency, is_primary)
       VALUES ($2 || '_1', $1, $2, 'sandbox', $2 || '-ext-1', 'DNB', '12345678903', 10250.50, 'NOK', true),
              ($2 || '_2', $1, $2, 'sandbox', $2 || '-ext-2', 'DNB', '12345678911', 310.00, 'NOK', false)`,
      [user, `obc_bench${i}`],
    );
  } finally {
    await c.end();
  }
  return { token, hash: createHash('sha256').update(token).digest('hex'), user, account: `obc_bench${i}_1` };
}

/** 200 payments in each user's history, written as the owner without triggers (a bulk load). */
async function fillHistory(dbUrl: string, users: Array<{ user: string; account: string }>): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query('SET session_replication_role = replica');
    for (const u of users) {
      await c.query(
        `INSERT INTO recipients (id, user_id, name, country, currency, bank_account) VALUES ($1 || '_r', $1, 'Marko Marković', 'RS', 'RSD', 'RS35260005601001611379')`,
        [u.user],
      );
      await c.query(
        `INSERT INTO transactions (id, user_id, type, status, bank_account_id, recipient_id, recipient_name, recipient_country, from_account,
           send_amount, send_currency, receive_amount, receive_currency, exchange_rate, fee, total, reference, created_at)
         SELECT $1 || '_t' || g, $1, 'remittance', 'completed', $2, $1 || '_r', 'Marko Marković', 'RS', '12345678903',
           100 + g, 'NOK', (100 + g) * 10, 'RSD', 10, 0, 100 + g, 'REF' || g, now() - g * interval '1 hour'
         FROM generate_series(1, $3) AS g`,
        [u.user, u.account, HISTORY],
      );
    }
    await c.query('SET session_replication_role = origin');
    await c.query('ANALYZE');
  } finally {
    await c.end();
  }
}

interface Route {
  name: string;
  target: number;
  app: { port: number; requests: CycledRequest[] };
  before: { port: number; requests: CycledRequest[] } | null;
  same: { port: number; requests: CycledRequest[] } | null;
  physical: { port: number; requests: CycledRequest[] };
}

const dbs = await Promise.all([
  createBenchDatabase('bench_hot_acc'),
  createBenchDatabase('bench_hot_remit'),
  createBenchDatabase('bench_hot_phys'),
]);
const [accDb, remitDb, physDb] = dbs;
const beforeDbs = BEFORE
  ? await Promise.all([createBenchDatabase('bench_hot_acc_before'), createBenchDatabase('bench_hot_remit_before')])
  : null;
if (beforeDbs) dbs.push(...beforeDbs);
const commitOf = (dir: string) => execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir }).toString().trim();
const HEAD = commitOf(ROOT);
const BEFORE_COMMIT = BEFORE ? commitOf(BEFORE) : null;
const dataDir = mkdtempSync(join(tmpdir(), 'bench-hot-'));
const children: Awaited<ReturnType<typeof startProcess>>[] = [];
type Side = 'app' | 'before' | 'same' | 'physical';
const results = new Map<string, Record<Side, LoadResult[]>>();
/** Server process per port, for the CPU time each request costs it (robust to a busy machine). */
const pids = new Map<number, number | undefined>();
const cpuPerRequest = new Map<string, Record<Side, number[]>>();
/** PostgreSQL's CPU µs per response (all its processes) and the load generator's (this process). */
const pgPerRequest = new Map<string, Record<Side, number[]>>();
const loaderPerRequest = new Map<string, Record<Side, number[]>>();
const routes: Route[] = [];
try {
  const start = async (script: string, env: Record<string, string>, ready: string, args: string[] = []) => {
    const child = await startProcess(script, env, ready, args);
    children.push(child);
    pids.set(Number(new URL(ready).port), child.pid);
    return child;
  };
  /** Both services of a checkout on their own databases, with their organizations and user. */
  const services = async (
    root: string,
    ports: { app: number; remit: number },
    acc: string,
    remit: string,
    profile: string,
  ) => {
    await start(
      await serviceEntry(root, 'accounting'),
      accountingEnv(ports.app, { ACCOUNTING_DATABASE_URL: acc, DATA_DIR: dataDir }),
      `${url(ports.app)}/health`,
      profileArgs(`${profile}accounting`),
    );
    await start(
      await serviceEntry(root, 'remittance'),
      {
        REMITTANCE_PORT: String(ports.remit),
        REMITTANCE_DATABASE_URL: remit,
        DATA_DIR: dataDir,
        NODE_ENV: 'development',
        RATE_LIMITS: 'off',
        LOG_LEVEL: 'warn',
      },
      `${url(ports.remit)}/api/health`,
      profileArgs(`${profile}remittance`),
    );
    const base = `${url(ports.app)}/api/v1`;
    // Readers (200 invoices each) and writers are different organizations, so the list stays 200 long.
    const readers: Org[] = [];
    const writers: Org[] = [];
    for (let i = 0; i < ORGS; i++) readers.push(await registerOrg(base, `BenchRead${i}`));
    for (let i = 0; i < ORGS; i++) writers.push(await registerOrg(base, `BenchWrite${i}`));
    await fillInvoices(acc, readers);
    const remitUser = await remittanceUser(url(ports.remit), remit);
    // The history readers are other users, so the payments of no write phase change their pages.
    const historyUsers: Array<Awaited<ReturnType<typeof remittanceUser>>> = [];
    for (let i = 1; i <= REMIT_USERS; i++) historyUsers.push(await remittanceUser(url(ports.remit), remit, i));
    await fillHistory(remit, historyUsers);
    return { ports, readers, writers, remitUser, historyUsers };
  };
  type Checkout = Awaited<ReturnType<typeof services>>;
  const now = await services(ROOT, { app: PORT.app, remit: PORT.remit }, accDb.url, remitDb.url, '');
  const then =
    BEFORE && beforeDbs
      ? await services(
          BEFORE,
          { app: PORT.beforeApp, remit: PORT.beforeRemit },
          beforeDbs[0].url,
          beforeDbs[1].url,
          'before-',
        )
      : null;
  // The physical baseline, too, reads organizations that no write phase adds invoices to.
  const phys = await setupPhysical(physDb.url, 2 * ORGS, INVOICES);
  const physHistory = await setupPhysicalHistory(physDb.url, REMIT_USERS, HISTORY);
  const physReaders = phys.slice(0, ORGS);
  const physWriters = phys.slice(ORGS);

  await start(
    `${ROOT}/bench/servers/bare-physical.ts`,
    { DATABASE_URL: physDb.url, PORT: String(PORT.physical) },
    `${url(PORT.physical)}/health`,
    profileArgs('physical'),
  );
  await start(
    `${ROOT}/bench/servers/bare-me.ts`,
    { DATABASE_URL: accDb.url, PORT: String(PORT.me) },
    `${url(PORT.me)}/health`,
  );
  await start(
    `${ROOT}/bench/servers/bare-posting.ts`,
    { DATABASE_URL: accDb.url, PORT: String(PORT.posting) },
    `${url(PORT.posting)}/health`,
  );
  await start(
    `${ROOT}/bench/servers/bare-invoice.ts`,
    { DATABASE_URL: accDb.url, PORT: String(PORT.invoice) },
    `${url(PORT.invoice)}/health`,
  );
  await start(
    `${ROOT}/bench/servers/bare-same-schema.ts`,
    { DATABASE_URL: accDb.url, REMITTANCE_DATABASE_URL: remitDb.url, PORT: String(PORT.same) },
    `${url(PORT.same)}/health`,
  );

  const bearer = (o: Org) => ({ authorization: `Bearer ${o.token}` });
  const entry = (o: Org) => ({
    transactionDate: today,
    description: 'bench entry',
    debitAccountId: o.debit,
    creditAccountId: o.credit,
    amount: 12.34,
  });
  const invoice = (o: Org) => ({
    customerId: o.customerId,
    invoiceDate: today,
    dueDate: due,
    items: ITEMS,
    notes: 'Bench',
  });
  const post = (path: string, headers: Record<string, string>, body: object): CycledRequest => ({
    method: 'POST',
    path,
    headers: { ...headers, ...JSON_HEADERS },
    body: JSON.stringify(body),
  });
  const get = (path: string, headers: Record<string, string> = {}): CycledRequest => ({ method: 'GET', path, headers });

  /** The service side of each route for one checkout (its own organizations and ports). */
  const serviceSide = (c: Checkout, n: number) => {
    const r = c.readers.slice(0, n);
    const w = c.writers.slice(0, n);
    return {
      me: { port: c.ports.app, requests: r.map((o) => get('/api/v1/auth/me', bearer(o))) },
      list: { port: c.ports.app, requests: r.map((o) => get('/api/v1/invoices?perPage=20', bearer(o))) },
      posting: { port: c.ports.app, requests: w.map((o) => post('/api/v1/transactions', bearer(o), entry(o))) },
      invoice: { port: c.ports.app, requests: w.map((o) => post('/api/v1/invoices', bearer(o), invoice(o))) },
      remitMe: {
        port: c.ports.remit,
        requests: [get('/v1/auth/me', { authorization: `Bearer ${c.remitUser.token}` })],
      },
      rates: { port: c.ports.remit, requests: [get('/api/rates')] },
      history: (users: number) => ({
        port: c.ports.remit,
        requests: c.historyUsers
          .slice(0, users)
          .map((u) => get('/v1/transactions?limit=20', { authorization: `Bearer ${u.token}` })),
      }),
    };
  };
  const { readers, writers, remitUser } = now;
  for (const n of [1, ORGS]) {
    const label = n === 1 ? 'one organization' : `${n} organizations`;
    const app = serviceSide(now, n);
    const was = then ? serviceSide(then, n) : null;
    const r = readers.slice(0, n);
    const w = writers.slice(0, n);
    const p = physReaders.slice(0, n);
    const pw = physWriters.slice(0, n);
    routes.push(
      {
        name: `accounting GET /auth/me, ${label}`,
        target: 0.85,
        app: app.me,
        before: was?.me ?? null,
        same: { port: PORT.me, requests: r.map((o) => get(`/me?user=${o.userId}&session=${o.sessionId}`)) },
        physical: { port: PORT.physical, requests: p.map((o) => get(`/me?user=${o.user}`)) },
      },
      {
        name: `accounting GET /invoices?perPage=20 (200 invoices), ${label}`,
        target: 0.7,
        app: app.list,
        before: was?.list ?? null,
        same: { port: PORT.same, requests: r.map((o) => get(`/invoices?org=${o.id}`)) },
        physical: { port: PORT.physical, requests: p.map((o) => get(`/invoices?org=${o.org}`)) },
      },
      {
        name: `accounting POST /transactions, ${label}`,
        target: 0.75,
        app: app.posting,
        before: was?.posting ?? null,
        same: { port: PORT.posting, requests: w.map((o) => post('/post', {}, { ...entry(o), org: o.id })) },
        physical: {
          port: PORT.physical,
          requests: pw.map((o) =>
            post('/transactions', {}, { ...entry({ debit: o.debit, credit: o.credit } as Org), org: o.org }),
          ),
        },
      },
      {
        name: `accounting POST /invoices (3 items), ${label}`,
        target: 0.75,
        app: app.invoice,
        before: was?.invoice ?? null,
        // The same-schema baseline numbers in 2027, so its counter is not the service's.
        same: {
          port: PORT.invoice,
          requests: w.map((o) =>
            post('/invoices', {}, { ...invoice(o), org: o.id, invoiceDate: '2027-01-10', dueDate: '2027-02-10' }),
          ),
        },
        physical: {
          port: PORT.physical,
          requests: pw.map((o) => post('/invoices', {}, { ...invoice({ customerId: o.customer } as Org), org: o.org })),
        },
      },
    );
  }
  const app1 = serviceSide(now, 1);
  const was1 = then ? serviceSide(then, 1) : null;
  routes.push(
    {
      name: 'remittance GET /v1/auth/me (2 bank accounts)',
      target: 0.85,
      app: app1.remitMe,
      before: was1?.remitMe ?? null,
      same: { port: PORT.same, requests: [get(`/remit-me?hash=${remitUser.hash}`)] },
      physical: { port: PORT.physical, requests: [get(`/me?user=${phys[0].user}`)] },
    },
    ...[1, REMIT_USERS].map((users) => ({
      name: `remittance GET /v1/transactions (20 of 200), ${users === 1 ? 'one user' : `${users} users`}`,
      target: 0.7,
      app: app1.history(users),
      before: was1?.history(users) ?? null,
      same: null,
      physical: {
        port: PORT.physical,
        requests: physHistory.slice(0, users).map((u) => get(`/history?user=${u}`)),
      },
    })),
    {
      name: 'remittance GET /api/rates',
      target: 0.5,
      app: app1.rates,
      before: was1?.rates ?? null,
      same: null,
      physical: { port: PORT.physical, requests: [get('/hello')] },
    },
  );

  if (ONLY) routes.splice(0, routes.length, ...routes.filter((r) => ONLY.test(r.name)));
  // Every route answers 2xx before anything is measured.
  for (const route of routes) {
    for (const side of [route.app, route.before, route.same, route.physical]) {
      if (!side) continue;
      const q = side.requests[0];
      const res = await fetch(`${url(side.port)}${q.path}`, { method: q.method, headers: q.headers, body: q.body });
      if (res.status >= 300) throw new Error(`${route.name} on ${side.port}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  }
  const run = (side: { port: number; requests: CycledRequest[] }, seconds: number) =>
    load({ url: url(side.port), requests: side.requests, seconds, connections: CONNECTIONS });
  /** A measured phase, with the server's CPU µs per response. */
  const measure = async (side: { port: number; requests: CycledRequest[] }, seconds: number) => {
    const before = processCpuMs(pids.get(side.port));
    const pgBefore = postgresCpu();
    const loaderBefore = process.cpuUsage();
    const r = await run(side, seconds);
    const loader = process.cpuUsage(loaderBefore);
    const pgUsed = postgresCpuSince(pgBefore);
    const after = processCpuMs(pids.get(side.port));
    const per = (ms: number) => (r.total > 0 ? (ms * 1000) / r.total : NaN);
    return {
      r,
      cpuUs: before !== null && after !== null ? per(after - before) : NaN,
      pgUs: pgUsed !== null ? per(pgUsed) : NaN,
      loaderUs: per((loader.user + loader.system) / 1000),
    };
  };
  for (const route of routes) {
    for (const s of ['app', 'before', 'same', 'physical'] as const) {
      const side = route[s];
      if (side && (!SIDES || SIDES.has(s))) await run(side, WARMUP);
    } // warm-up: JIT, prepared statements, caches
    results.set(route.name, { app: [], before: [], same: [], physical: [] });
    cpuPerRequest.set(route.name, { app: [], before: [], same: [], physical: [] });
    pgPerRequest.set(route.name, { app: [], before: [], same: [], physical: [] });
    loaderPerRequest.set(route.name, { app: [], before: [], same: [], physical: [] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const route of routes) {
      const sides = (['app', 'before', 'same', 'physical'] as const).filter(
        (s) => route[s] && (!SIDES || SIDES.has(s)),
      );
      const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
      for (const s of order) {
        const { r, cpuUs, pgUs, loaderUs } = await measure(route[s]!, SECONDS);
        if (r.non2xx || r.errors) console.warn(`${route.name} ${s}: non-2xx ${r.non2xx}, errors ${r.errors}`);
        results.get(route.name)![s].push(r);
        cpuPerRequest.get(route.name)![s].push(cpuUs);
        pgPerRequest.get(route.name)![s].push(pgUs);
        loaderPerRequest.get(route.name)![s].push(loaderUs);
      }
      const got = results.get(route.name)!;
      const cpu = cpuPerRequest.get(route.name)!;
      const pgc = pgPerRequest.get(route.name)!;
      const ldc = loaderPerRequest.get(route.name)!;
      const us = (s: Side) =>
        cpu[s].length
          ? `${Math.round(cpu[s].at(-1)!)}+${Math.round(pgc[s].at(-1)!)}+${Math.round(ldc[s].at(-1)!)} µs`
          : '-';
      console.log(
        `${route.name}: app ${got.app.at(-1)?.requestsPerSec} (${us('app')}), ${BEFORE ? `before ${got.before.at(-1)?.requestsPerSec} (${us('before')}), ` : ''}same ${got.same.at(-1)?.requestsPerSec ?? '-'} (${us('same')}), physical ${got.physical.at(-1)?.requestsPerSec} (${us('physical')})`,
      );
    }
  }
} finally {
  for (const child of children.reverse()) await stopProcess(child).catch(() => {});
  // BENCH_KEEP_DB=1 leaves the databases for EXPLAIN and profiles; drop them by hand afterwards.
  if (process.env.BENCH_KEEP_DB) console.log(`kept databases ${dbs.map((d) => d.url).join(' ')}`);
  else for (const db of dbs) await db.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}

const med = (rs: LoadResult[]) => Math.round(median(rs.map((r) => r.requestsPerSec)));
const rows = routes.map((route) => {
  const r = results.get(route.name)!;
  const app = med(r.app);
  const physical = med(r.physical);
  const same = r.same.length ? med(r.same) : null;
  const ratio = app / physical;
  const errors = [...r.app, ...r.before, ...r.same, ...r.physical].reduce((a, x) => a + x.non2xx + x.errors, 0);
  const was = r.before.length ? med(r.before) : null;
  const beforeCells = BEFORE_COMMIT
    ? ` ${was === null ? '-' : was.toLocaleString('en')} | ${was === null ? '-' : `**${(was / physical).toFixed(2)}**`} |`
    : '';
  const cpu = cpuPerRequest.get(route.name)!;
  const pgc = pgPerRequest.get(route.name)!;
  const us = (xs: number[]) => (xs.length && xs.every(Number.isFinite) ? String(Math.round(median(xs))) : '-');
  return `| ${route.name} | ${us(cpu.app)}${BEFORE_COMMIT ? ` / ${us(cpu.before)}` : ''} / ${us(cpu.same)} / ${us(cpu.physical)} | ${us(pgc.app)}${BEFORE_COMMIT ? ` / ${us(pgc.before)}` : ''} / ${us(pgc.same)} / ${us(pgc.physical)} | ${app.toLocaleString('en')} | ${same === null ? '-' : same.toLocaleString('en')} | ${same === null ? '-' : (app / same).toFixed(2)} | ${physical.toLocaleString('en')} | **${ratio.toFixed(2)}** | ${route.target.toFixed(2)} | ${ratio >= route.target ? 'met' : 'missed'} | ${r.app.map((x) => x.requestsPerSec).join(' / ')} | ${errors} |${beforeCells}`;
});
const body = `Command: \`${BEFORE_COMMIT ? `BENCH_BEFORE=<checkout of ${BEFORE_COMMIT}> ` : ''}npm run bench -- hot-paths\` on ${HEAD} (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_WARMUP=${WARMUP}; real PostgreSQL at 127.0.0.1:5432, ${machine()}, autocannon ${CONNECTIONS} connections, services and baselines with 10 pooled connections each, server and load generator in separate processes on loopback). The machine has 2 cores shared by the load generator, Node, PostgreSQL and whatever else runs (load average ${LOAD_START} at the start, ${loadNow()} at the end): phases alternate (per route: service, ${BEFORE_COMMIT ? 'the before checkout, ' : ''}same-schema baseline, physical baseline, the order rotating every round) so noise hits all three alike; figures are medians of ${ROUNDS} rounds of ${SECONDS} s. Server CPU per request is the server process's user + system time (from /proc) over a phase divided by the responses it sent: unlike req/s it hardly depends on what else the machine runs; PostgreSQL CPU per request is the same for all of the server's processes (its backends and background workers). The services run compiled, as \`npm start\` runs them (scripts/build.ts); the baselines run through tsx.

- physical baseline: bare Fastify + pg, the minimal statements on plain tables in their own database (no triggers, RLS, auth, validation): \`bench/servers/bare-physical.ts\`; \`GET /hello\` (no database) for the rates.
- same-schema baseline: bare Fastify + pg running the service's statements on the service's database as the table owner (\`bench/servers/bare-me.ts\`, \`bare-posting.ts\`, \`bare-invoice.ts\`, \`bare-same-schema.ts\`).
- 20 organizations: each connection cycles through 20 organizations' tokens (and the baselines through 20 organizations' ids), so consecutive requests on a pooled database connection belong to different organizations. Readers (200 invoices each) and writers are different organizations.

| route | server CPU µs per request (service${BEFORE_COMMIT ? ' / before' : ''} / same schema / physical) | PostgreSQL CPU µs per request (same order) | service req/s | same-schema req/s | service / same schema | physical req/s | **service / physical** | target | | service rounds | non-2xx + errors |${BEFORE_COMMIT ? ` before (${BEFORE_COMMIT}) req/s | **before / physical** |` : ''}
|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|${BEFORE_COMMIT ? '---:|---:|' : ''}
${rows.join('\n')}

What the service does per request now (round trips after the token, which a bounded cache of
verified tokens in packages/shared/src/tokens.ts checks without crypto on repeat use; the
signed-in caller is kept per instance and dropped when PostgreSQL notifies a change to it,
packages/shared/src/notified-cache.ts, docs/session-cache.md):
- GET /auth/me, both services: no statement (the caller kept since the session's first request;
  one statement on a miss: session, user and organization or profile by keys).
- GET /invoices: one statement that answers the version of the organization's invoices and, only
  when it is not the version of the page this instance keeps, the page and its total
  (InvoiceListCache, migration 20261125000100): with the invoices unchanged, as here, the page is
  not computed again. Generic plans (services/accounting/src/db/settings.ts): the statement is not
  planned again at every execution.
- POST /transactions (base currency): BEGIN + context + the posting statement (account check under
  FOR KEY SHARE, the posting; a trigger appends it to ledger_moves, one row for its two sides) + COMMIT
  in one round trip. No shared row is updated: the ledger-fold job adds the moves to the running totals
  and the day and month sums once a second, many postings at a time (migrations 20261127000200,
  20261202003100).
- POST /invoices: BEGIN + context + the customer (locked FOR KEY SHARE with the organization and the
  user, so the foreign-key checks wait for nothing later) with the organization's tax rates in the same
  statement (two statements before 2026-11-28), then the items, the numbered insert (counter,
  invoice) and the COMMIT in one round trip: the counter row is locked only while the server writes
  the invoice and commits; the items' triggers have run before it (since ddf5397).
- With 20 organizations, a connection that must switch organization sends the context script in
  the same round trip as the statement (node-postgres pipeline mode): no extra round trip.
- remittance GET /api/rates: no statement (rates in memory, at most 5 s old on another instance).
`;
if (!ONLY) writeSection('Hot paths against bare baselines (issue 9)', body);
console.log(body);

/**
 * Issue 11 benchmark, on real PostgreSQL: POST /v1/transactions/remittance requests/s (the whole
 * service: Bearer session check, the one-query look-up of recipient, account, consent and rate,
 * the intent committed (conditional debit, the transaction and its payment initiation), then the
 * sandbox bank's debit and payment outside any transaction, then its answer recorded with the move
 * to processing; issue 30) next to a bare Fastify route running one transaction of a
 * conditional UPDATE and two INSERTs on plain tables, in the same run, 50 connections:
 *  (a) payments spread over 100 users (target: the service at 50 % of the baseline or more);
 *  (b) all payments from one account (serialises on that balance row, in both).
 * Development mode (production refuses the sandbox bank), RATE_LIMITS=off, settlement job off.
 * Usage: node --import tsx bench/remittance-payments.ts   (or npm run bench -- remittance-payments)
 *   BENCH_SECONDS (per measurement, default 10), BENCH_ROUNDS (default 3)
 *   BENCH_PROFILE=dir      also writes a CPU profile of the service (node --cpu-prof; the largest
 *                          file of dir/remittance is the main thread: bench/profile-summary.ts reads it)
 *   BENCH_BEFORE=checkout  also measures the service of another checkout (e.g. a worktree of the
 *                          commit before a change, with its node_modules) in the same rounds, on
 *                          its own database
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import {
  createBenchDatabase,
  json,
  load,
  machine,
  postgresCpu,
  postgresCpuSince,
  processCpuMs,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const APP_PORT = 3920;
const BARE_PORT = 3921;
const BEFORE_PORT = 3922;
const PROFILE = process.env.BENCH_PROFILE;
const BEFORE = process.env.BENCH_BEFORE;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const USERS = 100;

const fmt = (r: Awaited<ReturnType<typeof load>> & { cpuUs: number; pgUs: number }) =>
  `${r.requestsPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}, server process CPU ${r.cpuUs} µs per request, PostgreSQL CPU ${r.pgUs} µs per request`;
const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;

/** Mock eID sign-in on /v1, sandbox consent, one recipient: a user ready to pay. */
async function user(base: string, i: number): Promise<{ token: string; recipientId: string }> {
  // RFC 8252: the app keeps the PKCE verifier and sends its challenge (issue 33 item 1).
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const start = await json(
    await fetch(`${base}/v1/auth/eid/initiate?platform=mobile&code_challenge=${challenge}&code_challenge_method=S256`),
  );
  const authorize = new URL(start.redirectUrl);
  // Synthetic national ids (month + 80), one per user: DDMMYY + individual number + check digits.
  const { withCheckDigits } = await import('../services/remittance/src/lib/national-id.js');
  let pid: string | null = null;
  for (let k = 0; !pid; k++)
    pid = withCheckDigits(
      `${String(1 + (i % 28)).padStart(2, '0')}${81 + ((i + k) % 12)}${70 + (i % 20)}${String(100 + i).padStart(3, '0')}`,
    );
  authorize.searchParams.set('pid', pid);
  const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
  const signedIn = await json(
    await fetch(`${base}/v1/auth/eid/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
        platform: 'mobile',
        code_verifier: verifier,
      }),
    }),
  );
  const auth = { authorization: `Bearer ${signedIn.token}`, 'content-type': 'application/json' };
  const consent = await json(
    await fetch(`${base}/v1/open-banking/consents`, { method: 'POST', headers: auth, body: '{}' }),
  );
  // The sandbox bank's pages on this server, whatever public base URL the links carry (as the tests do).
  const local = (link: string) => {
    const u = new URL(link, base);
    return `${base}${u.pathname}${u.search}`;
  };
  const bank = await fetch(local(consent.data.redirectUrl), { redirect: 'manual' });
  const back2 = bank.headers.get('location');
  if (!back2) throw new Error(`sandbox bank: ${bank.status} ${await bank.text()}`);
  await fetch(local(back2), { redirect: 'manual' });
  const recipient = await json(
    await fetch(`${base}/v1/recipients`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'Marko Marković',
        country: 'RS',
        currency: 'RSD',
        bankAccount: 'RS35260005601001611379',
      }),
    }),
  );
  return { token: signedIn.token, recipientId: recipient.data.id };
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

const serviceEnv = (port: number, url: string) => ({
  REMITTANCE_PORT: String(port),
  REMITTANCE_DATABASE_URL: url,
  REMITTANCE_PUBLIC_URL: `http://127.0.0.1:${port}`,
  NODE_ENV: 'development',
  RATE_LIMITS: 'off',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000',
  SETTLEMENT_INTERVAL: '0s',
  CONSENT_EXPIRY_INTERVAL: '0s',
  BALANCE_SYNC_INTERVAL: '0s',
});

/** 100 users ready to pay on the service at base, with money for every request of the run. */
async function prepare(base: string, dbUrl: string) {
  const users = [];
  for (let i = 0; i < USERS; i++) users.push(await user(base, i));
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  await admin.query(
    `UPDATE bank_accounts SET balance = 1000000000; UPDATE sandbox_bank_accounts SET balance = 1000000000`,
  );
  await admin.end();
  return users.map((u) => ({
    method: 'POST' as const,
    path: '/v1/transactions/remittance',
    headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ recipientId: u.recipientId, amount: 150.5 }),
  }));
}

const commit = (dir: string) => execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir }).toString().trim();
const HEAD = commit(ROOT);
const BEFORE_COMMIT = BEFORE ? commit(BEFORE) : null;

type Load = Awaited<ReturnType<typeof load>> & { cpuUs: number; pgUs: number };
/**
 * A measured load, with the server process's CPU µs per response and all PostgreSQL processes' (from
 * /proc; nothing else uses the server meanwhile).
 */
async function measured(pid: number | undefined, run: () => ReturnType<typeof load>): Promise<Load> {
  const before = processCpuMs(pid);
  const pgBefore = postgresCpu();
  const r = await run();
  const after = processCpuMs(pid);
  const pgMs = postgresCpuSince(pgBefore);
  return {
    ...r,
    cpuUs: before !== null && after !== null && r.total > 0 ? Math.round(((after - before) * 1000) / r.total) : NaN,
    pgUs: pgMs !== null && r.total > 0 ? Math.round((pgMs * 1000) / r.total) : NaN,
  };
}
const db = await createBenchDatabase('bench_remit');
const beforeDb = BEFORE ? await createBenchDatabase('bench_remit_before') : null;
try {
  const app = await startProcess(
    await serviceEntry(ROOT, 'remittance'),
    serviceEnv(APP_PORT, db.url),
    `http://127.0.0.1:${APP_PORT}/api/health`,
    PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}/remittance`] : [],
  );
  const bare = await startProcess(
    `${ROOT}/bench/servers/bare-remittance.ts`,
    { DATABASE_URL: db.url, PORT: String(BARE_PORT) },
    `http://127.0.0.1:${BARE_PORT}/health`,
  );
  const before =
    BEFORE && beforeDb
      ? await startProcess(
          await serviceEntry(BEFORE, 'remittance'),
          serviceEnv(BEFORE_PORT, beforeDb.url),
          `http://127.0.0.1:${BEFORE_PORT}/api/health`,
        )
      : null;
  const rows: Array<{ load: string; app: Load; bare: Load; before: Load | null }> = [];
  try {
    const base = `http://127.0.0.1:${APP_PORT}`;
    const requests = await prepare(base, db.url);
    const beforeRequests = before && beforeDb ? await prepare(`http://127.0.0.1:${BEFORE_PORT}`, beforeDb.url) : null;
    const appUrl = `${base}/v1/transactions/remittance`;
    const beforeUrl = `http://127.0.0.1:${BEFORE_PORT}/v1/transactions/remittance`;
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/remit`;
    const bareHeaders = { 'content-type': 'application/json' };
    const bareBodies = Array.from({ length: USERS }, (_, i) =>
      JSON.stringify({ account: `acc${i}`, amount: '150.50', fee: '0.75', total: '151.25' }),
    );
    // One shared sequence over the 100 users: concurrent requests go to different users.
    const bareRequests = bareBodies.map((body) => ({
      method: 'POST' as const,
      path: '/remit',
      headers: bareHeaders,
      body,
    }));
    let n = 0;
    const appSpread = (seconds: number) =>
      measured(app.pid, () =>
        load({ url: appUrl, seconds, connections: CONNECTIONS, pick: () => requests[n++ % USERS] }),
      );
    const beforeSpread = (seconds: number) =>
      measured(before?.pid, () =>
        load({ url: beforeUrl, seconds, connections: CONNECTIONS, pick: () => beforeRequests![n++ % USERS] }),
      );
    const bareSpread = (seconds: number) =>
      measured(bare.pid, () =>
        load({ url: bareUrl, seconds, connections: CONNECTIONS, pick: () => bareRequests[n++ % USERS] }),
      );
    await appSpread(2);
    await bareSpread(2);
    if (beforeRequests) await beforeSpread(2);
    // Interleaved rounds, so that the machine's noise hits all sides alike.
    for (let r = 0; r < ROUNDS; r++) {
      rows.push({
        load: 'spread',
        app: await appSpread(SECONDS),
        bare: await bareSpread(SECONDS),
        before: beforeRequests ? await beforeSpread(SECONDS) : null,
      });
    }
    const single = (pid: number | undefined, url: string, req: (typeof requests)[number]) =>
      measured(pid, () =>
        load({ url, method: 'POST', seconds: SECONDS, connections: CONNECTIONS, headers: req.headers, body: req.body }),
      );
    for (let r = 0; r < ROUNDS; r++) {
      rows.push({
        load: 'single',
        app: await single(app.pid, appUrl, requests[0]),
        bare: await measured(bare.pid, () =>
          load({
            url: bareUrl,
            method: 'POST',
            headers: bareHeaders,
            body: bareBodies[0],
            seconds: SECONDS,
            connections: CONNECTIONS,
          }),
        ),
        before: beforeRequests ? await single(before?.pid, beforeUrl, beforeRequests[0]) : null,
      });
    }
  } finally {
    await stopProcess(app);
    await stopProcess(bare);
    if (before) await stopProcess(before);
  }

  const spread = rows.filter((r) => r.load === 'spread');
  const singles = rows.filter((r) => r.load === 'single');
  const single = singles[singles.length - 1];
  const ratio = (r: (typeof rows)[number]) => r.app.requestsPerSec / r.bare.requestsPerSec;
  const body = `Command: \`${BEFORE_COMMIT ? `BENCH_BEFORE=<checkout of ${BEFORE_COMMIT}> ` : ''}npm run bench -- remittance-payments\` on ${HEAD} (${machine()}, real PostgreSQL on the same machine, ${CONNECTIONS} connections,
${SECONDS} s per measurement, service in development mode (production refuses the sandbox bank) with \`RATE_LIMITS=off\` and
the settlement job off. The machine is shared with other work (load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} on 2 cores at the end of the run), so absolute
figures are noisy; service and baseline ran interleaved, round by round.

| what | result |
|---|---|
${spread.map((r, i) => `| round ${i + 1}, spread over ${USERS} users: service / baseline | ${r.app.requestsPerSec} / ${r.bare.requestsPerSec} req/s (${pct(r.app.requestsPerSec, r.bare.requestsPerSec)}) |`).join('\n')}
| service, spread over ${USERS} users (last round) | ${fmt(spread[spread.length - 1].app)} |
| baseline, spread over ${USERS} users (last round) | ${fmt(spread[spread.length - 1].bare)} |
| **service / baseline, spread (median of rounds)** | **${Math.round(median(spread.map(ratio)) * 100)} %** (target 50 %) |
${singles.map((r, i) => `| round ${i + 1}, all from one account: service / baseline | ${r.app.requestsPerSec} / ${r.bare.requestsPerSec} req/s (${pct(r.app.requestsPerSec, r.bare.requestsPerSec)}) |`).join('\n')}
| service, all from one account (last round) | ${fmt(single.app)} |
| baseline, all from one account (last round) | ${fmt(single.bare)} |
| **service / baseline, one account (median of rounds)** | **${Math.round(median(singles.map(ratio)) * 100)} %** |
${
  BEFORE_COMMIT
    ? `${spread.map((r, i) => `| round ${i + 1}, spread: service before (${BEFORE_COMMIT}) / baseline | ${r.before!.requestsPerSec} / ${r.bare.requestsPerSec} req/s (${pct(r.before!.requestsPerSec, r.bare.requestsPerSec)}) |`).join('\n')}
| **service before (${BEFORE_COMMIT}) / baseline, spread (median of rounds)** | **${Math.round(median(spread.map((r) => r.before!.requestsPerSec / r.bare.requestsPerSec)) * 100)} %** |
| service before (${BEFORE_COMMIT}), spread (last round) | ${fmt(spread[spread.length - 1].before!)} |
${singles.map((r, i) => `| round ${i + 1}, all from one account: service before (${BEFORE_COMMIT}) / baseline | ${r.before!.requestsPerSec} / ${r.bare.requestsPerSec} req/s (${pct(r.before!.requestsPerSec, r.bare.requestsPerSec)}) |`).join('\n')}
| service before (${BEFORE_COMMIT}), all from one account (last round) | ${fmt(single.before!)} |
| **service before (${BEFORE_COMMIT}) / baseline, one account (median of rounds)** | **${Math.round(median(singles.map((r) => r.before!.requestsPerSec / r.bare.requestsPerSec)) * 100)} %** |
`
    : ''
}
The service's request does more than the baseline: 4 round trips, 7 statements and 3 commits against the
baseline's 5, 5 and 1. The JWT is checked from the verified-token cache (no crypto on repeat use), the session
row inside the payment's intent. (1) BEGIN, the user's transaction-local context and the look-up (session, user,
recipient, account and consent, rate; one JSON column) in one pipelined write; (2) the intent (issue 30): the
conditional debit, the 'initiating' transaction and its payment initiation in one statement, with COMMIT in
the same write; (3) the sandbox bank, outside any transaction, called with the order the request just stored:
the payment already booked under the end-to-end id, or the consent check, its debit and payment, in one
statement (its own commit); (4) the bank's answer recorded and the remittance moved to processing in one
statement (its own commit), returning the payment the answer is built from. All payments from one account
serialise on that account's row lock for the intent's statement and its commit (and on the sandbox bank's row
for its statement), in the baseline for the whole transaction.
Development mode changes nothing on this path: with \`LOG_LEVEL=warn\` no request is logged, and no logging
transport or worker thread runs (pino writes JSON to stdout); under this load the threads other than the
main one (V8's garbage-collection helpers) use 5-10 % of the process's CPU (per-thread /proc counters).
Where the rest of the gap is: every round trip to PostgreSQL costs the Node process a socket write that wakes
a backend, a read, and the promise chain behind it, and the process also runs Fastify's hooks and schemas,
node-postgres's parsing of result descriptions and rows, Kysely's connection objects and decimal
arithmetic. PostgreSQL does more per payment too (the "PostgreSQL CPU" rows: 7 statements with RLS policies,
foreign-key checks, triggers and 3 commits against 5 plain statements and 1 commit; the move to processing
writes a new version of the transaction row with all its index entries, its status being in partial indexes;
the sandbox bank's statement stands in for a bank's HTTP API). On 2 cores shared by the service, PostgreSQL
and the load generator, that CPU bounds the rate.
`;
  writeSection('Remittance payments (issue 11)', body);
  console.log(body);
} finally {
  await db.drop();
  await beforeDb?.drop();
}

/**
 * Issue 2 benchmark: login latency (native bcrypt on the libuv thread pool) and GET /auth/me
 * requests/s next to a bare Fastify route running the same single indexed SELECT, on real
 * PostgreSQL, in the same run. Usage: npm run bench -- auth   (or node --import tsx bench/auth.ts)
 */
import bcrypt from 'bcrypt';
import {
  accountingEnv,
  createBenchDatabase,
  type LoadResult,
  load,
  machine,
  percentile,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const APP_PORT = 3900;
const BARE_PORT = 3901;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = 3;

const db = await createBenchDatabase('bench_auth');
try {
  // bcrypt alone, to choose the cost.
  const costs: string[] = [];
  for (const cost of [10, 11, 12]) {
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await bcrypt.hash('Correct-Horse-9', cost);
      times.push(performance.now() - t0);
    }
    costs.push(`| ${cost} | ${percentile(times, 50).toFixed(1)} ms |`);
  }

  const app = await startProcess(
    await serviceEntry(ROOT, 'accounting'),
    accountingEnv(APP_PORT, { ACCOUNTING_DATABASE_URL: db.url }),
    `http://127.0.0.1:${APP_PORT}/health`,
  );
  const base = `http://127.0.0.1:${APP_PORT}/api/v1`;
  const loginTimes: number[] = [];
  const results: Record<'me' | 'baseline' | 'naive', LoadResult[]> = { me: [], baseline: [], naive: [] };
  try {
    const res = await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        organizationName: 'Bench d.o.o.',
        country: 'RS',
        baseCurrency: 'RSD',
        language: 'sr',
        email: 'bench@example.test',
        password: 'Correct-Horse-9',
        fullName: 'Bench',
      }),
    });
    const registered = await res.json();
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      const r = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.test', password: 'Correct-Horse-9' }),
      });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`login ${r.status}`);
      loginTimes.push(performance.now() - t0);
    }
    const token = registered.tokens.accessToken as string;
    const session = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;
    const q = `user=${registered.user.id}&session=${session}&org=${registered.organization.id}`;
    // Both servers stay up (an idle process costs nothing) and the phases alternate, so machine
    // noise hits the service and its baseline alike.
    const bare = await startProcess(
      `${ROOT}/bench/servers/bare-me.ts`,
      { DATABASE_URL: db.url, PORT: String(BARE_PORT) },
      `http://127.0.0.1:${BARE_PORT}/me?${q}`,
    );
    try {
      const phases = {
        me: (seconds: number) =>
          load({ url: `${base}/auth/me`, headers: { authorization: `Bearer ${token}` }, seconds }),
        baseline: (seconds: number) => load({ url: `http://127.0.0.1:${BARE_PORT}/me?${q}`, seconds }),
        naive: (seconds: number) => load({ url: `http://127.0.0.1:${BARE_PORT}/naive-rls?${q}`, seconds }),
      };
      for (const run of Object.values(phases)) await run(2); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, run] of Object.entries(phases))
          results[name as keyof typeof results].push(await run(SECONDS / ROUNDS));
      }
    } finally {
      await stopProcess(bare);
    }
  } finally {
    await stopProcess(app);
  }

  const mean = (rs: LoadResult[]) => ({
    requestsPerSec: Math.round(rs.reduce((a, r) => a + r.requestsPerSec, 0) / rs.length),
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
  });
  const me = mean(results.me);
  const baseline = mean(results.baseline);
  const naive = mean(results.naive);
  const rounds = results.me.map((r, i) => `${r.requestsPerSec} / ${results.baseline[i].requestsPerSec}`).join('; ');
  const ratio = (me.requestsPerSec / baseline.requestsPerSec) * 100;
  const body = `Command: \`npm run bench -- auth\` (real PostgreSQL at ${new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432').host}, ${machine()}, autocannon 16 connections, ${ROUNDS} interleaved rounds of ${SECONDS / ROUNDS} s per measurement (means; p50/p99 the worst round), server and load generator in separate processes on loopback).

| bcrypt cost | hash time (p50, this CPU) |
|---|---|
${costs.join('\n')}

Cost 10 is the production default (\`BCRYPT_COST\`, refused below 10 in production): the cheapest
cost still recommended for interactive sign-in, about 55 ms a hash here. Native bcrypt runs on
libuv's thread pool, so the event loop keeps serving other requests while it hashes.

| what | result |
|---|---|
| POST /auth/login, sequential, 40 runs | p50 ${percentile(loginTimes, 50).toFixed(1)} ms, p95 ${percentile(loginTimes, 95).toFixed(1)} ms |
| GET /auth/me (JWT verify, RLS tenant context, user + organization + session) | ${me.requestsPerSec} req/s, p50 ${me.p50} ms, p99 ${me.p99} ms, non-2xx ${me.non2xx} |
| baseline: bare Fastify + pg, the same SELECT, no RLS | ${baseline.requestsPerSec} req/s, p50 ${baseline.p50} ms |
| naive RLS: BEGIN, set_config, SET LOCAL ROLE, SELECT, COMMIT | ${naive.requestsPerSec} req/s, p50 ${naive.p50} ms |
| rounds (GET /auth/me / baseline req/s) | ${rounds} |
| **GET /auth/me / baseline** | **${ratio.toFixed(0)}%** (target 60%) |

How: the tenant context (role and \`app.org_id\`) is a session setting cached per pooled connection,
so a request for an organization whose context the connection already has costs no extra round
trip; a transaction folds BEGIN and the context into one simple-protocol script (see
packages/shared/src/db/context-dialect.ts). The principal query is one precompiled statement
(a named prepared statement on the server), and a verified access token is remembered by its text
until it expires: jose verifies HMAC through WebCrypto on the thread pool, which alone held
GET /auth/me at 37% of the baseline before.
`;
  writeSection('Accounting identity (issue 2)', body);
  console.log(body);
} finally {
  await db.drop();
}

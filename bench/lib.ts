import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

/** A throw-away database on the real PostgreSQL server; dropped by the returned function. */
export async function createBenchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Runs a service or baseline in its own process (the load generator stays in this one): a `.js`
 * entry point (a service compiled by scripts/build.ts, see serviceEntry) runs on plain node, as
 * `npm start` runs it (with the `dist` export condition, which checkouts from before the services
 * were bundled need to find @app/shared's compiled files); a `.ts` one through tsx.
 */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  nodeArgs: string[] = [],
  opts: { serviceFlags?: boolean } = {},
): Promise<ChildProcess> {
  const loader = script.endsWith('.js') ? ['--conditions=dist'] : ['--import', 'tsx'];
  // A service starts with its checkout's node flags, as `npm start` starts it (serviceEntry found
  // them), unless the benchmark compares flags itself (serviceFlags: false).
  const flags = opts.serviceFlags === false ? [] : (serviceFlags.get(script) ?? []);
  const child = spawn(process.execPath, [...flags, ...nodeArgs, ...loader, script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(readyUrl);
      if (res.status < 500) return child;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${script} did not become ready`);
}

const built = new Set<string>();
/** Entry point -> the node flags its checkout's `npm start` gives it (scripts/node-flags.ts). */
const serviceFlags = new Map<string, string[]>();
/**
 * A service's entry point in the checkout at `root`, as `npm start` runs it: compiled by that
 * checkout's scripts/build.ts (once per run). A checkout from before the build step (a
 * BENCH_BEFORE commit) runs from its sources through tsx, as its own `npm start` did.
 */
export async function serviceEntry(root: string, service: 'accounting' | 'remittance'): Promise<string> {
  const build = join(root, 'scripts/build.ts');
  if (!existsSync(build)) return join(root, 'services', service, 'src/server.ts');
  if (!built.has(root)) {
    const { buildAll } = (await import(pathToFileURL(build).href)) as { buildAll: (root: string) => Promise<void> };
    await buildAll(root);
    built.add(root);
  }
  const entry = join(root, 'services', service, 'dist/server.js');
  const flagsModule = join(root, 'scripts/node-flags.ts');
  if (existsSync(flagsModule)) {
    const { SERVICE_NODE_FLAGS } = (await import(pathToFileURL(flagsModule).href)) as {
      SERVICE_NODE_FLAGS: Record<string, string[]>;
    };
    serviceFlags.set(entry, SERVICE_NODE_FLAGS[service] ?? []);
  }
  return entry;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Responses received in the whole run. */
  total: number;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) of every PostgreSQL server process now, by pid (Linux /proc), or
 * null where unreadable. postgresCpuSince(before) gives what they used since: processes that
 * exist at both readings count their difference, new ones all of theirs; one that exited
 * meanwhile (an idle pooled connection closing) is left out rather than subtracted.
 */
export function postgresCpu(): Map<number, number> | null {
  try {
    const byPid = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      byPid.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    }
    return byPid;
  } catch {
    return null;
  }
}

export function postgresCpuSince(before: Map<number, number> | null): number | null {
  const now = postgresCpu();
  if (!before || !now) return null;
  let total = 0;
  for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** One request of a cycle: each connection sends them in turn (e.g. one per organization). */
export interface CycledRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  requests?: CycledRequest[];
  /** Picks each request from a shared sequence, so concurrent connections spread over it. */
  pick?: () => CycledRequest;
  seconds?: number;
  connections?: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    requests: opts.pick ? [{ setupRequest: ((req: object) => ({ ...req, ...opts.pick!() })) as never }] : opts.requests,
    duration: opts.seconds ?? 10,
    connections: opts.connections ?? 16,
  });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Replaces (or appends) the section under `heading` in BENCHMARKS.md. */
export function writeSection(heading: string, body: string): void {
  const file = `${ROOT}/BENCHMARKS.md`;
  const current = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmarks\n\nFigures from the machines these were run on (2 cores); every comparison is against a baseline measured in the same run.\n';
  const marker = `## ${heading}\n`;
  const start = current.indexOf(marker);
  let next: string;
  if (start === -1) next = `${current.trimEnd()}\n\n${marker}${body.trimEnd()}\n`;
  else {
    const end = current.indexOf('\n## ', start + marker.length);
    next = `${current.slice(0, start)}${marker}${body.trimEnd()}\n${end === -1 ? '' : current.slice(end)}`;
  }
  writeFileSync(file, next);
}

export function machine(): string {
  return `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** The accounting service as the benchmarks run it: production mode, limits off, quiet logs. */
export function accountingEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ACCOUNTING_PORT: String(port),
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // The weak settings a benchmark runs with, accepted by name (docs/configuration.md).
    ALLOW_RATE_LIMITS_OFF: 'true',
    ALLOW_EMBEDDED_DATABASE: 'true',
    ALLOW_BUILTIN_SCANNER: 'true',
    ALLOW_LOCALHOST_ORIGINS: 'true',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000',
    ...extra,
  };
}

/** The JSON body of a response that must have succeeded. */
export async function json(res: Response) {
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

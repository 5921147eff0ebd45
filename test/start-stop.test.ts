import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../scripts/node-flags.js';
import { walkAccounting, walkRemittance } from './bundle-smoke.js';

const root = join(import.meta.dirname, '..');

async function waitFor(url: string, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} never answered`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Linux: the command lines of the processes whose parent is `pid`. */
function childCommandLines(pid: number): string[][] {
  const lines: string[][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) lines.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return lines;
}

// G1, G2, G13: the process `npm start` runs starts both services and, on SIGTERM, stops them
// gracefully and exits 0.
it('starts both services and stops them with exit code 0 on SIGTERM', async () => {
  const port = 3400 + Math.floor(Math.random() * 500);
  // The services' own settings only: embedded databases, in-memory counters.
  const { REDIS_URL: _redis, TEST_DATABASE_URL: _pg, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-all.ts'], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'start-')),
      ACCOUNTING_DATABASE_URL: 'memory://',
      REMITTANCE_DATABASE_URL: 'memory://',
      RATE_LIMITS: 'off',
      ACCOUNTING_PORT: String(port),
      REMITTANCE_PORT: String(port + 1),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    // Generous: the suite's other files keep both cores busy while two PGlite instances start.
    const deadline = Date.now() + 90_000;
    try {
      const acc = await waitFor(`http://127.0.0.1:${port}/health`, deadline);
      expect(acc.status).toBe(200);
      const rem = await waitFor(`http://127.0.0.1:${port + 1}/api/health`, deadline);
      expect(rem.status).toBe(200);
    } catch (err) {
      throw new Error(`${(err as Error).message}; service output:\n${output.slice(-3000)}`);
    }
    // Issue 25 item 8: it says what it is doing (plain lines, before the services' JSON logs).
    const remittanceMigrations = readdirSync(join(root, 'services/remittance/src/db/migrations')).filter((f) =>
      f.endsWith('.sql'),
    ).length;
    for (const step of [
      '[start] building accounting and remittance (esbuild) ...',
      '[start] accounting: applying the migrations',
      `[start] remittance: applied ${remittanceMigrations} migrations`,
      `[start] accounting: listening at http://127.0.0.1:${port}`,
      `[start] remittance: listening at http://127.0.0.1:${port + 1}`,
    ])
      expect(output).toContain(step);
    expect(output).toMatch(/\[start\] ready in \d+\.\d s: /);
    // The bundles serve what needs their packages' own files and what loads on first use.
    await walkAccounting(`http://127.0.0.1:${port}`);
    await walkRemittance(`http://127.0.0.1:${port + 1}`);
    // Each service runs with the node flags scripts/node-flags.ts gives it (checked where /proc tells).
    if (existsSync('/proc/self/stat')) {
      const services = childCommandLines(child.pid!);
      for (const name of ['accounting', 'remittance'] as const) {
        const args = services.find((cmd) => cmd.some((a) => a.includes(`services/${name}/`)));
        expect(args, `${name} process`).toBeDefined();
        for (const flag of SERVICE_NODE_FLAGS[name]) expect(args).toContain(flag);
      }
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
}, 120_000);

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

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
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
}, 120_000);

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
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-all.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'start-')),
      ACCOUNTING_DATABASE_URL: 'memory://',
      REMITTANCE_DATABASE_URL: 'memory://',
      ACCOUNTING_PORT: String(port),
      REMITTANCE_PORT: String(port + 1),
    },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 45_000;
    const acc = await waitFor(`http://127.0.0.1:${port}/health`, deadline);
    expect(acc.status).toBe(200);
    const rem = await waitFor(`http://127.0.0.1:${port + 1}/api/health`, deadline);
    expect(rem.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
}, 60_000);

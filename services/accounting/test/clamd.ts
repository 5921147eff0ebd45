import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A real clamd for the receipt tests, started with a private configuration: a Unix socket in a
 * temporary directory and a database directory holding one signature, EICAR's MD5 (no freshclam,
 * no network). Debian's clamav-daemon provides the binary (.ci/run installs it); without it the
 * tests that need it are skipped with that reason.
 */
export const EICAR_HDB = '44d88612fea8a8f36de82e1278abb02f:68:Eicar-Test-Signature\n';

export function findClamd(): string | null {
  const dirs = ['/usr/sbin', '/usr/local/sbin', ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    const p = join(dir, 'clamd');
    if (dir && existsSync(p)) return p;
  }
  return null;
}

export interface Clamd {
  socket: string;
  stop(): Promise<void>;
}

function ping(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(socket);
    let answer = '';
    s.setTimeout(1000, () => {
      s.destroy();
      resolve(false);
    });
    s.on('connect', () => s.write('zPING\0'));
    s.on('data', (d) => {
      answer += d.toString();
    });
    s.on('end', () => resolve(answer.startsWith('PONG')));
    s.on('error', () => resolve(false));
  });
}

export async function startClamd(binary: string): Promise<Clamd> {
  const dir = mkdtempSync(join(tmpdir(), 'clamd-test-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'db', 'eicar.hdb'), EICAR_HDB);
  const socket = join(dir, 'clamd.sock');
  const conf = join(dir, 'clamd.conf');
  writeFileSync(
    conf,
    [
      'Foreground yes',
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${join(dir, 'db')}`,
      `TemporaryDirectory ${dir}`,
      'StreamMaxLength 20M',
      'SelfCheck 0',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(binary, [`--config-file=${conf}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d.toString();
  });
  const deadline = Date.now() + 30_000;
  while (!(existsSync(socket) && (await ping(socket)))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`clamd did not start: ${stderr.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    socket,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

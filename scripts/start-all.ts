import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm start`: both services as child processes (G1-G2). SIGTERM/SIGINT is forwarded to each;
 * they stop gracefully (G13) and this process exits 0 once both have.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const services = ['accounting', 'remittance'];
const children = new Map<string, ChildProcess>();
let stopping = false;
let failed = false;

for (const name of services) {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${name}/src/server.ts`], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping && (code !== 0 || signal)) {
      failed = true;
      console.error(`${name} exited (${signal ?? code}); stopping the other service`);
      stop('SIGTERM');
    }
    if (children.size === 0) process.exit(failed ? 1 : 0);
  });
}

function stop(signal: NodeJS.Signals) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

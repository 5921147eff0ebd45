import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildAll, ROOT } from './build.js';
import { buildWeb, WEB_APP } from './build-web.js';
import { SERVICE_NODE_FLAGS } from './node-flags.js';

/**
 * `npm start`: both services as child processes (G1-G2), or the ones named on the command line
 * (`npm start -w @app/accounting` runs this with `accounting`). SIGTERM/SIGINT is forwarded to
 * each; they stop gracefully (G13) and this process exits 0 once all have.
 * The services run compiled to JavaScript bundles (scripts/build.ts, about two seconds, done on every
 * start so the code never lags the sources); `--source` (`npm run dev`) runs the TypeScript
 * sources through tsx instead, with no build step.
 * With the accounting service comes its web app (W1): `npm start` builds it when its sources changed
 * (scripts/build-web.ts) and the service serves it at /; `npm run dev` runs Vite's development
 * server instead (http://localhost:5173, /api proxied to the service).
 */
const args = process.argv.slice(2);
const fromSource = args.includes('--source');
const named = args.filter((a) => !a.startsWith('--'));
const services = named.length ? named : ['accounting', 'remittance'];
for (const name of services) {
  if (name !== 'accounting' && name !== 'remittance') {
    console.error(`unknown service ${name}: accounting or remittance`);
    process.exit(2);
  }
}
if (!fromSource) await buildAll();
const withWeb = services.includes('accounting');
if (withWeb && !fromSource && (await buildWeb())) console.log('built the accounting web app');

const children = new Map<string, ChildProcess>();
let stopping = false;
let failed = false;

for (const name of services) {
  const entry = fromSource
    ? ['--import', 'tsx', `services/${name}/src/server.ts`]
    : [`services/${name}/dist/server.js`];
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS[name as 'accounting' | 'remittance'], ...entry], {
    cwd: ROOT,
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

if (withWeb && fromSource) {
  const vite = spawn(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')], {
    cwd: WEB_APP,
    stdio: 'inherit',
    env: process.env,
  });
  children.set('web', vite);
  vite.on('exit', () => {
    children.delete('web');
    if (children.size === 0) process.exit(failed ? 1 : 0);
  });
}

function stop(signal: NodeJS.Signals) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

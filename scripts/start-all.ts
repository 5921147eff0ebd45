import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { databaseUrl } from '../packages/shared/src/config.js';
import { isNewEmbeddedDatabase, pgliteTemplatePath } from '../packages/shared/src/db/pglite-template.js';
import type { StartupReport } from '../packages/shared/src/startup.js';
import { buildAll, ROOT } from './build.js';
import { REMITTANCE_WEB_APP, WEB_APP, WEB_APPS, webBuildIsFresh } from './build-web.js';
import { SERVICE_NODE_FLAGS } from './node-flags.js';

/**
 * `npm start`: both services as child processes (G1-G2), or the ones named on the command line
 * (`npm start -w @app/accounting` runs this with `accounting`). SIGTERM/SIGINT is forwarded to
 * each; they stop gracefully (G13) and this process exits 0 once all have.
 * The services run compiled to JavaScript bundles (scripts/build.ts, about two seconds, done on every
 * start so the code never lags the sources); `--source` (`npm run dev`) runs the TypeScript
 * sources through tsx instead, with no build step.
 * With each service comes its web app (W1, W2): `npm start` builds it when its sources changed
 * (scripts/build-web.ts) and the service serves it at /; `npm run dev` runs each app's Vite
 * development server instead, /api proxied to its service: accounting http://localhost:5173,
 * remittance http://127.0.0.1:5174 (REMITTANCE_DEV_URL below).
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

// Issue 25 item 8: say what a start does, and do the slow part of a first start (PGlite's initdb)
// once, while the services are built, instead of once per service after the build.
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const say = (text: string) => console.log(`[start] ${text}`);
const dataDir = resolve(process.env.DATA_DIR || './data');
const DATABASE_DIRS: Record<string, string> = { accounting: 'accounting', remittance: 'remittance/db' };
const newDatabases = services.filter((name) =>
  isNewEmbeddedDatabase(databaseUrl(process.env[`${name.toUpperCase()}_DATABASE_URL`], dataDir, DATABASE_DIRS[name])),
);
const template = pgliteTemplatePath(dataDir);
const preparing = newDatabases.length > 0 && !existsSync(template) ? prepareCluster(template) : Promise.resolve();
let webBuilt = true;
let webBuild: ChildProcess | undefined;
if (!fromSource) {
  say(`building ${services.join(' and ')} (esbuild) ...`);
  await buildAll();
  say(`built in ${seconds()}`);
  buildWebAlongside(services as (keyof typeof WEB_APPS)[]);
}
await preparing;

/**
 * The web apps' Vite builds were the longest step of a first start (30-60 s on a loaded machine) and
 * the services do not need them to start: when their sources changed they run, one after the other,
 * in a child process (scripts/build-web.ts) while the services create their databases and migrate (in
 * this process, their synchronous work held up this event loop and so the start of the services), and
 * each service answers / from its build once it is there (404 until then). A child also keeps Vite's
 * NODE_ENV=production out of the environment the services inherit.
 */
function buildWebAlongside(names: (keyof typeof WEB_APPS)[]): void {
  if (names.every((name) => webBuildIsFresh(ROOT, WEB_APPS[name]))) return;
  webBuilt = false;
  say('building the web apps (Vite) while the services start ...');
  webBuild = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'build-web.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Stopped with the services; never left running after this process.
  process.on('exit', () => webBuild?.kill('SIGTERM'));
  webBuild.on('exit', (code, signal) => {
    webBuild = undefined;
    webBuilt = true;
    if (signal) return;
    say(
      code === 0
        ? `built the web apps (${seconds()}); each service serves its own at /`
        : `could not build the web apps (exit ${code}); the APIs work, / answers 404`,
    );
  });
}

/**
 * initdb once into the tarball both new databases start from (packages/shared/src/db/pglite-template.ts),
 * in a child process, so the build's esbuild service is not starved by the WebAssembly initdb.
 */
function prepareCluster(path: string): Promise<void> {
  say(`first start: preparing the embedded PostgreSQL cluster for ${newDatabases.join(' and ')} in ${path} ...`);
  const code = `import { createPgliteTemplate } from './packages/shared/src/db/pglite-template.ts'; await createPgliteTemplate(${JSON.stringify(path)});`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return new Promise((done) => {
    child.on('exit', (code) => {
      // Without the tarball each service runs initdb itself, as before: slower, never wrong.
      say(
        code === 0
          ? `cluster prepared (${seconds()})`
          : `could not prepare the cluster (exit ${code}); each service creates its own`,
      );
      done();
    });
  });
}
const ready = new Map<string, string>();

/**
 * `npm run dev`: the remittance app's Vite server (apps/remittance-web/vite.config.ts). The eID and
 * bank redirects, the web sign-in's cookie and the allowed Origin (R4) all name the service's public
 * URL, so in development that URL is the Vite server's (its proxy passes /api on to the service)
 * unless REMITTANCE_PUBLIC_URL says otherwise.
 */
const REMITTANCE_DEV_URL = `http://127.0.0.1:${process.env.REMITTANCE_WEB_DEV_PORT ?? 5174}`;
const serviceEnv = (name: string): NodeJS.ProcessEnv =>
  name === 'remittance' && fromSource && !process.env.REMITTANCE_PUBLIC_URL
    ? { ...process.env, REMITTANCE_PUBLIC_URL: REMITTANCE_DEV_URL }
    : process.env;

const children = new Map<string, ChildProcess>();
let stopping = false;
let failed = false;

for (const name of services) {
  const entry = fromSource
    ? ['--import', 'tsx', `services/${name}/src/server.ts`]
    : [`services/${name}/dist/server.js`];
  say(`starting ${name} ...`);
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS[name as 'accounting' | 'remittance'], ...entry], {
    cwd: ROOT,
    // The fourth channel carries the service's start-up reports (packages/shared/src/startup.ts).
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: serviceEnv(name),
  });
  child.on('message', (m: StartupReport) => {
    say(`${m.service}: ${m.text}`);
    if (!m.url) return;
    ready.set(m.service, m.url);
    if (ready.size === services.length) {
      const where = [...ready].map(([n, url]) => `${n} ${url} (API reference ${url}/docs)`).join(', ');
      say(`ready in ${seconds()}: ${where}`);
      if (!webBuilt) say('the web apps are still building; / answers 404 until each is built');
      if (fromSource && ready.has('remittance')) say(`remittance web app (Vite, /api proxied): ${REMITTANCE_DEV_URL}/`);
    }
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

if (fromSource) {
  for (const [service, dir] of [
    ['accounting', WEB_APP],
    ['remittance', REMITTANCE_WEB_APP],
  ] as const) {
    if (!services.includes(service)) continue;
    const vite = spawn(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')], {
      cwd: dir,
      stdio: 'inherit',
      env: process.env,
    });
    const key = `${service}-web`;
    children.set(key, vite);
    vite.on('exit', () => {
      children.delete(key);
      if (children.size === 0) process.exit(failed ? 1 : 0);
    });
  }
}

function stop(signal: NodeJS.Signals) {
  stopping = true;
  webBuild?.kill(signal);
  for (const child of children.values()) child.kill(signal);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

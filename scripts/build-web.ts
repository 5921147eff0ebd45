import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Builds a web app (apps/accounting-web or apps/remittance-web, Vite) into its `dist/`, which its
 * service serves at / (W1, W2). Only when its sources changed: a hash of every input file (the app's
 * sources, index.html, Vite config and package.json, packages/web-tools) is kept in
 * `dist/.build-hash`, so `npm start` on unchanged sources adds a few milliseconds, not a build.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The web apps, by the service that serves each. */
export const WEB_APPS = { accounting: 'accounting-web', remittance: 'remittance-web' } as const;
export type WebAppName = (typeof WEB_APPS)[keyof typeof WEB_APPS];
export const WEB_APP = join(ROOT, 'apps', 'accounting-web');
export const REMITTANCE_WEB_APP = join(ROOT, 'apps', 'remittance-web');
const STAMP = '.build-hash';

function inputs(root: string, name: WebAppName): string[] {
  const app = join(root, 'apps', name);
  const dirs = [join(app, 'src'), join(app, 'public'), join(root, 'packages', 'web-tools', 'src')];
  const files = [join(app, 'index.html'), join(app, 'vite.config.ts'), join(app, 'package.json')];
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (e.isFile() && !e.name.endsWith('.test.ts')) files.push(join(e.parentPath, e.name));
    }
  }
  return files.filter((f) => existsSync(f)).sort();
}

/** A hash of the inputs' paths and contents. */
export function sourceHash(root = ROOT, name: WebAppName = 'accounting-web'): string {
  const hash = createHash('sha256');
  for (const f of inputs(root, name)) {
    hash.update(relative(root, f));
    hash.update('\0');
    hash.update(readFileSync(f));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether an app's dist/ was built from its current sources (a few milliseconds: hashes the inputs). */
export function webBuildIsFresh(
  root = ROOT,
  name: WebAppName = 'accounting-web',
  hash = sourceHash(root, name),
): boolean {
  const dist = join(root, 'apps', name, 'dist');
  const stamp = join(dist, STAMP);
  return existsSync(join(dist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
}

/** Builds when the sources differ from those of the last build; returns whether it built. */
export async function buildWeb(root = ROOT, opts: { force?: boolean; app?: WebAppName } = {}): Promise<boolean> {
  const name = opts.app ?? 'accounting-web';
  const app = join(root, 'apps', name);
  const dist = join(app, 'dist');
  const hash = sourceHash(root, name);
  if (!opts.force && webBuildIsFresh(root, name, hash)) return false;
  return withBuildLock(dist, async () => {
    // Another process (a test file in another worker) may have built it while this one waited.
    if (!opts.force && webBuildIsFresh(root, name, hash)) return false;
    await viteBuild(app, dist, hash);
    return true;
  });
}

/**
 * One build of a dist/ at a time across processes: Vite empties dist/ first, so two test files
 * building the same app at once (two workers, sources changed) deleted each other's assets. The lock
 * is a directory (mkdir is atomic) holding its owner's pid; a lock whose owner is gone is taken over.
 */
async function withBuildLock<T>(dist: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `web-build-${createHash('sha256').update(dist).digest('hex').slice(0, 16)}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockIsStale(lock)) rmSync(lock, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockIsStale(lock: string): boolean {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // No such process, or no pid written yet: stale only when the owner had ample time to write it.
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    try {
      return Date.now() - statSync(lock).mtimeMs > 60_000;
    } catch {
      return false;
    }
  }
}

async function viteBuild(app: string, dist: string, hash: string): Promise<void> {
  const stamp = join(dist, STAMP);
  const { build } = await import('vite');
  // Vite's build sets process.env.NODE_ENV to 'production' when it is unset, and `npm start` starts
  // the services from this process after building: they would inherit it and start in production
  // mode (refusing the development defaults). Put back what the caller had.
  const nodeEnv = process.env.NODE_ENV;
  try {
    // Always a production bundle: under vitest NODE_ENV is 'test', and Vite then kept React's
    // development build (62 KB more per route), which the hash (sources only) did not tell apart.
    process.env.NODE_ENV = 'production';
    await build({ root: app, configFile: join(app, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  precompress(join(dist, 'assets'));
  writeFileSync(stamp, `${hash}\n`);
}

/**
 * Gzip and Brotli copies of each text asset, written once at build time: the service sends them
 * to browsers that accept them (@fastify/static preCompressed) without compressing per request.
 */
function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/\.(js|css|svg|json)$/.test(name)) continue;
    const body = readFileSync(join(dir, name));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
    writeFileSync(
      join(dir, `${name}.br`),
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

/** When dist/ was last built (for messages). */
export function builtAt(root = ROOT, name: WebAppName = 'accounting-web'): Date | null {
  const stamp = join(root, 'apps', name, 'dist', STAMP);
  return existsSync(stamp) ? statSync(stamp).mtime : null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const name of Object.values(WEB_APPS)) {
    const started = performance.now();
    const built = await buildWeb(ROOT, { force: process.argv.includes('--force'), app: name });
    console.log(
      built ? `built apps/${name} in ${Math.round(performance.now() - started)} ms` : `apps/${name} is up to date`,
    );
  }
}

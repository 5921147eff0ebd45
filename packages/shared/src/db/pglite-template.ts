import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A freshly initialised embedded cluster, kept as a tarball so that a new embedded database is a
 * copy of it instead of a new `initdb` (issue 25 item 8). PGlite's initdb runs in WebAssembly and
 * was most of a first `npm start` (both services ran it, at once, on a fresh clone); loading the
 * tarball into a new data directory takes about a quarter of that. `npm start` creates the tarball
 * once, while the services are being built, and both services start from it. The file is named
 * after the PGlite version, so an upgraded PGlite never loads a cluster of another version.
 */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pkg = join(dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** Where the tarball lives: DATA_DIR/.pglite/initdb-<version>.tar. */
export function pgliteTemplatePath(dataDir: string): string {
  return join(dataDir, '.pglite', `initdb-${pgliteVersion()}.tar`);
}

/** True when `url` names an embedded database directory that has no cluster yet. */
export function isNewEmbeddedDatabase(url: string): boolean {
  if (/^postgres(ql)?:\/\//.test(url) || url === 'memory://' || url === '') return false;
  return !existsSync(join(url.replace(/^file:\/\//, ''), 'PG_VERSION'));
}

/** Creates the tarball unless it exists; answers whether it had to. Written whole, then renamed. */
export async function createPgliteTemplate(path: string): Promise<boolean> {
  if (existsSync(path)) return false;
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  const dump = await db.dumpDataDir('none');
  await db.close();
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return true;
}

/** The tarball as PGlite's loadDataDir takes it, or null when there is none. */
export function readPgliteTemplate(path: string): Blob | null {
  return existsSync(path) ? new Blob([readFileSync(path)]) : null;
}

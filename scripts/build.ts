import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Compiles packages/shared and both services from TypeScript to plain JavaScript, each package's
 * `src/` into its `dist/` with the same layout (migrations and other non-TypeScript files copied),
 * so `npm start` runs the services on plain node: no TypeScript loader in the process (about 95 MB
 * of resident memory and the per-function `__name` calls tsx's transform adds to every closure).
 * One file in, one file out (esbuild's transform, no bundling): the tsconfig has isolatedModules,
 * so every file compiles on its own. Type checking is `npm run typecheck`'s job, not this one.
 * The compiled services find `@app/shared`'s compiled files through the `dist` export condition
 * (`node --conditions=dist`); TypeScript, tsx and vitest keep reading the sources.
 * About half a second for the whole tree, so `npm start` builds every time and never runs stale code.
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGES = ['packages/shared', 'services/accounting', 'services/remittance'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

export async function buildAll(root = ROOT): Promise<void> {
  for (const pkg of PACKAGES) {
    const src = join(root, pkg, 'src');
    const dist = join(root, pkg, 'dist');
    rmSync(dist, { recursive: true, force: true });
    const files = filesUnder(src);
    const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
    await build({
      entryPoints: sources,
      outbase: src,
      outdir: dist,
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
    for (const f of files) {
      if (f.endsWith('.ts')) continue;
      cpSync(f, join(dist, relative(src, f)));
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  await buildAll();
  console.log(`built ${PACKAGES.join(', ')} in ${Math.round(performance.now() - started)} ms`);
}

import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Compiles each service, with the parts of packages/shared and of node_modules it uses, into one
 * JavaScript bundle, `services/<name>/dist/server.js` (plus a chunk per module the service loads
 * on first use), with the source's non-TypeScript files (migrations) copied into `dist/` beside it.
 * `npm start` runs the bundles on plain node: no TypeScript loader in the process (about 95 MB of
 * resident memory and tsx's per-function `__name` calls).
 *
 * Why one bundle and not a file per module: each ES module a process loads costs it memory for as
 * long as it runs (its source text, module record, URL and path strings, its own scope), and the
 * accounting service loaded about 1,200 of them (typebox and kysely are hundreds of small files).
 * Bundled, with whitespace removed and no license comments in the code (they go to
 * `server.js.LEGAL.txt`: one non-Latin-1 character in a comment makes V8 hold the whole source as
 * two-byte text), the accounting service starts with about 10 MB less heap and 16 MB less RSS
 * (issue 10's import peak; docs/perf/banking.md). Names are kept (no identifier minification), so stack
 * traces and logs read as before; `server.js.map` maps them to the sources for
 * `node --enable-source-maps`.
 *
 * What stays outside the bundle (EXTERNAL), loaded from node_modules at run time: native addons
 * (bcrypt), packages that find their own files next to their code (`__dirname`: pdfkit's font
 * metrics, swagger-ui's page, PGlite's WebAssembly) or start worker threads from a file (pino's
 * transports), and packages a service loads only on first use anyway. The build fails when a
 * bundled module refers to `__dirname` or `__filename`, which mean nothing in an ES module bundle:
 * such a package belongs in EXTERNAL. A module of ours that finds files through `import.meta.url`
 * must sit at its service's `src/` root, as accounting's server.ts and remittance's paths.ts do: in the bundle
 * `import.meta.url` is the bundle's own address, `dist/server.js`.
 *
 * Type checking is `npm run typecheck`'s job, not this one. About two seconds for both services, so
 * `npm start` builds every time and never runs stale code.
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVICES = ['accounting', 'remittance'] as const;

const EXTERNAL = [
  '@electric-sql/pglite',
  '@fastify/static',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'bcrypt',
  'bwip-js',
  'dejavu-fonts-ttf',
  'fontkit',
  'ioredis',
  'nodemailer',
  'pdfkit',
  'pg-native',
  'pino',
  'qrcode',
  'thread-stream',
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

export async function buildAll(root = ROOT): Promise<void> {
  for (const name of SERVICES) {
    const src = join(root, 'services', name, 'src');
    const dist = join(root, 'services', name, 'dist');
    rmSync(dist, { recursive: true, force: true });
    await build({
      entryPoints: [join(src, 'server.ts')],
      outdir: dist,
      bundle: true,
      splitting: true,
      chunkNames: '[name]-[hash]',
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      // The bundled CommonJS packages call require(); in an ES module it comes from createRequire.
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      },
      minifyWhitespace: true,
      legalComments: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(dist, file), 'utf8');
      const found = /\b__(dirname|filename)\b/.exec(code);
      if (found) {
        const at = code.slice(Math.max(0, found.index - 120), found.index + 40);
        throw new Error(
          `services/${name}/dist/${file} refers to ${found[0]} (…${at}…): add its package to EXTERNAL in scripts/build.ts`,
        );
      }
    }
    for (const f of filesUnder(src)) {
      if (f.endsWith('.ts')) continue;
      cpSync(f, join(dist, relative(src, f)));
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  await buildAll();
  console.log(`built ${SERVICES.join(', ')} in ${Math.round(performance.now() - started)} ms`);
  const { buildWeb, WEB_APPS } = await import('./build-web.js');
  for (const name of Object.values(WEB_APPS)) {
    const web = performance.now();
    const built = await buildWeb(undefined, { app: name });
    console.log(
      built ? `built apps/${name} in ${Math.round(performance.now() - web)} ms` : `apps/${name} is up to date`,
    );
  }
}

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildWeb } from '../scripts/build-web.js';

// Issue 25 item 8: Vite's build sets process.env.NODE_ENV to 'production' when it is unset, and
// `npm start` (scripts/start-all.ts) starts the services from the process that built the web app.
// On a fresh clone (NODE_ENV unset) remittance then started in production mode and refused the
// development defaults. test/start-stop.test.ts sets NODE_ENV=development, which hides this, so
// here buildWeb runs the real Vite build, on a two-file app instead of the accounting web app
// (about a second instead of tens), with NODE_ENV unset and then set.
let root: string;
let saved: string | undefined;

beforeEach(() => {
  saved = process.env.NODE_ENV;
  root = mkdtempSync(join(tmpdir(), 'build-web-'));
  const app = join(root, 'apps', 'accounting-web');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), '{ "name": "tiny-app", "private": true, "type": "module" }\n');
  writeFileSync(join(app, 'vite.config.ts'), "export default { build: { outDir: 'dist', assetsDir: 'assets' } };\n");
  writeFileSync(
    join(app, 'index.html'),
    '<!doctype html><html><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n',
  );
  writeFileSync(join(app, 'src', 'main.js'), "document.getElementById('app').textContent = 'built';\n");
});

afterEach(() => {
  if (saved === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = saved;
  rmSync(root, { recursive: true, force: true });
});

it('leaves NODE_ENV unset when it was unset before the web build', async () => {
  delete process.env.NODE_ENV;
  expect(await buildWeb(root, { force: true })).toBe(true);
  // It really built (so Vite ran and had its chance to set NODE_ENV).
  expect(existsSync(join(root, 'apps', 'accounting-web', 'dist', 'index.html'))).toBe(true);
  expect(process.env.NODE_ENV).toBeUndefined();
  expect('NODE_ENV' in process.env).toBe(false);
});

it('leaves NODE_ENV as the caller set it', async () => {
  process.env.NODE_ENV = 'development';
  expect(await buildWeb(root, { force: true })).toBe(true);
  expect(process.env.NODE_ENV).toBe('development');
});

// Two test files in two workers building the same app at once: Vite empties dist/ first, so the
// second build deleted the assets the first had just written and was serving (ENOENT on an asset's
// .br copy). Builds of one dist/ now take turns, and the one that waited finds the build fresh.
it('builds once when two builds of the same app start together, leaving every asset and its copies', async () => {
  const { readdirSync } = await import('node:fs');
  writeFileSync(
    join(root, 'apps', 'accounting-web', 'src', 'main.js'),
    `console.log(${JSON.stringify('x'.repeat(2000))});\n`,
  );
  const built = await Promise.all([buildWeb(root), buildWeb(root), buildWeb(root)]);
  expect(built.filter(Boolean)).toHaveLength(1);
  const assets = readdirSync(join(root, 'apps', 'accounting-web', 'dist', 'assets'));
  const scripts = assets.filter((f) => f.endsWith('.js'));
  expect(scripts).toHaveLength(1);
  expect(assets.sort()).toEqual([scripts[0], `${scripts[0]}.br`, `${scripts[0]}.gz`].sort());
});

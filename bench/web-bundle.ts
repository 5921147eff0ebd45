/**
 * `npm run bench -- web-bundle`: the JavaScript a browser downloads for each route of each web app,
 * gzipped. Budgets: accounting (issue 27) sign-in page at most 150 KB, any route at most 350 KB;
 * remittance (issue 29) sign-in page at most 120 KB, any route at most 300 KB.
 * A route's JavaScript is the entry chunk and its static imports, plus the route's lazy chunk and
 * its static imports, read from Vite's manifest (apps/<app>/dist/.vite/manifest.json).
 * Sizes are gzip level 9 of each file (what the service sends: the build's .gz copies).
 * `WEB_BUNDLE_APP=remittance-web npm run bench -- web-bundle` measures one app.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, type WebAppName } from '../scripts/build-web.js';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const APPS: Record<WebAppName, { signIn: number; route: number; signedOut: string[] }> = {
  'accounting-web': { signIn: 150 * 1024, route: 350 * 1024, signedOut: ['SignIn', 'Register', 'AcceptInvite'] },
  'remittance-web': { signIn: 120 * 1024, route: 300 * 1024, signedOut: ['SignIn'] },
};

const ROOT = join(import.meta.dirname, '..');
const asked = (process.env.WEB_BUNDLE_APP ?? '').split(',').filter((a) => a in APPS) as WebAppName[];
for (const app of asked.length ? asked : (Object.keys(APPS) as WebAppName[])) await measure(app);

async function measure(app: WebAppName): Promise<void> {
  const { signIn: BUDGET_SIGN_IN, route: BUDGET_ROUTE, signedOut: SIGNED_OUT } = APPS[app];
  await buildWeb(undefined, { app });
  const dist = join(ROOT, 'apps', app, 'dist');
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  const gz = new Map<string, number>();
  const sizeOf = (file: string) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
    return gz.get(file)!;
  };

  /** The chunk and everything it imports statically. */
  function closure(key: string, seen = new Set<string>()): Set<string> {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, seen);
    return seen;
  }

  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const entry = closure(entryKey);
  const lazy = manifest[entryKey].dynamicImports ?? [];
  const lazyCatalogs = Object.keys(manifest).filter(
    (k) => /src\/i18n\/[a-z]+\.ts$/.test(manifest[k].src ?? k) && !entry.has(k),
  );
  // Language catalogs loaded on demand, one chunk per language: the base ones for the signed-out pages,
  // the full ones (accounting: base and screen areas, src/i18n/full/) with the signed-in frame.
  const closureBytes = (k: string) => [...closure(k)].reduce((sum, c) => sum + sizeOf(manifest[c].file), 0);
  const fullCatalogs = Object.keys(manifest).filter((k) => /src\/i18n\/full\/[a-z]+\.ts$/.test(manifest[k].src ?? k));
  const catalog = Math.max(0, ...lazyCatalogs.map((k) => sizeOf(manifest[k].file)));
  const fullCatalog = Math.max(catalog, ...fullCatalogs.map(closureBytes));
  const frameKey = lazy.find((k) => k.endsWith('ui/Layout.tsx'));
  const routes = lazy
    .filter((k) => k !== frameKey && !lazyCatalogs.includes(k) && !fullCatalogs.includes(k))
    .map((key) => {
      const name = (manifest[key].src ?? key).replace(/^src\/pages\//, '').replace(/\.tsx$/, '');
      const signedIn = !!frameKey && !SIGNED_OUT.includes(name);
      const frame = signedIn ? closure(frameKey) : [];
      const keys = new Set([...entry, ...frame, ...closure(key)]);
      const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
      // A language catalog loaded on demand (one chunk per language, the screen areas' messages in it):
      // every route loads one, the largest counts.
      const bytes = files.reduce((sum, f) => sum + sizeOf(f), 0) + (signedIn ? fullCatalog : catalog);
      return { route: name, files: files.length, bytes };
    });
  routes.sort((a, b) => b.bytes - a.bytes);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`\n${app}\nroute                JS files   gzipped`);
  for (const r of routes) console.log(`${r.route.padEnd(20)} ${String(r.files).padStart(8)}   ${kb(r.bytes)}`);
  const signIn = routes.find((r) => r.route === 'SignIn')!;
  const largest = routes[0];
  console.log(
    `\nsign-in page: ${kb(signIn.bytes)} (budget ${kb(BUDGET_SIGN_IN)}) ${signIn.bytes <= BUDGET_SIGN_IN ? 'met' : 'OVER'}`,
  );
  console.log(
    `largest route (${largest.route}): ${kb(largest.bytes)} (budget ${kb(BUDGET_ROUTE)}) ${largest.bytes <= BUDGET_ROUTE ? 'met' : 'OVER'}`,
  );
  // Over a budget: a failing exit, so a change that breaks one is noticed where the bench runs.
  if (signIn.bytes > BUDGET_SIGN_IN || largest.bytes > BUDGET_ROUTE) process.exitCode = 1;
}

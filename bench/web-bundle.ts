/**
 * `npm run bench -- web-bundle`: the JavaScript a browser downloads for each route of the accounting
 * web app, gzipped (issue 27 budgets: the sign-in page at most 150 KB, any route at most 350 KB).
 * A route's JavaScript is the entry chunk and its static imports, plus the route's lazy chunk and
 * its static imports, read from Vite's manifest (apps/accounting-web/dist/.vite/manifest.json).
 * Sizes are gzip level 9 of each file (what the service sends: the build's .gz copies).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, WEB_APP } from '../scripts/build-web.js';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const BUDGET_SIGN_IN = 150 * 1024;
const BUDGET_ROUTE = 350 * 1024;

await buildWeb();
const dist = join(WEB_APP, 'dist');
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
const frameKey = lazy.find((k) => k.endsWith('ui/Layout.tsx'));
/** Message catalogs are one lazy chunk per language; every route loads one: the largest is counted. */
const catalogKeys = lazy.filter((k) => /i18n\/(sr|bs|hr|en)\.ts$/.test(k));
const catalogClosures = catalogKeys.map((k) => closure(k));
const catalogBytes = (c: Set<string>) => [...c].reduce((sum, k) => sum + sizeOf(manifest[k].file), 0);
const catalog = catalogClosures.sort((a, b) => catalogBytes(b) - catalogBytes(a))[0] ?? new Set<string>();
/** Screens a signed-out visitor sees: no signed-in frame (navigation, header). */
const SIGNED_OUT = ['SignIn', 'Register', 'AcceptInvite'];
const routes = lazy
  .filter((k) => k !== frameKey && !catalogKeys.includes(k))
  .map((key) => {
    const name = (manifest[key].src ?? key).replace(/^src\/pages\//, '').replace(/\.tsx$/, '');
    const frame = frameKey && !SIGNED_OUT.includes(name) ? closure(frameKey) : [];
    const keys = new Set([...entry, ...catalog, ...frame, ...closure(key)]);
    const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
    const bytes = files.reduce((sum, f) => sum + sizeOf(f), 0);
    return { route: name, files: files.length, bytes };
  });
routes.sort((a, b) => b.bytes - a.bytes);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log('route                JS files   gzipped');
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

/**
 * Where a service's CPU time goes, from a `node --cpu-prof` profile (BENCH_PROFILE=dir with
 * bench/hot-paths.ts): self time by package or source file, and the hottest functions.
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile> [top] [lastSeconds]
 * lastSeconds: only the samples of the profile's last N seconds (the load phases, not start-up).
 * Then the functions by inclusive time (themselves and what they call): where a request's time goes
 * by code path. The profile samples wall time on the main thread, so a socket write that wakes the
 * peer (PostgreSQL, the load generator) on a busy 2-core machine shows as long as the peer runs.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, lastArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
const totalUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
const fromUs = lastArg ? totalUs - Number(lastArg) * 1e6 : 0;
let at = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at >= fromUs) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

function category(n: ProfileNode): string {
  const { url, functionName } = n.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const src = /\/((?:services|packages|bench)\/.*)$/.exec(url);
  return src ? src[1] : url;
}

const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const busy =
  total -
  [...selfUs.entries()]
    .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
    .reduce((a, [, v]) => a + v, 0);
const sum = (key: (n: ProfileNode) => string) => {
  const m = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const k = key(byId.get(id)!);
    m.set(k, (m.get(k) ?? 0) + us);
  }
  return [...m.entries()]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
};
const pct = (us: number) => `${((us / busy) * 100).toFixed(1)}%`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy (not idle)`);
console.log('\nself time by package / file (share of busy time):');
for (const [k, us] of sum(category)) console.log(`  ${pct(us).padStart(6)}  ${k}`);
console.log('\nhottest functions:');
for (const [k, us] of sum(
  (n) => `${n.callFrame.functionName || '(anonymous)'}  ${category(n)}:${n.callFrame.lineNumber + 1}`,
)) {
  console.log(`  ${pct(us).padStart(6)}  ${k}`);
}

// Inclusive time: each sample counts once for every distinct function on its stack.
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const n = byId.get(at)!;
    if (n.callFrame.functionName === '(root)') continue;
    const k = `${n.callFrame.functionName || '(anonymous)'}  ${category(n)}:${n.callFrame.lineNumber + 1}`;
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}
console.log('\nfunctions by inclusive time (with what they call):');
for (const [k, us] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${pct(us).padStart(6)}  ${k}`);
}

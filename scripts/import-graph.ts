/**
 * The folder import graph of a service's `src` (issue 26 item 3): a module imports another only if that one does
 * not import it back, directly or through others. `test/import-graph.test.ts` fails on any folder cycle;
 * `node --import tsx scripts/import-graph.ts` prints them.
 *
 * A node is a module or infra folder (`modules/invoices`, `infra/documents`, `modules/open-banking`: deeper
 * folders belong to it), any other first-level folder (`lib`, `db`, `plugins`, `jobs`), or a file directly in
 * `src` (`app.ts`, `context.ts`). Every relative import counts, `import type` included: a type is a dependency too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

/** The graph node a file of `src` belongs to. */
export function folderOf(relPath: string): string {
  const parts = relPath.split(sep);
  if (parts.length === 1) return parts[0] as string;
  if ((parts[0] === 'modules' || parts[0] === 'infra') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0] as string;
}

export interface FolderGraph {
  /** folder -> folders it imports -> one example `file -> import` for the edge */
  edges: Map<string, Map<string, string>>;
}

export function folderGraph(srcDir: string): FolderGraph {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(srcDir)) {
    const from = folderOf(relative(srcDir, file));
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT_RE)) {
      const spec = match[1] ?? match[2];
      if (spec === undefined || !spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      const rel = relative(srcDir, target);
      if (rel.startsWith('..')) continue;
      const to = folderOf(rel);
      if (to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      edges.set(from, out);
      if (!out.has(to)) out.set(to, `${relative(srcDir, file)} -> ${spec}`);
    }
  }
  return { edges };
}

/** Strongly connected components with more than one folder: each is a folder loop. */
export function folderCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  const nodes = new Set<string>(graph.edges.keys());
  for (const out of graph.edges.values()) for (const to of out.keys()) nodes.add(to);
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Each loop with the edges inside it, for a failure message that says which imports to look at. */
export function describeCycles(graph: FolderGraph, cycles: string[][]): string[] {
  return cycles.map((members) => {
    const inside = new Set(members);
    const lines: string[] = [];
    for (const from of members) {
      for (const [to, example] of graph.edges.get(from) ?? []) {
        if (inside.has(to)) lines.push(`  ${from} -> ${to}   (${example})`);
      }
    }
    return `loop of ${members.join(', ')}\n${lines.join('\n')}`;
  });
}

export const SERVICE_SOURCES = ['services/accounting/src', 'services/remittance/src'];

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  let loops = 0;
  for (const src of SERVICE_SOURCES) {
    const graph = folderGraph(join(root, src));
    const cycles = folderCycles(graph);
    loops += cycles.length;
    console.log(`${src}: ${cycles.length === 0 ? 'no folder loops' : `${cycles.length} folder loop(s)`}`);
    for (const text of describeCycles(graph, cycles)) console.log(text);
  }
  process.exitCode = loops === 0 ? 0 : 1;
}

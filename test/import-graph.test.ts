import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCycles, folderCycles, folderGraph, SERVICE_SOURCES } from '../scripts/import-graph.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Issue 26 item 3: no folder of a service's src imports one that imports it back, directly or through others.
describe('folder import graph', () => {
  for (const src of SERVICE_SOURCES) {
    it(`${src} has no folder loops`, () => {
      const graph = folderGraph(join(ROOT, src));
      expect(describeCycles(graph, folderCycles(graph))).toEqual([]);
    });
  }

  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('finds a loop through three folders, a type import and a deeper file included', () => {
    write('modules/a/a.service.ts', "import { b } from '../b/b.service.js';\nexport const a = b;\n");
    write('modules/b/b.service.ts', "import { c } from '../../lib/c.js';\nexport const b = c;\n");
    write('lib/c.ts', "import type { A } from '../modules/a/deep/a.types.js';\nexport const c = 1;\n");
    write('modules/a/deep/a.types.ts', 'export type A = number;\n');
    write('modules/d/d.ts', "import { a } from '../a/a.service.js';\nimport './d.local.js';\nexport const d = a;\n");
    const graph = folderGraph(dir);
    const cycles = folderCycles(graph);
    expect(cycles).toEqual([['lib', 'modules/a', 'modules/b']]);
    expect(describeCycles(graph, cycles)[0]).toContain('lib/c.ts -> ../modules/a/deep/a.types.js');
  });
});

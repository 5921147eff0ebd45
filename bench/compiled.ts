/**
 * The accounting service compiled to plain JavaScript with tsc, for benchmarks that measure memory
 * (the service normally runs its TypeScript through tsx, whose loader and caches take about 95 MB).
 * `compileAccounting(root, outDir)` emits services/accounting/src and packages/shared/src of the
 * checkout at `root` (tests left out) into outDir with the same layout, copies the migrations, and
 * gives outDir a node_modules whose packages are links to root's, except @app/shared, which points at
 * the compiled copy (its package.json exports mapped to .js). Answers the compiled server.js.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function compileAccounting(root: string, outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const tsconfig = join(outDir, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({
    extends: join(root, 'tsconfig.base.json'),
    compilerOptions: { noEmit: false, outDir, rootDir: root, sourceMap: false, declaration: false, typeRoots: [join(root, 'node_modules/@types')] },
    include: [join(root, 'services/accounting/src/**/*.ts'), join(root, 'packages/shared/src/**/*.ts')],
    exclude: [join(root, '**/*.test.ts')],
  }));
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', tsconfig], { stdio: 'inherit' });
  cpSync(join(root, 'services/accounting/src/db/migrations'), join(outDir, 'services/accounting/src/db/migrations'), { recursive: true });
  cpSync(join(root, 'services/accounting/package.json'), join(outDir, 'services/accounting/package.json'));
  const shared = JSON.parse(readFileSync(join(root, 'packages/shared/package.json'), 'utf8'));
  shared.exports = { '.': './src/index.js', './*': './src/*.js' };
  writeFileSync(join(outDir, 'packages/shared/package.json'), JSON.stringify(shared, null, 2));
  const modules = join(outDir, 'node_modules');
  mkdirSync(join(modules, '@app'), { recursive: true });
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name === '@app' || name === '.bin') continue;
    symlinkSync(join(root, 'node_modules', name), join(modules, name));
  }
  symlinkSync(join(outDir, 'packages/shared'), join(modules, '@app/shared'));
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return join(outDir, 'services/accounting/src/server.js');
}

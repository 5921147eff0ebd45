import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Route handlers pass the caller's TenantScope to a service and never decide where a transaction
 * begins or ends (src/db/tenant-scope.ts): read from the source of every routes file, so a new
 * route that opens its own transaction fails here.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

const files = sourceFiles(SRC);
const routeFiles = files.filter((f) => f.endsWith('.routes.ts'));

/** What only a service (or a repository) may do. */
const FORBIDDEN: ReadonlyArray<{ rule: string; pattern: RegExp; example: string }> = [
  {
    rule: 'opens a transaction',
    pattern: /\.transaction\s*\(/,
    example: 'await scopeOf(request).transaction((trx) => save(trx))',
  },
  {
    rule: 'opens a connection in a context',
    pattern: /\bwithContext\s*\(/,
    example: 'ctx.db.withContext({ kind: "tenant", orgId }, fn)',
  },
  {
    rule: 'runs statements on the scope itself',
    pattern: /\.run\s*\(/,
    example: 'await scope.run((db) => find(db, id))',
  },
  { rule: 'takes a connection', pattern: /\.connection\s*\(/, example: 'db.connection().execute(fn)' },
  {
    rule: 'uses the removed request.tenant / tenantTx',
    pattern: /\.tenant\s*\(|\btenantTx\b/,
    example: 'request.tenantTx((trx) => f(trx))',
  },
  {
    rule: 'reaches a repository past its service',
    pattern: /from\s+'[^']*\.repository\.js'/,
    example: "import * as repo from './invoices.repository.js';",
  },
];

/** A route registration: app.get('/...', ...), fastify.post("/..."). */
const REGISTERS_ROUTE = /\.(get|post|put|patch|delete)\(\s*['"`]\//;

describe('route handlers leave transactions to the services', () => {
  it('finds the routes files it checks', () => {
    const names = routeFiles.map((f) => relative(SRC, f));
    expect(names).toEqual(
      expect.arrayContaining([
        join('modules', 'invoices', 'invoices.routes.ts'),
        join('modules', 'ledger', 'ledger.routes.ts'),
        join('modules', 'auth', 'auth.routes.ts'),
        join('modules', 'banking', 'banking.routes.ts'),
      ]),
    );
    expect(routeFiles.length).toBeGreaterThanOrEqual(17);
  });

  it('registers routes only in *.routes.ts files, so the scan below sees every handler', () => {
    const elsewhere = files.filter((f) => !f.endsWith('.routes.ts') && REGISTERS_ROUTE.test(readFileSync(f, 'utf8')));
    expect(elsewhere.map((f) => relative(SRC, f))).toEqual([]);
  });

  it.each(FORBIDDEN)('each pattern catches what it forbids: $rule', ({ pattern, example }) => {
    expect(pattern.test(example)).toBe(true);
  });

  it('no routes file opens a transaction, a connection or a context, or reads a repository', () => {
    const found: string[] = [];
    for (const file of routeFiles) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const { rule, pattern } of FORBIDDEN) {
          if (pattern.test(line)) found.push(`${relative(SRC, file)}:${i + 1} ${rule}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});

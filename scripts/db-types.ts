import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openRawPool } from '../packages/shared/src/db/database.js';
import { migrate } from '../packages/shared/src/db/migrate.js';
import { generateSchemaTypes } from '../packages/shared/src/db/schema-types.js';

/**
 * `npm run db:types`: migrates a fresh embedded database per service and writes its Kysely types
 * to services/<name>/src/db/schema.generated.ts. test/db-types.test.ts fails when they drift.
 */
export const SCHEMA_SERVICES = ['accounting', 'remittance'] as const;

export function schemaPaths(name: string) {
  const dir = join(import.meta.dirname, '..', 'services', name, 'src', 'db');
  return { migrations: join(dir, 'migrations'), generated: join(dir, 'schema.generated.ts') };
}

export const SCHEMA_SOURCE = (name: string) => `services/${name}/src/db/migrations`;

async function main() {
  for (const name of SCHEMA_SERVICES) {
    const paths = schemaPaths(name);
    const pool = await openRawPool({ url: 'memory://', appRole: '' });
    try {
      await migrate(pool, paths.migrations);
      writeFileSync(paths.generated, await generateSchemaTypes(pool, SCHEMA_SOURCE(name)));
    } finally {
      await pool.close();
    }
    console.log(`wrote ${paths.generated}`);
  }
}

if (process.argv[1] === import.meta.filename) await main();

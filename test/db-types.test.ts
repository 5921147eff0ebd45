import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generateSchemaTypes } from '../packages/shared/src/db/schema-types.js';
import { freshDatabase } from '../packages/shared/src/test/clone.js';
import { SCHEMA_SERVICES, SCHEMA_SOURCE, schemaPaths } from '../scripts/db-types.js';

// The committed Kysely types are regenerated from this run's migrated template (PGlite, or
// PostgreSQL under TEST_DATABASE_URL): a migration without `npm run db:types` fails here.
for (const name of SCHEMA_SERVICES) {
  it(`services/${name}/src/db/schema.generated.ts matches the migrated schema`, async () => {
    const t = await freshDatabase(name, '');
    try {
      const generated = await generateSchemaTypes(t.db.raw, SCHEMA_SOURCE(name));
      const committed = readFileSync(schemaPaths(name).generated, 'utf8');
      expect(committed, `the ${name} schema types are out of date: run npm run db:types`).toBe(generated);
    } finally {
      await t.destroy();
    }
  });
}

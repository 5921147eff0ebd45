import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@app/shared/db/database';
import { migrate } from '@app/shared/db/migrate';
import { openApiTypes } from '@app/web-tools/api-types';
import { buildApp } from '../../../services/accounting/src/app.js';
import { loadConfig } from '../../../services/accounting/src/config.js';
import { DATABASE_SETTINGS } from '../../../services/accounting/src/db/settings.js';
import type { DB } from '../../../services/accounting/src/db/types.js';
import { APP_ROLE, MIGRATIONS_DIR } from '../../../services/accounting/src/server.js';

/** Where the typed client's paths live; `npm run api:types` rewrites it, a test checks it is current. */
export const API_TYPES_FILE = fileURLToPath(new URL('../src/api/schema.generated.ts', import.meta.url));

/** The accounting service's OpenAPI document as the running service serves it (in-memory database). */
export async function accountingOpenApi(): Promise<unknown> {
  const config = loadConfig({ ...process.env, ACCOUNTING_DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' });
  const db = await createDatabase<DB>({ url: 'memory://', appRole: APP_ROLE, settings: DATABASE_SETTINGS });
  try {
    await migrate(db.raw, MIGRATIONS_DIR);
    const app = await buildApp(config, db);
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

/** openapi-typescript's output for the current document. */
export async function generateApiTypes(): Promise<string> {
  return openApiTypes(await accountingOpenApi(), 'accounting');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(API_TYPES_FILE, await generateApiTypes());
  console.log(`wrote ${API_TYPES_FILE}`);
}

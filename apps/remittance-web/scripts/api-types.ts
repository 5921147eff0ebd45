import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@app/shared/db/database';
import { migrate } from '@app/shared/db/migrate';
import { openApiTypes } from '@app/web-tools/api-types';
import { buildApp } from '../../../services/remittance/src/app.js';
import { loadConfig } from '../../../services/remittance/src/config.js';
import type { DB } from '../../../services/remittance/src/db/types.js';
import { MIGRATIONS_DIR } from '../../../services/remittance/src/paths.js';

/** Where the typed client's paths live; `npm run api:types` rewrites it, a test checks it is current. */
export const API_TYPES_FILE = fileURLToPath(new URL('../src/api/schema.generated.ts', import.meta.url));

/**
 * The remittance service's OpenAPI document as the running service serves it (in-memory database,
 * every feature flag on, so the cards routes are typed too).
 */
export async function remittanceOpenApi(): Promise<unknown> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    REMITTANCE_DATABASE_URL: 'memory://',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'api-types-secret-api-types-secret-0123456789',
    NATIONAL_ID_PEPPER: 'api-types-pepper-api-types-pepper-0123456789',
    RATE_LIMITS: 'off',
    CONSENT_EXPIRY_INTERVAL: '0s',
    BALANCE_SYNC_INTERVAL: '0s',
    SETTLEMENT_INTERVAL: '0s',
    RETENTION_PURGE_INTERVAL: '0s',
    FEATURE_CARDS: 'true',
    FEATURE_PHYSICAL_CARDS: 'true',
    FEATURE_CARD_PIN: 'true',
    FEATURE_SPENDING_LIMITS: 'true',
    FEATURES_NOTIFICATIONS: 'true',
  });
  const db = await createDatabase<DB>({ url: 'memory://', appRole: 'remittance_app' });
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
  return openApiTypes(await remittanceOpenApi(), 'remittance');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(API_TYPES_FILE, await generateApiTypes());
  console.log(`wrote ${API_TYPES_FILE}`);
}

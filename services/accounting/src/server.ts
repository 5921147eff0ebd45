import { fileURLToPath } from 'node:url';
import { configOrExit } from '@app/shared/config';
import { startService } from '@app/shared/startup';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { DATABASE_SETTINGS } from './db/settings.js';
import type { DB } from './db/types.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./db/migrations', import.meta.url));
export const APP_ROLE = 'accounting_app';

async function main() {
  const config = configOrExit('accounting', () => loadConfig());
  await startService<DB>({
    name: 'accounting',
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    appRole: APP_ROLE,
    settings: DATABASE_SETTINGS,
    migrations: MIGRATIONS_DIR,
    port: config.port,
    host: config.host,
    async buildApp(db) {
      const app = await buildApp(config, db);
      if (db.kind === 'pglite') {
        app.log.info(
          { dataDir: config.databaseUrl },
          'embedded PGlite database (development/single instance; set ACCOUNTING_DATABASE_URL for PostgreSQL)',
        );
      }
      return app;
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

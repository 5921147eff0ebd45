import { configOrExit } from '@app/shared/config';
import { startService } from '@app/shared/startup';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { DB } from './db/types.js';
import { MIGRATIONS_DIR } from './paths.js';

const config = configOrExit('remittance', () => loadConfig(process.env));

await startService<DB>({
  name: 'remittance',
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  appRole: 'remittance_app',
  migrations: MIGRATIONS_DIR,
  port: config.port,
  host: config.host,
  buildApp: (db) => buildApp(config, db),
});

import { configOrExit } from '@app/shared/config';
import { createDatabase } from '@app/shared/db/database';
import { migrate } from '@app/shared/db/migrate';
import { listenGracefully } from '@app/shared/http';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { DB } from './db/schema.js';
import { MIGRATIONS_DIR } from './paths.js';

const config = configOrExit('remittance', () => loadConfig(process.env));

const db = await createDatabase<DB>({ url: config.databaseUrl, appRole: 'remittance_app' });
await migrate(db.raw, MIGRATIONS_DIR);
const app = await buildApp(config, db);
await listenGracefully(app, { port: config.port, host: config.host, onClose: () => db.close() });

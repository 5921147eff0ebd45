import { configOrExit } from '@app/shared/config';
import { createDatabase } from '@app/shared/db/database';
import { migrate } from '@app/shared/db/migrate';
import { loadConfig } from './config.js';
import { APP_ROLE, MIGRATIONS_DIR } from './server.js';

const config = configOrExit('accounting', () => loadConfig());
const db = await createDatabase({ url: config.databaseUrl, appRole: APP_ROLE });
const applied = await migrate(db.raw, MIGRATIONS_DIR, (m) => console.log(`accounting: ${m}`));
if (applied.length === 0) console.log('accounting: database is up to date');
await db.close();

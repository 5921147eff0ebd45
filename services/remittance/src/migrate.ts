import { fileURLToPath } from 'node:url';
import { configOrExit } from '@app/shared/config';
import { MIGRATIONS_DIR } from './paths.js';

/** `npm run migrate`: applies the SQL migrations to REMITTANCE_DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const { createDatabase } = await import('@app/shared/db/database');
  const { migrate } = await import('@app/shared/db/migrate');
  const { loadConfig } = await import('./config.js');
  const config = configOrExit('remittance', () => loadConfig(process.env));
  const db = await createDatabase({ url: config.databaseUrl, appRole: 'remittance_app' });
  try {
    const applied = await migrate(db.raw, MIGRATIONS_DIR, (m) => console.log(m));
    console.log(
      applied.length ? `remittance: ${applied.length} migration(s) applied` : 'remittance: database is up to date',
    );
  } finally {
    await db.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawPool } from './raw-client.js';

/**
 * Plain SQL migrations, applied in file-name order (timestamp-named), each in its own
 * transaction, recorded in schema_migrations. An advisory lock makes concurrent start-ups of
 * several instances apply them once.
 */
export async function migrate(pool: RawPool, dir: string, log?: (msg: string) => void): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const conn = await pool.acquire();
  const applied: string[] = [];
  try {
    await conn.script('RESET ROLE');
    conn.state.context = null;
    await conn.query('SELECT pg_advisory_lock(727274)', []);
    try {
      await conn.script(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set((await conn.query('SELECT name FROM schema_migrations', [])).rows.map((r) => r.name));
      for (const file of files) {
        if (done.has(file)) continue;
        const sql = readFileSync(join(dir, file), 'utf8');
        try {
          await conn.script(
            `BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`,
          );
        } catch (err) {
          await conn.script('ROLLBACK').catch(() => {});
          throw new Error(`migration ${file} failed: ${(err as Error).message}`);
        }
        applied.push(file);
        log?.(`applied migration ${file}`);
      }
    } finally {
      await conn.query('SELECT pg_advisory_unlock(727274)', []);
    }
  } finally {
    pool.release(conn);
  }
  return applied;
}

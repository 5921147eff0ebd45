import pg from 'pg';
import { openRawPool, wrapPool, type Database } from '../db/database.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import type { TestDatabase } from './databases.js';

/** Why outage tests skip on the embedded database: they need a server whose connections can be cut. */
export const OUTAGE_SKIP_REASON = 'needs TEST_DATABASE_URL (a real PostgreSQL server to cut off)';

export interface DatabaseBehindProxy<DB> {
  /** The service's database, reached through the proxy. */
  db: Database<DB>;
  proxy: TcpProxy;
  /** Terminates every backend of this database (pg_terminate_backend), as an administrator would. */
  terminateBackends(): Promise<number>;
  close(): Promise<void>;
}

/** The test database of `t` (a PostgreSQL clone), reached through a TCP proxy that can go down. */
export async function databaseBehindProxy<DB>(t: TestDatabase<DB>, appRole: string): Promise<DatabaseBehindProxy<DB>> {
  const direct = new URL(t.url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(t.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const raw = await openRawPool({ url: viaProxy.toString(), appRole, poolSize: 4 });
  const db = wrapPool<DB>(raw, appRole);
  return {
    db,
    proxy,
    async terminateBackends() {
      const admin = new pg.Client({ connectionString: t.url });
      await admin.connect();
      try {
        const r = await admin.query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        return r.rows[0].n as number;
      } finally {
        await admin.end();
      }
    },
    async close() {
      await proxy.up().catch(() => {});
      await db.close().catch(() => {});
      await proxy.close();
    },
  };
}

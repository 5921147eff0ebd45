import { createHash } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

/**
 * The smallest surface both backends share: one connection that runs a parameterised
 * statement or a multi-statement script. Everything above (Kysely, tenant context,
 * migrations) is written once against this.
 */
export interface RawConnection {
  query(sql: string, params: readonly unknown[]): Promise<{ rows: any[]; affectedRows?: bigint }>;
  /** Simple-protocol script: several statements, one round trip, no parameters. */
  script(sql: string): Promise<void>;
  /** Backend-specific state the tenant layer caches (see tenant-context.ts). */
  state: { context: string | null };
}

export interface RawPool {
  readonly kind: 'postgres' | 'pglite';
  acquire(): Promise<RawConnection>;
  release(conn: RawConnection, broken?: boolean): void;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory, used to clone test databases. */
  dump?(): Promise<Blob>;
}

// Same value types on both backends: numeric and date stay strings (money and calendar
// dates must not pass through float or a time zone), bigint counts become numbers.
const NUMERIC = 1700;
const INT8 = 20;
const DATE = 1082;
pg.types.setTypeParser(NUMERIC, (v) => v);
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);

const names = new Map<string, string>();
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (names.size < 5000) names.set(sql, name);
  }
  return name;
}

export function createPgPool(url: string, max = 10): RawPool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const states = new WeakMap<pg.PoolClient, RawConnection>();
  return {
    kind: 'postgres',
    async acquire() {
      const client = await pool.connect();
      let conn = states.get(client);
      if (!conn) {
        conn = {
          state: { context: null },
          async query(sql, params) {
            // Named (prepared) statements: PostgreSQL parses and plans each distinct text once
            // per connection. Plans that depend on row-level security are re-planned by the
            // server when the role changes, so this is safe with the tenant context.
            const r = await client.query({ name: statementName(sql), text: sql, values: params as unknown[] });
            return {
              rows: r.rows ?? [],
              affectedRows:
                r.command === 'INSERT' || r.command === 'UPDATE' || r.command === 'DELETE' || r.command === 'MERGE'
                  ? BigInt(r.rowCount ?? 0)
                  : undefined,
            };
          },
          async script(sql) {
            await client.query(sql);
          },
        };
        (conn as any).client = client;
        states.set(client, conn);
      }
      return conn;
    },
    release(conn, broken) {
      const client = (conn as any).client as pg.PoolClient;
      client.release(broken ? true : undefined);
    },
    async close() {
      await pool.end();
    },
  };
}

export interface PgliteOptions {
  /** Directory for a persistent database; undefined for in-memory. */
  dataDir?: string;
  /** Tarball produced by dump(), to start from a copy (test template). */
  loadDataDir?: Blob;
}

/** PGlite is one single-threaded backend: acquisition is a mutex over its only connection. */
export async function createPglitePool(opts: PgliteOptions): Promise<RawPool> {
  const db = await PGlite.create({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    relaxedDurability: true,
    parsers: { [NUMERIC]: (v: string) => v, [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  const conn: RawConnection = {
    state: { context: null },
    async query(sql, params) {
      const r = await db.query(sql, params as any[]);
      return { rows: r.rows as any[], affectedRows: r.affectedRows !== undefined ? BigInt(r.affectedRows) : undefined };
    },
    async script(sql) {
      await db.exec(sql);
    },
  };
  let tail: Promise<void> = Promise.resolve();
  let unlock: (() => void) | null = null;
  return {
    kind: 'pglite',
    async acquire() {
      const previous = tail;
      let release!: () => void;
      tail = new Promise<void>((r) => (release = r));
      await previous;
      unlock = release;
      return conn;
    },
    release(_conn, broken) {
      if (broken) conn.state.context = null;
      const u = unlock;
      unlock = null;
      u?.();
    },
    async close() {
      await tail;
      await db.close();
    },
    async dump() {
      return db.dumpDataDir('none');
    },
  };
}

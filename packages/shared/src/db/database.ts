import { mkdirSync } from 'node:fs';
import { type IsolationLevel, Kysely, type Transaction } from 'kysely';
import {
  assertNotNested,
  contextDialect,
  contextRunner,
  type DbContext,
  sessionSql,
  type TransactionEnd,
} from './context-dialect.js';
import { createPglitePool, createPgPool, type RawPool } from './raw-client.js';
import { DatabaseUnavailableError } from './unavailable.js';

export type { DbContext, TransactionEnd } from './context-dialect.js';

export interface Database<DB> {
  readonly kind: 'postgres' | 'pglite';
  /** Runs as the login role: no row-level security. Migrations, sign-in look-ups, jobs. */
  readonly system: Kysely<DB>;
  /**
   * Runs `fn` on one connection in the given context: a tenant's organization (RLS applies),
   * or anonymous. Open transactions with `db.transaction()` inside `fn`.
   */
  withContext<T>(ctx: DbContext, fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * withContext and one transaction around fn: commits when fn resolves, rolls back when it throws.
   * `end.commitWith(last)` makes the statement `last` sends carry the COMMIT (one round trip less,
   * locks held for less time); the transaction then ends with it.
   */
  transaction<T>(ctx: DbContext, fn: TransactionFn<DB, T>, options?: TransactionOptions): Promise<T>;
  /**
   * One statement in a context, for the hottest look-ups (the principal of every request): the
   * same connection, context cache and pipelining as withContext, without building a query or a
   * Kysely instance per call. SQL is written once as a constant; rows come back as the driver
   * returns them.
   */
  query<R>(ctx: DbContext, sql: string, params: readonly unknown[]): Promise<R[]>;
  /**
   * Milliseconds a `SELECT 1` took; rejects with DatabaseUnavailableError when the database does
   * not answer within PING_TIMEOUT_MS, so health reports an outage within a second (G15).
   */
  ping(): Promise<number>;
  close(): Promise<void>;
  raw: RawPool;
}

export type TransactionFn<DB, T> = (trx: Transaction<DB>, end: TransactionEnd) => Promise<T>;

export interface TransactionOptions {
  isolation?: IsolationLevel;
}

export const PING_TIMEOUT_MS = 800;

export interface DatabaseOptions {
  /** `postgres://...`, `memory://`, or a directory for an embedded database. */
  url: string;
  /** The restricted role tenant queries run as (created by the migrations). */
  appRole: string;
  poolSize?: number;
  /**
   * Server settings for every connection of a PostgreSQL pool (sent at connect, as `-c name=value`
   * startup options); the embedded database ignores them.
   */
  settings?: Readonly<Record<string, string>>;
  /** PGlite tarball to start from (test templates). */
  loadDataDir?: Blob;
}

export async function openRawPool(opts: DatabaseOptions): Promise<RawPool> {
  if (/^postgres(ql)?:\/\//.test(opts.url)) return createPgPool(opts.url, opts.poolSize ?? 10, opts.settings);
  if (opts.url === 'memory://' || opts.url === '') return createPglitePool({ loadDataDir: opts.loadDataDir });
  const dir = opts.url.replace(/^file:\/\//, '');
  mkdirSync(dir, { recursive: true });
  return createPglitePool({ dataDir: dir, loadDataDir: opts.loadDataDir });
}

export async function createDatabase<DB>(opts: DatabaseOptions): Promise<Database<DB>> {
  const raw = await openRawPool(opts);
  return wrapPool<DB>(raw, opts.appRole);
}

export function wrapPool<DB>(raw: RawPool, appRole: string): Database<DB> {
  const system = new Kysely<DB>({ dialect: contextDialect(raw, appRole, { kind: 'system' }) });
  const runInContext = contextRunner<DB>(raw, appRole);
  function withContext<T>(ctx: DbContext, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
    assertNotNested();
    return runInContext(ctx, fn);
  }
  function transaction<T>(ctx: DbContext, fn: TransactionFn<DB, T>, options?: TransactionOptions): Promise<T> {
    assertNotNested();
    return runInContext(ctx, (conn, end) => {
      const builder = conn.transaction();
      return (options?.isolation ? builder.setIsolationLevel(options.isolation) : builder).execute((trx) =>
        fn(trx, end),
      );
    });
  }
  async function query<R>(ctx: DbContext, sql: string, params: readonly unknown[]): Promise<R[]> {
    assertNotNested();
    const conn = await raw.acquire();
    try {
      const session = sessionSql(ctx, appRole);
      if (conn.state.context === session) return (await conn.query(sql, params)).rows as R[];
      // Unknown until the script succeeds (a failed pipeline may have applied part of it).
      conn.state.context = null;
      const r = await conn.pipelined(session, sql, params, null);
      conn.state.context = session;
      return r.rows as R[];
    } finally {
      raw.release(conn);
    }
  }
  return {
    kind: raw.kind,
    system,
    raw,
    withContext,
    query,
    transaction,
    async ping() {
      const started = performance.now();
      const probe = (async () => {
        const conn = await raw.acquire();
        try {
          await conn.query('SELECT 1', []);
        } finally {
          raw.release(conn);
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DatabaseUnavailableError(new Error('no answer to a ping'))),
          PING_TIMEOUT_MS,
        );
      });
      // A probe still waiting when the timeout wins finishes (and releases) in the background.
      probe.catch(() => {});
      try {
        await Promise.race([probe, timeout]);
      } finally {
        clearTimeout(timer);
      }
      return performance.now() - started;
    },
    async close() {
      await raw.close();
    },
  };
}

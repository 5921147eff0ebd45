import { createHash } from 'node:crypto';
import pg from 'pg';
import { corked, type PipelinedPoolConfig } from './pg-internals.js';
import { classifyDatabaseError, isConnectivityError } from './unavailable.js';

/**
 * The smallest surface both backends share: one connection that runs a parameterised
 * statement or a multi-statement script. Everything above (Kysely, tenant context,
 * migrations) is written once against this.
 */
export interface RawResult {
  rows: Record<string, unknown>[];
  affectedRows?: bigint;
}

/** A parameterised statement. */
export interface RawStatement {
  sql: string;
  params: readonly unknown[];
}

export interface RawConnection {
  query(sql: string, params: readonly unknown[]): Promise<RawResult>;
  /** Simple-protocol script: several statements, one round trip, no parameters. */
  script(sql: string): Promise<void>;
  /**
   * A script before the statement (a context, BEGIN) and/or one after it (COMMIT), all in one
   * round trip where the backend pipelines (PostgreSQL), one after the other otherwise. The
   * first failure is thrown, even when a later part ran. `lead`, a statement of its own, goes
   * between the script before and the statement (its result is not returned: a failure fails all).
   */
  pipelined(
    before: string | null,
    sql: string,
    params: readonly unknown[],
    after: string | null,
    lead?: RawStatement,
  ): Promise<RawResult>;
  /** Backend-specific state the tenant layer caches (see context-dialect.ts). */
  state: { context: string | null };
  /** Set when a statement failed because the connection is gone: release destroys it. */
  broken?: boolean;
}

/** What a pool tells the code that listens on a notification channel (see RawPool.listen). */
export interface NotificationListener {
  /** A notification's payload, delivered once per listening connection (so possibly several times). */
  notify(payload: string): void;
  /**
   * true when the first connection of the pool listens on the channel, false when the last one
   * that did is gone: until the next true, notifications may be lost.
   */
  listening(up: boolean): void;
}

export interface RawPool {
  readonly kind: 'postgres' | 'pglite';
  acquire(): Promise<RawConnection>;
  /**
   * LISTEN on `channel` on every connection of the pool (PostgreSQL: each connection sends it,
   * pipelined before its next statement, the first time it is acquired after this call). Every
   * connection delivers every notification, and a connection delivers the notifications of its
   * own transaction before that transaction's COMMIT resolves: whatever the code that committed
   * does next already sees the listener's reaction. Resolves to the function that stops listening.
   */
  listen(channel: string, listener: NotificationListener): Promise<() => void>;
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

/** Waits for every part of a pipeline; the first failure wins (no promise is left unobserved). */
async function settleAll(parts: Array<Promise<unknown> | null>): Promise<unknown[]> {
  const settled = await Promise.allSettled(parts);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
}

function toRawResult(r: pg.QueryResult): RawResult {
  return {
    rows: r.rows ?? [],
    affectedRows:
      r.command === 'INSERT' || r.command === 'UPDATE' || r.command === 'DELETE' || r.command === 'MERGE'
        ? BigInt(r.rowCount ?? 0)
        : undefined,
  };
}

/** A lost connection marks the client broken (release destroys it) and becomes DatabaseUnavailableError. */
function failed(conn: RawConnection, err: unknown): unknown {
  if (isConnectivityError(err)) conn.broken = true;
  return classifyDatabaseError(err);
}

const SETTING_NAME = /^[a-z_][a-z0-9_.]*$/;
const SETTING_VALUE = /^[A-Za-z0-9_.:-]+$/;

/** `settings` as libpq startup options (`-c name=value ...`); only plain names and values. */
export function startupOptions(settings: Readonly<Record<string, string>> = {}): string | undefined {
  const parts = Object.entries(settings).map(([name, value]) => {
    if (!SETTING_NAME.test(name) || !SETTING_VALUE.test(value))
      throw new Error(`unsupported database setting ${name}=${value}`);
    return `-c ${name}=${value}`;
  });
  return parts.length ? parts.join(' ') : undefined;
}

export function createPgPool(url: string, max = 10, settings?: Readonly<Record<string, string>>): RawPool {
  // Pipeline mode: node-postgres writes a query without waiting for the previous one's answer,
  // so a context script and the statement after it (or a last statement and its COMMIT) share
  // one round trip. Code that awaits each query, as Kysely does, behaves exactly as before.
  // connectionTimeoutMillis bounds both a connect to an unreachable server and the wait for a
  // free client under load; either way the request gets the outage answer (G15), not a hang.
  // keepAlive lets the OS notice a server that vanished without closing the socket.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    pipeline: true,
    options: startupOptions(settings),
  } satisfies PipelinedPoolConfig);
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const states = new WeakMap<pg.PoolClient, RawConnection>();
  const clients = new WeakMap<RawConnection, pg.PoolClient>();
  const channels = new Channels();
  return {
    kind: 'postgres',
    async acquire() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw classifyDatabaseError(err);
      }
      let conn = states.get(client);
      if (!conn) {
        const c: RawConnection = {
          state: { context: null },
          // Named (prepared) statements: PostgreSQL parses and plans each distinct text once
          // per connection. Plans that depend on row-level security are re-planned by the
          // server when the role changes, so this is safe with the tenant context.
          async query(sql, params) {
            try {
              return toRawResult(
                await client.query({ name: statementName(sql), text: sql, values: params as unknown[] }),
              );
            } catch (err) {
              throw failed(c, err);
            }
          },
          async script(sql) {
            try {
              await client.query(sql);
            } catch (err) {
              throw failed(c, err);
            }
          },
          async pipelined(before, sql, params, after, lead) {
            try {
              // In pipeline mode each query is written as it is submitted; corked, the parts
              // leave in one write (pg-internals.ts).
              const parts = corked(client, () => [
                before === null ? null : client.query(before),
                lead === undefined
                  ? null
                  : client.query({ name: statementName(lead.sql), text: lead.sql, values: lead.params as unknown[] }),
                client.query({ name: statementName(sql), text: sql, values: params as unknown[] }),
                after === null ? null : client.query(after),
              ]);
              const [, , r] = await settleAll(parts);
              return toRawResult(r as pg.QueryResult);
            } catch (err) {
              throw failed(c, err);
            }
          },
        };
        // A connection that dies while checked out (between two statements of a transaction)
        // emits 'error' on the client, and pg-pool only listens while it is idle: without this
        // listener the process would crash on an uncaught error. The next statement fails and
        // release destroys the client.
        client.on('error', () => {
          c.broken = true;
        });
        channels.attach(client);
        conn = c;
        clients.set(conn, client);
        states.set(client, conn);
      }
      channels.listenOn(client);
      return conn;
    },
    async listen(channel, listener) {
      channels.add(channel, listener);
      return () => channels.remove(channel, listener);
    },
    release(conn, broken) {
      const client = clients.get(conn);
      if (!client) throw new Error('release of a connection this pool did not give out');
      // A client whose connection failed is destroyed, not handed to the next request.
      client.release(broken || conn.broken ? true : undefined);
    },
    async close() {
      await pool.end();
    },
  };
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * The notification channels of one pg pool: which connections listen on which channel, and
 * how many connections listen on each (a channel's listeners hear `listening(false)` when the
 * last one is gone, as when the pool closes idle connections, and `true` again when one listens).
 */
class Channels {
  private readonly byName = new Map<string, { listeners: NotificationListener[]; live: number }>();
  /** Per client: the channels whose LISTEN it has sent (pending) and those it listens on (live). */
  private readonly clients = new WeakMap<pg.ClientBase, { pending: Set<string>; live: Set<string> }>();

  add(name: string, listener: NotificationListener): void {
    if (!CHANNEL.test(name)) throw new Error(`unsupported channel name ${name}`);
    const channel = this.byName.get(name);
    if (channel) {
      channel.listeners.push(listener);
      if (channel.live > 0) listener.listening(true);
    } else {
      this.byName.set(name, { listeners: [listener], live: 0 });
    }
  }

  /** The listener hears nothing more; connections keep listening (a LISTEN costs nothing idle). */
  remove(name: string, listener: NotificationListener): void {
    const channel = this.byName.get(name);
    if (channel) channel.listeners = channel.listeners.filter((l) => l !== listener);
  }

  /** Once per client: delivers its notifications and counts it out when it ends. */
  attach(client: pg.ClientBase): void {
    const mine = { pending: new Set<string>(), live: new Set<string>() };
    this.clients.set(client, mine);
    client.on('notification', (message) => {
      const channel = this.byName.get(message.channel);
      if (channel) for (const l of channel.listeners) l.notify(message.payload ?? '');
    });
    client.once('end', () => {
      for (const name of mine.live) {
        const channel = this.byName.get(name)!;
        if (--channel.live === 0) for (const l of channel.listeners) l.listening(false);
      }
      mine.live.clear();
    });
  }

  /**
   * Queues LISTEN for the channels this client does not listen on yet; it leaves before the
   * caller's first statement (node-postgres runs a client's queries in order), in the same write
   * or the one before it, so it adds no round trip of its own.
   */
  listenOn(client: pg.ClientBase): void {
    if (this.byName.size === 0) return;
    const mine = this.clients.get(client)!;
    if (mine.live.size + mine.pending.size === this.byName.size) return;
    for (const [name, channel] of this.byName) {
      if (mine.live.has(name) || mine.pending.has(name)) continue;
      mine.pending.add(name);
      client.query(`LISTEN ${name}`).then(
        () => {
          mine.pending.delete(name);
          mine.live.add(name);
          if (++channel.live === 1) for (const l of channel.listeners) l.listening(true);
        },
        // The connection failed (its statement fails too, and release destroys it): it never listened.
        () => mine.pending.delete(name),
      );
    }
  }
}

export interface PgliteOptions {
  /** Directory for a persistent database; undefined for in-memory. */
  dataDir?: string;
  /** Tarball produced by dump(), to start from a copy (test template). */
  loadDataDir?: Blob;
}

/** PGlite is one single-threaded backend: acquisition is a mutex over its only connection. */
export async function createPglitePool(opts: PgliteOptions): Promise<RawPool> {
  // Loaded only when the embedded database is used: a service on PostgreSQL does not carry
  // PGlite's WebAssembly build (about 27 MB of resident memory).
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    relaxedDurability: true,
    parsers: { [NUMERIC]: (v: string) => v, [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  const conn: RawConnection = {
    state: { context: null },
    async query(sql, params) {
      try {
        const r = await db.query<Record<string, unknown>>(sql, params as unknown[]);
        return {
          rows: r.rows,
          affectedRows: r.affectedRows !== undefined ? BigInt(r.affectedRows) : undefined,
        };
      } catch (err) {
        throw classifyDatabaseError(err);
      }
    },
    async script(sql) {
      try {
        await db.exec(sql);
      } catch (err) {
        throw classifyDatabaseError(err);
      }
    },
    async pipelined(before, sql, params, after, lead) {
      if (before !== null) await conn.script(before);
      let result: RawResult;
      try {
        if (lead !== undefined) await conn.query(lead.sql, lead.params);
        result = await conn.query(sql, params);
      } catch (err) {
        if (after !== null) await conn.script(after).catch(() => {});
        throw err;
      }
      if (after !== null) await conn.script(after);
      return result;
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
    async listen(channel, listener) {
      if (!CHANNEL.test(channel)) throw new Error(`unsupported channel name ${channel}`);
      // One connection, in this process: it listens from here on, and delivers a transaction's
      // notifications before its COMMIT resolves.
      const unlisten = await db.listen(channel, (payload) => listener.notify(payload));
      listener.listening(true);
      return () => void unlisten().catch(() => {});
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

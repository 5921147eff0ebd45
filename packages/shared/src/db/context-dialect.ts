import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  Kysely as KyselyClass,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  SingleConnectionProvider,
  type TransactionSettings,
} from 'kysely';
import type { RawConnection, RawPool, RawResult, RawStatement } from './raw-client.js';

/**
 * Who a query runs as.
 * - system: the login role (table owner), which row-level security does not restrict; for
 *   migrations, sign-in look-ups across organizations and background jobs.
 * - tenant: the service's restricted role with `app.org_id` set; RLS policies compare every
 *   row's organization with it. userId and requestId reach the audit trigger.
 * - user: the restricted role with `app.user_id` set (remittance): RLS policies compare every
 *   row's owner with it.
 * - anonymous: the restricted role with no organization or user: RLS shows no owned rows at all.
 */
export type DbContext =
  | { kind: 'system'; userId?: string | null; requestId?: string | null }
  | { kind: 'tenant'; orgId: string; userId?: string | null; requestId?: string | null }
  | { kind: 'user'; userId: string; requestId?: string | null }
  | { kind: 'anonymous' };

/**
 * Set while code runs on a checked-out connection (inside withContext). Taking a second
 * connection from there is refused: on PGlite (one connection) it would deadlock, and on a pool
 * it doubles the connections a request holds and escapes its transaction.
 */
const holdingConnection = new AsyncLocalStorage<boolean>();
/**
 * The nesting check runs under tests only: AsyncLocalStorage turns on async hooks for every
 * promise in the process, a cost production should not pay for a programming-error check that
 * the test suites (NODE_ENV=test, vitest) exercise on every database path.
 */
const CHECK_NESTING = process.env.NODE_ENV === 'test' || process.env.VITEST !== undefined;

/** Runs fn marked as holding a connection (tests only; see CHECK_NESTING). */
export function holding<T>(fn: () => Promise<T>): Promise<T> {
  return CHECK_NESTING ? holdingConnection.run(true, fn) : fn();
}

export function assertNotNested(): void {
  if (CHECK_NESTING && holdingConnection.getStore()) {
    throw new Error('a second database connection was requested inside withContext: use the db handle you were given');
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OWNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function safeRequestId(id: string | null | undefined): string {
  return id && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : '';
}

/** Session-level statements that put a connection in a context; their text is also the cache key. */
export function sessionSql(ctx: DbContext, appRole: string): string {
  const owner = (org: string, user: string) =>
    `SELECT set_config('app.org_id', ${literal(org)}, false), set_config('app.user_id', ${literal(user)}, false)`;
  if (ctx.kind === 'system') return `RESET ROLE; ${owner('', '')}`;
  if (ctx.kind === 'anonymous') return `SET ROLE ${appRole}; ${owner('', '')}`;
  if (ctx.kind === 'user') {
    if (!OWNER_ID.test(ctx.userId)) throw new Error('user context needs a user id');
    return `SET ROLE ${appRole}; ${owner('', ctx.userId)}`;
  }
  if (!UUID.test(ctx.orgId)) throw new Error('tenant context needs a UUID organization id');
  return `SET ROLE ${appRole}; ${owner(ctx.orgId, '')}`;
}

/**
 * A user's whole context for one transaction only (transaction-local settings, role included):
 * it vanishes at COMMIT or ROLLBACK, leaving the connection in the context it had before.
 */
function transactionUserSql(ctx: Extract<DbContext, { kind: 'user' }>, appRole: string): string {
  if (!OWNER_ID.test(ctx.userId)) throw new Error('user context needs a user id');
  return `SELECT set_config('role', ${literal(appRole)}, true), set_config('app.org_id', '', true), set_config('app.user_id', ${literal(
    ctx.userId,
  )}, true), set_config('app.request_id', ${literal(safeRequestId(ctx.requestId))}, true)`;
}

/** Transaction-local values the audit trigger reads; they vanish at COMMIT/ROLLBACK. */
function localSql(ctx: DbContext): string {
  if (ctx.kind === 'anonymous') return '';
  // The user context's app.user_id is a session setting (its RLS key), not overridden here.
  if (ctx.kind === 'user') return `SELECT set_config('app.request_id', ${literal(safeRequestId(ctx.requestId))}, true)`;
  const user = ctx.userId && UUID.test(ctx.userId) ? ctx.userId : '';
  return `SELECT set_config('app.user_id', ${literal(user)}, true), set_config('app.request_id', ${literal(
    safeRequestId(ctx.requestId),
  )}, true)`;
}

/**
 * The end of a transaction, as its owner (the service) sees it. `commitWith(last)` runs `last`,
 * which sends exactly one statement, as the transaction's final statement: the connection sends
 * COMMIT right behind it in the same round trip, so row locks it takes (a number counter, a
 * balance) are held only while the server runs the statement and the commit, not while Node reads
 * the answer and sends COMMIT. Repositories never end a transaction; they run the statement the
 * service hands to `commitWith`, unaware of it. `lead`, a statement whose result the caller does not
 * need, goes out just before last's statement in the same round trip: what its triggers do runs
 * before the locks last's statement takes (invoice items before the numbered invoice).
 */
export interface TransactionEnd {
  commitWith<T>(last: () => Promise<T>, lead?: CompiledQuery): Promise<T>;
}

/**
 * One checked-out connection plus the context it must run in. The context is applied lazily and
 * cached on the physical connection; when it must change, the context script travels in the
 * same round trip as the statement that needs it (pipelined), so switching organizations costs
 * no round trip. A transaction's BEGIN and context ride along with its first statement.
 */
class ContextConnection implements DatabaseConnection {
  constructor(
    readonly raw: RawConnection,
    private readonly ctx: DbContext,
    private readonly appRole: string,
  ) {}

  /** A transaction is open (begun, maybe not sent yet). */
  private inTx = false;
  /** The cached session context once the transaction commits, and once it rolls back. */
  private contextAfterCommit: string | null = null;
  private contextAfterRollback: string | null = null;
  /** BEGIN and context not sent yet: they go out with the transaction's first statement. */
  private pendingBegin: string | null = null;
  /** The next statement ends the transaction (TransactionEnd.commitWith). */
  private commitNext = false;
  /** The statement that goes out just before it (TransactionEnd.commitWith's lead). */
  private lead: RawStatement | undefined = undefined;
  /** The transaction already ended with the statement given to commitWith. */
  private committed = false;

  /** The TransactionEnd of the transaction open on this connection. */
  readonly end: TransactionEnd = {
    commitWith: async <T>(last: () => Promise<T>, lead?: CompiledQuery): Promise<T> => {
      if (!this.inTx || this.committed) throw new Error('commitWith outside an open transaction');
      this.commitNext = true;
      this.lead = lead && { sql: lead.sql, params: lead.parameters };
      try {
        const result = await last();
        if (!this.committed) throw new Error('commitWith: the function sent no statement');
        return result;
      } finally {
        this.commitNext = false;
        this.lead = undefined;
      }
    },
  };

  private pendingSession(): string | null {
    const sql = sessionSql(this.ctx, this.appRole);
    return this.raw.state.context === sql ? null : sql;
  }

  begin(settings: TransactionSettings): void {
    const session = this.pendingSession();
    const iso = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    const parts = [`BEGIN${iso}`];
    const before = this.raw.state.context;
    if (session !== null && this.ctx.kind === 'user') {
      // A user's transaction on a connection in another context (typically the login role
      // after the session look-up): the user's context is set for this transaction only, so
      // the connection is back in its cached context after it, whatever the outcome, and the
      // next request's look-up in that context needs no script.
      parts.push(transactionUserSql(this.ctx, this.appRole));
      this.contextAfterCommit = before;
      this.contextAfterRollback = before;
    } else {
      if (session) parts.push(session);
      const local = localSql(this.ctx);
      if (local) parts.push(local);
      // Session settings made inside a transaction revert on ROLLBACK, so the cache is only
      // trusted again once this transaction commits.
      this.contextAfterCommit = session ?? sessionSql(this.ctx, this.appRole);
      this.contextAfterRollback = null;
    }
    this.raw.state.context = null;
    this.pendingBegin = parts.join('; ');
    this.inTx = true;
    this.committed = false;
  }

  /** Sends a deferred BEGIN on its own (before savepoints). */
  async flushBegin(): Promise<void> {
    if (this.pendingBegin === null) return;
    const script = this.pendingBegin;
    this.pendingBegin = null;
    await this.raw.script(script);
  }

  async commit(): Promise<void> {
    this.inTx = false;
    if (this.committed) {
      this.committed = false;
    } else if (this.pendingBegin !== null) {
      // No statement ran: nothing to send, and nothing changed on the connection.
      this.pendingBegin = null;
      this.raw.state.context = this.contextAfterRollback;
      return;
    } else {
      await this.raw.script('COMMIT');
    }
    this.raw.state.context = this.contextAfterCommit;
  }

  async rollback(): Promise<void> {
    this.inTx = false;
    this.raw.state.context = this.contextAfterRollback;
    if (this.pendingBegin !== null || this.committed) {
      // Nothing was sent, or the transaction already ended (the failed statement's COMMIT
      // answered ROLLBACK): no round trip.
      this.pendingBegin = null;
      this.committed = false;
      return;
    }
    await this.raw.script('ROLLBACK');
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const r = await this.send(compiled);
    return { rows: r.rows as R[], numAffectedRows: r.affectedRows };
  }

  private async send(compiled: CompiledQuery): Promise<RawResult> {
    const { sql, parameters } = compiled;
    if (this.inTx) {
      if (this.committed) throw new Error('a statement after the one that committed its transaction (commitWith)');
      const begin = this.pendingBegin;
      this.pendingBegin = null;
      if (this.commitNext) {
        this.commitNext = false;
        // Whatever the statement's outcome, the transaction ends here (COMMIT of a failed
        // transaction answers ROLLBACK).
        this.committed = true;
        const lead = this.lead;
        this.lead = undefined;
        return this.raw.pipelined(begin, sql, parameters, 'COMMIT', lead);
      }
      return begin === null ? this.raw.query(sql, parameters) : this.raw.pipelined(begin, sql, parameters, null);
    }
    const session = this.pendingSession();
    if (session === null) return this.raw.query(sql, parameters);
    this.raw.state.context = null;
    const r = await this.raw.pipelined(session, sql, parameters, null);
    this.raw.state.context = session;
    return r;
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported');
  }
}

class ContextDriver implements Driver {
  constructor(
    private readonly pool: RawPool,
    private readonly appRole: string,
    private readonly fixed: DbContext | null,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    assertNotNested();
    if (!this.fixed) throw new Error('a scoped connection is taken by withContext (runInContext), not by Kysely');
    const ctx = this.fixed;
    const raw = await this.pool.acquire();
    return new ContextConnection(raw, ctx, this.appRole);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    (conn as ContextConnection).begin(settings);
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as ContextConnection).commit();
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as ContextConnection).rollback();
  }

  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await (conn as ContextConnection).flushBegin();
    await (conn as ContextConnection).raw.script(`SAVEPOINT ${name}`);
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await (conn as ContextConnection).raw.script(`ROLLBACK TO SAVEPOINT ${name}`);
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await (conn as ContextConnection).raw.script(`RELEASE SAVEPOINT ${name}`);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const c = conn as ContextConnection;
    this.pool.release(c.raw);
  }

  async destroy(): Promise<void> {}
}

export function contextDialect(pool: RawPool, appRole: string, fixed: DbContext | null): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new ContextDriver(pool, appRole, fixed),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface declares this parameter as Kysely<any>.
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
  };
}

/**
 * Runs fn on one pooled connection in `ctx`, through a Kysely bound to that connection. This is
 * what Kysely's `connection().execute()` builds per call, with the context passed as an argument
 * instead of through an AsyncLocalStorage (which would turn on async hooks for every promise of
 * the process).
 */
export function contextRunner<DB>(pool: RawPool, appRole: string) {
  const dialect = contextDialect(pool, appRole, null);
  const executor = new KyselyClass<DB>({ dialect }).getExecutor();
  // Kysely calls the driver only to begin, commit and roll back (and for savepoints) on a
  // connection it was given; acquisition and release stay here.
  const driver = new ContextDriver(pool, appRole, null);
  return async function runInContext<T>(
    ctx: DbContext,
    fn: (db: Kysely<DB>, end: TransactionEnd) => Promise<T>,
  ): Promise<T> {
    const raw = await pool.acquire();
    try {
      const connection = new ContextConnection(raw, ctx, appRole);
      const db = new KyselyClass<DB>({
        config: { dialect },
        dialect,
        driver,
        executor: executor.withConnectionProvider(new SingleConnectionProvider(connection)),
      });
      return await holding(() => fn(db, connection.end));
    } finally {
      pool.release(raw);
    }
  };
}

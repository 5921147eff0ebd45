import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { RawConnection, RawPool } from './raw-client.js';

/**
 * Who a query runs as.
 * - system: the login role (table owner), which row-level security does not restrict; for
 *   migrations, sign-in look-ups across organizations and background jobs.
 * - tenant: the service's restricted role with `app.org_id` set; RLS policies compare every
 *   row's organization with it. userId and requestId reach the audit trigger.
 * - anonymous: the restricted role with no organization: RLS shows no tenant rows at all.
 */
export type DbContext =
  | { kind: 'system'; userId?: string | null; requestId?: string | null }
  | { kind: 'tenant'; orgId: string; userId?: string | null; requestId?: string | null }
  | { kind: 'anonymous' };

export const contextStorage = new AsyncLocalStorage<DbContext>();

/**
 * Set while code runs on a checked-out connection (inside withContext). Taking a second
 * connection from there is refused: on PGlite (one connection) it would deadlock, and on a pool
 * it doubles the connections a request holds and escapes its transaction.
 */
export const holdingConnection = new AsyncLocalStorage<boolean>();

export function assertNotNested(): void {
  if (holdingConnection.getStore()) {
    throw new Error('a second database connection was requested inside withContext: use the db handle you were given');
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function safeRequestId(id: string | null | undefined): string {
  return id && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : '';
}

/** Session-level statements that put a connection in a context; their text is also the cache key. */
function sessionSql(ctx: DbContext, appRole: string): string {
  if (ctx.kind === 'system') return `RESET ROLE; SELECT set_config('app.org_id', '', false)`;
  if (ctx.kind === 'anonymous') return `SET ROLE ${appRole}; SELECT set_config('app.org_id', '', false)`;
  if (!UUID.test(ctx.orgId)) throw new Error('tenant context needs a UUID organization id');
  return `SET ROLE ${appRole}; SELECT set_config('app.org_id', ${literal(ctx.orgId)}, false)`;
}

/** Transaction-local values the audit trigger reads; they vanish at COMMIT/ROLLBACK. */
function localSql(ctx: DbContext): string {
  if (ctx.kind === 'anonymous') return '';
  const user = ctx.userId && UUID.test(ctx.userId) ? ctx.userId : '';
  return `SELECT set_config('app.user_id', ${literal(user)}, true), set_config('app.request_id', ${literal(
    safeRequestId(ctx.requestId),
  )}, true)`;
}

/**
 * One checked-out connection plus the context it must run in. The context is applied lazily and
 * cached on the physical connection, so a read in an already-prepared connection costs no extra
 * round trip, and a transaction folds BEGIN and the context into one simple-protocol script.
 */
class ContextConnection implements DatabaseConnection {
  constructor(
    readonly raw: RawConnection,
    private readonly ctx: DbContext,
    private readonly appRole: string,
  ) {}

  private pendingSession(): string | null {
    const sql = sessionSql(this.ctx, this.appRole);
    return this.raw.state.context === sql ? null : sql;
  }

  async ensureContext(): Promise<void> {
    const sql = this.pendingSession();
    if (sql === null) return;
    this.raw.state.context = null;
    await this.raw.script(sql);
    this.raw.state.context = sql;
  }

  async begin(settings: TransactionSettings): Promise<void> {
    const session = this.pendingSession();
    const iso = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    const parts = [`BEGIN${iso}`];
    if (session) parts.push(session);
    const local = localSql(this.ctx);
    if (local) parts.push(local);
    // Session settings made inside a transaction revert on ROLLBACK, so the cache is only
    // trusted again once this transaction commits.
    this.raw.state.context = null;
    await this.raw.script(parts.join('; '));
    this.sessionInTx = session ?? sessionSql(this.ctx, this.appRole);
  }

  private sessionInTx: string | null = null;

  async commit(): Promise<void> {
    await this.raw.script('COMMIT');
    this.raw.state.context = this.sessionInTx;
    this.sessionInTx = null;
  }

  async rollback(): Promise<void> {
    this.sessionInTx = null;
    this.raw.state.context = null;
    await this.raw.script('ROLLBACK');
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.ensureContextOutsideTx();
    const r = await this.raw.query(compiled.sql, compiled.parameters);
    return { rows: r.rows as R[], numAffectedRows: r.affectedRows };
  }

  private async ensureContextOutsideTx(): Promise<void> {
    if (this.sessionInTx !== null) return;
    await this.ensureContext();
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
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
    const ctx = this.fixed ?? contextStorage.getStore() ?? { kind: 'anonymous' };
    const raw = await this.pool.acquire();
    return new ContextConnection(raw, ctx, this.appRole);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (conn as ContextConnection).begin(settings);
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as ContextConnection).commit();
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as ContextConnection).rollback();
  }

  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
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
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
  };
}

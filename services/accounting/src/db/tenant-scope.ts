import type { Database, DbContext, TransactionFn } from '@app/shared/db/database';
import type { Kysely } from 'kysely';
import type { DB } from './types.js';

/**
 * The one way accounting code reaches an organization's rows: on a connection running as
 * accounting_app with `app.org_id` set, so row-level security applies under the organization
 * filter every repository query has (remittance's UserScope is the same idea per user).
 *
 * The rule: a route handler gets the caller's scope with `scopeOf(request)` and passes it on;
 * the service entry point takes it as its first argument and decides where its transaction
 * begins and ends (`transaction` for writes, `run` for reads). Repositories, and the posting
 * functions other services compose inside their own transaction (ledger, bank ledger), take the
 * Kysely handle they are given. Background jobs (overdue invoices, the ECB feed) run as the
 * system and use `db.system` directly.
 */
export interface TenantScope {
  readonly orgId: string;
  /** The acting user; null for a caller without one (a customer opening an invoice link). */
  readonly userId: string | null;
  readonly requestId?: string;
  /** Statements outside a transaction (reads, single-statement writes). */
  run<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * One transaction: commits when fn resolves, rolls back when it throws; `end.commitWith(last)`
   * sends the COMMIT with the statement `last` runs, so the service, never a repository, ends it.
   */
  transaction<T>(fn: TransactionFn<DB, T>): Promise<T>;
}

// A class, not an object of closures, and itself the database context it runs in: one
// allocation per request, no more than the context object each call used to build.
class DbTenantScope implements TenantScope {
  readonly kind = 'tenant';
  constructor(
    private readonly db: Database<DB>,
    readonly orgId: string,
    readonly userId: string | null,
    readonly requestId?: string,
  ) {}
  run<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
    return this.db.withContext(this satisfies DbContext, fn);
  }
  transaction<T>(fn: TransactionFn<DB, T>): Promise<T> {
    return this.db.transaction(this satisfies DbContext, fn);
  }
}

export function tenantScope(db: Database<DB>, orgId: string, userId: string | null, requestId?: string): TenantScope {
  return new DbTenantScope(db, orgId, userId, requestId);
}

import type { Database, TransactionFn, TransactionOptions } from '@app/shared/db/database';
import type { Kysely } from 'kysely';
import type { DB } from './types.js';

/**
 * The one way remittance code reaches a user's rows: on a connection running as remittance_app
 * with `app.user_id` set, so PostgreSQL row-level security applies under the user_id filter every
 * repository query has. Services take it as their first argument and decide where their
 * transaction begins and ends; route handlers only pass it on.
 */
export interface UserScope {
  readonly userId: string;
  /** Statements outside a transaction (reads, single-statement writes). */
  run<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * One transaction: commits when fn resolves, rolls back when it throws; `end.commitWith(last)`
   * sends the COMMIT with the statement `last` runs (Database.transaction).
   */
  transaction<T>(fn: TransactionFn<DB, T>, options?: TransactionOptions): Promise<T>;
}

export function userScope(db: Database<DB>, userId: string, requestId?: string): UserScope {
  const ctx = { kind: 'user', userId, requestId } as const;
  return {
    userId,
    run: (fn) => db.withContext(ctx, fn),
    transaction: (fn, options) => db.transaction(ctx, fn, options),
  };
}

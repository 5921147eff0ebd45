import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** Route and body, canonically serialised (key order does not matter). */
export function requestHash(route: string, body: unknown): string {
  const canonical = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
  return createHash('sha256')
    .update(route)
    .update('\n')
    .update(JSON.stringify(canonical(body) ?? null))
    .digest('hex');
}

export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

/**
 * Takes the key for this request inside the payment's transaction, or returns the stored first
 * response. The insert waits on the unique (user_id, key) index while a twin request holds the
 * key uncommitted, so two racing requests never both debit: the second sees the first's stored
 * response after it commits, or takes the key when the first rolled back. A key older than the
 * window is taken over. Another body under a live key: 422 idempotency_mismatch.
 */
export async function claimIdempotencyKey(
  db: Kysely<DB>,
  userId: string,
  key: string,
  hash: string,
  now: Date,
): Promise<StoredResponse | null> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, request_hash: hash, created_at: now })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'key'])
        .doUpdateSet({ request_hash: hash, status_code: null, response: null, created_at: now })
        .where('idempotency_keys.created_at', '<', cutoff),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return null;
  const first = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (first.request_hash !== hash) {
    throw new AppError('idempotency_mismatch', 'This Idempotency-Key was used with another request body');
  }
  return { statusCode: first.status_code ?? 201, body: first.response };
}

const STORE_SQL = `UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE user_id = $1 AND key = $2`;

/** The first response under the key. */
export async function storeIdempotentResponse(
  db: Kysely<DB>,
  userId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  const q = CompiledQuery.raw(STORE_SQL, [userId, key, response.statusCode, JSON.stringify(response.body)]);
  await db.executeQuery(q);
}

/** A payment the bank refused gives its key back: a retry under it is a new payment. */
export async function releaseIdempotencyKey(db: Kysely<DB>, userId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
}

/** Housekeeping: keys past the window are of no use any more. */
export async function deleteExpiredKeys(db: Kysely<DB>, now: Date): Promise<number> {
  const r = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

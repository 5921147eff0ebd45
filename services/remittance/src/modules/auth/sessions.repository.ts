import type { Database } from '@app/shared/db/database';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { LiveSession, SessionProof } from '../../lib/session.js';
import type { Surface } from '../../lib/tokens.js';

export type { LiveSession, SessionProfile, SessionProof } from '../../lib/session.js';

// Both look-ups answer one JSON column rather than a column per field: node-postgres's work per
// column of every result (field parsers and the row object built from the row description) is a
// measurable share of a request that does little else (accounting's principal: a tenth of its CPU).
/** When the session expires, in milliseconds since the epoch: a kept session is checked against it. */
const EXPIRES_MS = `(extract(epoch FROM s.expires_at) * 1000)::float8`;
const LIVE_SESSION_JSON = `json_build_object('sessionId', s.id, 'loginId', s.login_id,
  'authAt', (extract(epoch FROM s.authenticated_at) * 1000)::float8, 'userId', u.id, 'email', u.email, 'role', u.role`;
const FROM_LIVE_SESSION = `FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = $1 AND s.surface = $2 AND s.revoked = 0 AND s.expires_at > $3 AND u.deleted_at IS NULL`;

/**
 * The session check of GET /auth/me: the live session, its user and the response's `data` in one
 * statement. Balances are numeric and become JSON numbers exactly as the API shows them (the
 * spec's numbers); totalBalance is the sum of the NOK accounts, rounded half-up to 2 decimals.
 */
const SESSION_PROFILE_SQL = `
  SELECT ${LIVE_SESSION_JSON}, 'profile', json_build_object('id', u.id, 'email', u.email, 'firstName', u.first_name,
      'lastName', u.last_name, 'role', u.role,
      'totalBalance', (SELECT round(coalesce(sum(a.balance) FILTER (WHERE a.currency = 'NOK'), 0), 2) FROM bank_accounts a WHERE a.user_id = u.id),
      'bankAccounts', (SELECT coalesce(json_agg(json_build_object('id', a.id, 'bankName', a.bank_name, 'accountNumber', a.account_number,
          'balance', a.balance, 'currency', a.currency, 'isPrimary', a.is_primary) ORDER BY a.is_primary DESC, a.created_at), '[]'::json)
        FROM bank_accounts a WHERE a.user_id = u.id),
      'kycStatus', u.kyc_status, 'createdAt', to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))) AS session,
    ${EXPIRES_MS} AS expires_ms
  ${FROM_LIVE_SESSION}`;

// Both look-ups run on every authenticated request before any user is known: as the login role,
// one statement written once (no query building per request).
const SYSTEM = { kind: 'system' } as const;

/** A live session and when it expires (milliseconds since the epoch). */
export interface FoundSession {
  session: LiveSession;
  expires_ms: number;
}

export async function findLiveSessionWithProfile(
  db: Database<DB>,
  tokenHash: string,
  surface: Surface,
): Promise<FoundSession | undefined> {
  const [r] = await db.query<FoundSession>(SYSTEM, SESSION_PROFILE_SQL, [tokenHash, surface, new Date()]);
  return r;
}

export async function insertSession(
  db: Kysely<DB>,
  row: {
    id: string;
    userId: string;
    tokenHash: string;
    surface: Surface;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
    loginId: string;
    authenticatedAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: row.id,
      user_id: row.userId,
      token_hash: row.tokenHash,
      surface: row.surface,
      expires_at: row.expiresAt,
      ip_address: row.ip,
      user_agent: row.userAgent,
      login_id: row.loginId,
      authenticated_at: row.authenticatedAt,
    })
    .execute();
}

const SESSION_SQL = `SELECT ${LIVE_SESSION_JSON}) AS session, ${EXPIRES_MS} AS expires_ms ${FROM_LIVE_SESSION}`;

/**
 * SESSION_SQL's conditions as a boolean expression over placeholders: user, token hash, surface
 * and the time (the application's clock, as SESSION_SQL takes it).
 */
export function liveSessionCondition(uid: string, hash: string, surface: string, now: string): string {
  return `EXISTS (SELECT 1 FROM sessions s JOIN users su ON su.id = s.user_id
    WHERE s.token_hash = ${hash} AND s.surface = ${surface} AND s.revoked = 0 AND s.expires_at > ${now}::timestamptz
      AND s.user_id = ${uid} AND su.deleted_at IS NULL)`;
}

const SESSION_PROOF_SQL = `SELECT ${liveSessionCondition('$1', '$2', '$3', '$4')} AS live`;

/** A SessionProof checked on its own, in the caller's transaction (as the user). */
export async function isLiveSession(db: Kysely<DB>, userId: string, proof: SessionProof): Promise<boolean> {
  const q = CompiledQuery.raw(SESSION_PROOF_SQL, [userId, proof.tokenHash, proof.surface, new Date()]);
  const { rows } = await db.executeQuery<{ live: boolean }>(q);
  return rows[0]?.live === true;
}

/** The per-request check: one query on the unique token-hash index (revoked, expired, erased). */
export async function findLiveSession(
  db: Database<DB>,
  tokenHash: string,
  surface: Surface,
): Promise<FoundSession | undefined> {
  const [row] = await db.query<FoundSession>(SYSTEM, SESSION_SQL, [tokenHash, surface, new Date()]);
  return row;
}

export type RevokedReason = 'logout' | 'rotated' | 'reuse' | 'erasure';

export async function revokeSession(
  db: Kysely<DB>,
  userId: string,
  sessionId: string,
  reason: RevokedReason,
): Promise<number> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked: 1, revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function revokeAllSessions(db: Kysely<DB>, userId: string, reason: RevokedReason): Promise<number> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked: 1, revoked_at: new Date(), revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A token's session whatever its state (reuse detection): as the login role, before any user is known. */
export async function findSessionByToken(db: Kysely<DB>, tokenHash: string, surface: Surface) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'login_id', 'revoked', 'revoked_at', 'revoked_reason'])
    .where('token_hash', '=', tokenHash)
    .where('surface', '=', surface)
    .executeTakeFirst();
}

/** Ends a whole login: every live session of the chain (a refresh token was reused). */
export async function revokeLogin(db: Kysely<DB>, loginId: string): Promise<number> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked: 1, revoked_at: new Date(), revoked_reason: 'reuse' })
    .where('login_id', '=', loginId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

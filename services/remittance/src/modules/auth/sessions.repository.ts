import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Surface } from '../../lib/tokens.js';

export interface LiveSession {
  sessionId: string;
  userId: string;
  email: string | null;
  role: 'user' | 'merchant';
}

export async function insertSession(
  db: Kysely<DB>,
  row: { id: string; userId: string; tokenHash: string; surface: Surface; expiresAt: Date; ip: string | null; userAgent: string | null },
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
    })
    .execute();
}

/** The per-request check: one query on the unique token-hash index (revoked, expired, erased). */
export async function findLiveSession(db: Kysely<DB>, tokenHash: string, surface: Surface): Promise<LiveSession | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as sessionId', 'u.id as userId', 'u.email as email', 'u.role as role'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.surface', '=', surface)
    .where('s.revoked', '=', 0)
    .where('s.expires_at', '>', new Date())
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function revokeSession(db: Kysely<DB>, userId: string, sessionId: string): Promise<number> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked: 1, revoked_at: new Date() })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function revokeAllSessions(db: Kysely<DB>, userId: string): Promise<number> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked: 1, revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

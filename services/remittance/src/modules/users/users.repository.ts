import type { Kysely } from 'kysely';
import type { DB, NewUser, User } from '../../db/types.js';

/**
 * The live user with this national id: its keyed hash (version 2), or its unkeyed SHA-256
 * (version 1) while the start-up rewrap has not reached the row yet.
 */
export async function findLiveUserByNationalIdHash(
  db: Kysely<DB>,
  hash: { keyed: string; legacy: string },
): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('national_id_hash', '=', hash.keyed), eb('national_id_hash_version', '=', 2)]),
        eb.and([eb('national_id_hash', '=', hash.legacy), eb('national_id_hash_version', '=', 1)]),
      ]),
    )
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findLiveUserById(db: Kysely<DB>, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function isEmailTaken(db: Kysely<DB>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts unless a live user with the same national id exists (concurrent first logins). */
export async function insertUserIfAbsent(db: Kysely<DB>, user: NewUser): Promise<boolean> {
  const r = await db
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.column('national_id_hash').where('deleted_at', 'is', null).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function recordLogin(db: Kysely<DB>, userId: string, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', userId).execute();
}

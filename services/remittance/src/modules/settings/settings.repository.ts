import type { Kysely, Selectable } from 'kysely';
import type { DB, UserSettingsTable } from '../../db/types.js';

export type SettingsRow = Pick<
  Selectable<UserSettingsTable>,
  'currency' | 'language' | 'push_enabled' | 'email_enabled'
>;

/** The user's settings, created with the defaults on first read (R: Settings). */
export async function getOrCreateSettings(db: Kysely<DB>, userId: string): Promise<SettingsRow> {
  const existing = await db
    .selectFrom('user_settings')
    .select(['currency', 'language', 'push_enabled', 'email_enabled'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (existing) return existing;
  await db
    .insertInto('user_settings')
    .values({ user_id: userId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return db
    .selectFrom('user_settings')
    .select(['currency', 'language', 'push_enabled', 'email_enabled'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Changes only the given fields (creating the row with defaults first when absent). */
export async function updateSettings(
  db: Kysely<DB>,
  userId: string,
  patch: Partial<SettingsRow>,
  at: Date,
): Promise<SettingsRow> {
  return db
    .insertInto('user_settings')
    .values({ user_id: userId, ...patch, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...patch, updated_at: at }))
    .returning(['currency', 'language', 'push_enabled', 'email_enabled'])
    .executeTakeFirstOrThrow();
}

import { newId } from '@app/shared/secrets';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, GdprConsent, GdprConsentEventsTable, GdprConsentType } from '../../db/types.js';

export async function listUserGdprConsents(db: Kysely<DB>, userId: string): Promise<GdprConsent[]> {
  return db.selectFrom('gdpr_consents').selectAll().where('user_id', '=', userId).orderBy('consent_type').execute();
}

/**
 * Creates the user's record of this type or updates it, in one statement (two concurrent first
 * posts cannot create two records). A grant sets granted_at and clears withdrawn_at; a
 * withdrawal sets withdrawn_at and keeps the time of the last grant. `created` tells 201 from 200.
 */
export async function upsertGdprConsent(
  db: Kysely<DB>,
  userId: string,
  input: { type: GdprConsentType; granted: boolean; ip: string | null; at: Date },
): Promise<GdprConsent & { created: boolean }> {
  const granted = input.granted ? 1 : 0;
  return (
    db
      .insertInto('gdpr_consents')
      .values({
        id: newId('con'),
        user_id: userId,
        consent_type: input.type,
        granted,
        granted_at: input.granted ? input.at : null,
        withdrawn_at: input.granted ? null : input.at,
        ip_address: input.ip,
        created_at: input.at,
        updated_at: input.at,
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'consent_type']).doUpdateSet({
          granted,
          granted_at: input.granted ? input.at : sql`gdpr_consents.granted_at`,
          withdrawn_at: input.granted ? null : input.at,
          ip_address: input.ip,
          updated_at: input.at,
        }),
      )
      .returningAll()
      // xmax is 0 only for a row this statement inserted.
      .returning(sql<boolean>`(xmax = 0)`.as('created'))
      .executeTakeFirstOrThrow()
  );
}

/** created_at is the database's transaction time (microseconds), which orders the history. */
export async function insertGdprConsentEvent(
  db: Kysely<DB>,
  userId: string,
  consent: { id: string; consent_type: GdprConsentType; granted: number; ip_address: string | null },
): Promise<void> {
  await db
    .insertInto('gdpr_consent_events')
    .values({
      id: newId('cev'),
      user_id: userId,
      consent_id: consent.id,
      consent_type: consent.consent_type,
      granted: consent.granted,
      ip_address: consent.ip_address,
    })
    .execute();
}

export type GdprConsentEvent = Omit<Selectable<GdprConsentEventsTable>, 'seq'>;

/** The user's grants and withdrawals, newest first (the order they were made in). */
export async function listUserGdprConsentEvents(
  db: Kysely<DB>,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: GdprConsentEvent[]; total: number }> {
  const rows = await db
    .selectFrom('gdpr_consent_events')
    .select(['id', 'user_id', 'consent_id', 'consent_type', 'granted', 'ip_address', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await db
    .selectFrom('gdpr_consent_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** Erasure: every consent still granted is withdrawn (the records stay as proof). */
export async function withdrawAllGdprConsents(db: Kysely<DB>, userId: string, at: Date): Promise<GdprConsent[]> {
  return db
    .updateTable('gdpr_consents')
    .set({ granted: 0, withdrawn_at: at, updated_at: at })
    .where('user_id', '=', userId)
    .where('granted', '=', 1)
    .returningAll()
    .execute();
}

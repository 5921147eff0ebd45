import { newId } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { Consent, DB } from '../../db/types.js';
import { EXPORTED_TABLES, USER_COLUMNS } from './export.registry.js';

export type ExportRow = Record<string, unknown>;

export async function findUserForExport(db: Kysely<DB>, userId: string): Promise<ExportRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

/**
 * The user's rows of every registered table, only the registered columns. The registry is the
 * single list of user-owned tables, so this reads tables by name (Kysely cannot type that).
 */
export async function selectExportSections(
  db: Kysely<DB>,
  userId: string,
): Promise<Record<string, ExportRow[] | ExportRow | null>> {
  // biome-ignore lint/suspicious/noExplicitAny: the tables and columns come from EXPORTED_TABLES at run time; the catalog test checks them against the schema.
  const loose = db as unknown as Kysely<any>;
  const sections: Record<string, ExportRow[] | ExportRow | null> = {};
  for (const t of EXPORTED_TABLES) {
    const rows: ExportRow[] = await loose
      .selectFrom(t.table)
      .select(t.columns)
      .where(t.userColumn, '=', userId)
      .orderBy(t.orderBy)
      .execute();
    sections[t.section] = t.single ? (rows[0] ?? null) : rows;
  }
  return sections;
}

export async function insertDataAccessRequest(
  db: Kysely<DB>,
  userId: string,
  input: { type: 'export' | 'erasure'; ip: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('data_access_requests')
    .values({
      id: newId('dar'),
      user_id: userId,
      type: input.type,
      status: 'completed',
      ip_address: input.ip,
      created_at: input.at,
      completed_at: input.at,
    })
    .execute();
}

/** Soft delete (spec User.deleted_at); false when the user was already erased. */
export async function markUserErased(db: Kysely<DB>, userId: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ deleted_at: at })
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Every pending or active open banking consent of the user becomes revoked. */
export async function revokeAllOpenBankingConsents(db: Kysely<DB>, userId: string, at: Date): Promise<Consent[]> {
  return db
    .updateTable('ob_consents')
    .set({ status: 'revoked', revoked_at: at })
    .where('user_id', '=', userId)
    .where('status', 'in', ['pending', 'active'])
    .returningAll()
    .execute();
}

export async function cancelAllCards(db: Kysely<DB>, userId: string, at: Date): Promise<number> {
  const r = await db
    .updateTable('cards')
    .set({ status: 'cancelled', cancelled_at: at })
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

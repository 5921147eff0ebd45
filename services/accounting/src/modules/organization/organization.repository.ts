import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, OrganizationsTable } from '../../db/types.js';

type Db = Kysely<DB>;

export async function insertOrganization(db: Db, values: Insertable<OrganizationsTable>): Promise<void> {
  await db.insertInto('organizations').values(values).execute();
}

export function findOrganization(db: Db, orgId: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
}

/** Locks the organization row: serialises base-currency changes against new postings. */
export function lockOrganization(db: Db, orgId: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).forUpdate().executeTakeFirst();
}

export async function hasPostings(db: Db, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select('id')
    .where('organization_id', '=', orgId)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export function updateOrganization(db: Db, orgId: string, values: Updateable<OrganizationsTable>) {
  return db
    .updateTable('organizations')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', orgId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

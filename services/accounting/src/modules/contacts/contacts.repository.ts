import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { ContactsTable, DB } from '../../db/types.js';
import { likePattern } from '../../lib/like.js';
import type { PageRequest } from '../../lib/pagination.js';
import type { CONTACT_SORTS } from './contacts.schemas.js';

type Db = Kysely<DB>;
type ContactSort = (typeof CONTACT_SORTS)[number];

const SORT_COLUMNS = {
  name: sql`lower(name)`,
  createdAt: sql`created_at`,
  updatedAt: sql`updated_at`,
} as const satisfies Record<ContactSort, unknown>;

export interface ContactFilter {
  type?: 'customer' | 'vendor' | 'both';
  isActive: boolean;
  search?: string;
}

/** One page and the total in one round trip (a window count; a second query only past the end). */
export async function listContacts(db: Db, orgId: string, f: ContactFilter, p: PageRequest<ContactSort>) {
  let q = db.selectFrom('contacts').where('organization_id', '=', orgId).where('is_active', '=', f.isActive);
  // A contact of type both is a customer and a vendor.
  if (f.type === 'customer') q = q.where('type', 'in', ['customer', 'both']);
  else if (f.type === 'vendor') q = q.where('type', 'in', ['vendor', 'both']);
  else if (f.type === 'both') q = q.where('type', '=', 'both');
  if (f.search) {
    const like = likePattern(f.search);
    q = q.where((eb) => eb.or([eb('name', 'ilike', like), eb('email', 'ilike', like)]));
  }
  const direction = sql.raw(p.order === 'asc' ? 'ASC' : 'DESC');
  const rows = await q
    .selectAll()
    .select(sql<number>`count(*) OVER ()`.as('total_count'))
    .orderBy(sql`${SORT_COLUMNS[p.sort]} ${direction}`)
    // Rows created in the same instant: in the order they were made (migration 20261127000300).
    .orderBy(sql`seq ${direction}`)
    .limit(p.perPage)
    .offset(p.offset)
    .execute();
  let total = rows[0]?.total_count ?? 0;
  if (rows.length === 0 && p.offset > 0) {
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    total = Number(c.n);
  }
  return { rows, total: Number(total) };
}

export function findContact(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Locks the contact against documents that would reference it while it is being deleted. */
export function lockContact(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function insertContact(db: Db, values: Insertable<ContactsTable>) {
  return db.insertInto('contacts').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateContact(db: Db, orgId: string, id: string, values: Updateable<ContactsTable>) {
  return db
    .updateTable('contacts')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

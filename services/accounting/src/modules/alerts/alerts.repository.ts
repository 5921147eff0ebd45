import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { ALERT_REFERENCE_TYPES, ALERT_TYPES } from './alerts.schemas.js';

type Db = Kysely<DB>;

export interface NewAlert {
  type: (typeof ALERT_TYPES)[number];
  message: string;
  referenceType: (typeof ALERT_REFERENCE_TYPES)[number] | null;
  referenceId: string | null;
}

export function insertAlert(db: Db, orgId: string, a: NewAlert) {
  return db
    .insertInto('alerts')
    .values({
      organization_id: orgId,
      type: a.type,
      message: a.message,
      reference_type: a.referenceType,
      reference_id: a.referenceId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listAlerts(
  db: Db,
  orgId: string,
  page: { offset: number; perPage: number; order: 'asc' | 'desc' },
) {
  const base = db.selectFrom('alerts').where('organization_id', '=', orgId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', page.order)
      .orderBy('id', page.order)
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface AuditFilter {
  tableName?: string;
  action?: 'INSERT' | 'UPDATE' | 'DELETE';
  recordId?: string;
  fromDate?: string;
  toDate?: string;
  /** false: without the sign-in records (SESSION_TABLES), unless tableName names one. */
  sessions?: boolean;
}

/** The tables whose rows record signing in and renewing a session, not a change of the books. */
export const SESSION_TABLES = ['sessions', 'refresh_tokens'] as const;

/** One page of the organization's logged_actions rows and their total. */
export async function listLoggedActions(
  db: Kysely<DB>,
  orgId: string,
  q: AuditFilter,
  page: { offset: number; perPage: number; order: 'asc' | 'desc' },
) {
  let base = db.selectFrom('logged_actions').where('organization_id', '=', orgId);
  if (q.tableName) base = base.where('table_name', '=', q.tableName);
  else if (q.sessions === false) base = base.where('table_name', 'not in', [...SESSION_TABLES]);
  if (q.action) base = base.where('action', '=', q.action);
  if (q.recordId) base = base.where('record_id', '=', q.recordId);
  if (q.fromDate) base = base.where('created_at', '>=', new Date(`${q.fromDate}T00:00:00Z`));
  if (q.toDate)
    base = base.where('created_at', '<', new Date(new Date(`${q.toDate}T00:00:00Z`).getTime() + 86_400_000));
  const [list, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', page.order)
      .orderBy('id', page.order)
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: list, total: Number(count.n) };
}

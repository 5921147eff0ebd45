import { newId } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { Complaint, ComplaintCategory, DB } from '../../db/types.js';

export async function insertComplaint(
  db: Kysely<DB>,
  userId: string,
  input: { category: ComplaintCategory; subject: string; description: string },
): Promise<Complaint> {
  return db
    .insertInto('complaints')
    .values({
      id: newId('cmp'),
      user_id: userId,
      category: input.category,
      subject: input.subject,
      description: input.description,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listUserComplaints(
  db: Kysely<DB>,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: Complaint[]; total: number }> {
  const rows = await db
    .selectFrom('complaints')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await db
    .selectFrom('complaints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

export async function findUserComplaint(
  db: Kysely<DB>,
  userId: string,
  complaintId: string,
): Promise<Complaint | undefined> {
  return db
    .selectFrom('complaints')
    .selectAll()
    .where('id', '=', complaintId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

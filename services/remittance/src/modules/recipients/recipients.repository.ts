import type { Kysely, Updateable } from 'kysely';
import type { DB, Recipient, RecipientsTable } from '../../db/types.js';

export async function insertRecipient(
  db: Kysely<DB>,
  userId: string,
  row: {
    id: string;
    name: string;
    country: Recipient['country'];
    currency: Recipient['currency'];
    bankAccount: string;
    bankName: string | null;
  },
): Promise<Recipient> {
  return db
    .insertInto('recipients')
    .values({
      id: row.id,
      user_id: userId,
      name: row.name,
      country: row.country,
      currency: row.currency,
      bank_account: row.bankAccount,
      bank_name: row.bankName,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listRecipients(
  db: Kysely<DB>,
  userId: string,
  limit: number,
  offset: number,
): Promise<{ rows: Recipient[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('recipients')
      .selectAll()
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('recipients')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findRecipient(
  db: Kysely<DB>,
  userId: string,
  recipientId: string,
): Promise<Recipient | undefined> {
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', recipientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Hides the recipient (its transactions keep their reference); false when absent or not the user's. */
export async function deleteRecipient(db: Kysely<DB>, userId: string, recipientId: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('recipients')
    .set({ deleted_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', recipientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The recipient, locked for the rest of the transaction; undefined when absent, removed or not the user's. */
export async function lockRecipient(
  db: Kysely<DB>,
  userId: string,
  recipientId: string,
): Promise<Recipient | undefined> {
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', recipientId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export type RecipientUpdate = Pick<
  Updateable<RecipientsTable>,
  'name' | 'country' | 'currency' | 'bank_account' | 'bank_name'
>;

export async function updateRecipient(
  db: Kysely<DB>,
  userId: string,
  recipientId: string,
  set: RecipientUpdate,
): Promise<Recipient> {
  return db
    .updateTable('recipients')
    .set(set)
    .where('user_id', '=', userId)
    .where('id', '=', recipientId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

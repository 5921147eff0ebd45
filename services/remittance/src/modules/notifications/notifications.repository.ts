import type { Kysely } from 'kysely';
import type { DB, NotificationType } from '../../db/schema.js';
import { randomBytes } from 'node:crypto';

/** noti_ + 16 hex characters (spec Notification.id). */
export function newNotificationId(): string {
  return `noti_${randomBytes(8).toString('hex')}`;
}

export async function insertNotification(
  db: Kysely<DB>,
  row: { userId: string; type: NotificationType; title: string; body: string },
): Promise<string> {
  const id = newNotificationId();
  await db.insertInto('notifications').values({ id, user_id: row.userId, type: row.type, title: row.title, body: row.body }).execute();
  return id;
}

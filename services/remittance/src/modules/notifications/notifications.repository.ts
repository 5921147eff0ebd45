import { newId } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { DB, NotificationType } from '../../db/types.js';

/** noti_ + 16 hex characters (spec Notification.id). */
export function newNotificationId(): string {
  return newId('noti', 8);
}

export async function insertNotification(
  db: Kysely<DB>,
  row: { userId: string; type: NotificationType; title: string; body: string },
): Promise<string> {
  const id = newNotificationId();
  await db
    .insertInto('notifications')
    .values({ id, user_id: row.userId, type: row.type, title: row.title, body: row.body })
    .execute();
  return id;
}

export interface NotificationRow {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  read: number;
  created_at: Date;
}

/** The user's notifications, newest first. */
export async function listNotifications(db: Kysely<DB>, userId: string, limit: number): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .select(['id', 'type', 'title', 'body', 'read', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

/** Marks the given notifications read, only the user's own; returns how many changed. */
export async function markNotificationsRead(db: Kysely<DB>, userId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .updateTable('notifications')
    .set({ read: 1 })
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

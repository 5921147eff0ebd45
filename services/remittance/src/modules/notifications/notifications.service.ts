import type { UserScope } from '../../db/user-scope.js';
import * as repo from './notifications.repository.js';

/** The caller's newest notifications. */
export function listOwnNotifications(user: UserScope, limit: number): Promise<repo.NotificationRow[]> {
  return user.run((db) => repo.listNotifications(db, user.userId, limit));
}

/** Marks the caller's own notifications among `ids` read; returns how many changed. */
export function markOwnNotificationsRead(user: UserScope, ids: string[]): Promise<number> {
  return user.run((db) => repo.markNotificationsRead(db, user.userId, ids));
}

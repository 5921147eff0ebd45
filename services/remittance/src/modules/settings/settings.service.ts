import type { UserScope } from '../../db/user-scope.js';
import * as repo from './settings.repository.js';

/** The caller's settings, created with the defaults on first read. */
export function readSettings(user: UserScope): Promise<repo.SettingsRow> {
  return user.run((db) => repo.getOrCreateSettings(db, user.userId));
}

/** Changes only the given fields. */
export function changeSettings(
  user: UserScope,
  patch: Partial<repo.SettingsRow>,
  at = new Date(),
): Promise<repo.SettingsRow> {
  return user.run((db) => repo.updateSettings(db, user.userId, patch, at));
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB>;

export function findUserForLogin(db: Db, email: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select([
      'u.id',
      'u.organization_id',
      'u.email',
      'u.full_name',
      'u.role',
      'u.password_hash',
      'u.is_active',
      'u.two_factor_enabled',
      'u.two_factor_secret',
      'u.two_factor_last_step',
      'o.name as organization_name',
      'o.language',
    ])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** When the sign-in behind a session happened (refreshes keep it), for step-up checks. */
export async function findSessionStart(db: Db, orgId: string, sessionId: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('id', '=', sessionId)
    .where('organization_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.created_at;
}

export async function createSession(
  db: Db,
  s: { id: string; orgId: string; userId: string; remember: boolean; tokenHash: string; expiresAt: Date },
) {
  await db
    .insertInto('sessions')
    .values({ id: s.id, organization_id: s.orgId, user_id: s.userId, remember: s.remember })
    .execute();
  await db
    .insertInto('refresh_tokens')
    .values({
      organization_id: s.orgId,
      user_id: s.userId,
      family_id: s.id,
      token_hash: s.tokenHash,
      remember: s.remember,
      expires_at: s.expiresAt,
    })
    .execute();
}

export function findRefreshToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('sessions as s', 's.id', 'r.family_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('organizations as o', 'o.id', 'r.organization_id')
    .select([
      'r.id',
      'r.organization_id',
      'r.user_id',
      'r.family_id',
      'r.remember',
      'r.expires_at',
      'r.rotated_at',
      'r.revoked_at',
      's.revoked_at as session_revoked_at',
      'u.role',
      'u.is_active',
    ])
    .where('r.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a token rotated only if nobody else did first; false means it was reused. */
export async function claimRotation(db: Db, orgId: string, id: string): Promise<boolean> {
  const r = await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function insertRefreshToken(
  db: Db,
  t: { orgId: string; userId: string; familyId: string; tokenHash: string; remember: boolean; expiresAt: Date },
) {
  await db
    .insertInto('refresh_tokens')
    .values({
      organization_id: t.orgId,
      user_id: t.userId,
      family_id: t.familyId,
      token_hash: t.tokenHash,
      remember: t.remember,
      expires_at: t.expiresAt,
    })
    .execute();
}

export async function revokeSession(db: Db, orgId: string, sessionId: string) {
  const now = new Date();
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('organization_id', '=', orgId)
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('organization_id', '=', orgId)
    .where('family_id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findUserSecrets(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'password_hash', 'two_factor_enabled', 'two_factor_secret', 'two_factor_last_step'])
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Records a TOTP step as used, only if it is newer than the last one (a code works once). */
export async function claimTotpStep(db: Db, orgId: string, userId: string, step: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ two_factor_last_step: step, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('two_factor_last_step', 'is', null), eb('two_factor_last_step', '<', step)]))
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function updateUser(
  db: Db,
  orgId: string,
  userId: string,
  values: Partial<{
    password_hash: string;
    two_factor_enabled: boolean;
    two_factor_secret: string | null;
    two_factor_last_step: number | null;
    last_login_at: Date;
  }>,
) {
  await db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .execute();
}

export function findInvitation(db: Db, tokenHash: string) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['i.id', 'i.organization_id', 'i.user_id', 'i.expires_at', 'i.used_at', 'u.is_active'])
    .where('i.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function claimInvitation(db: Db, orgId: string, id: string): Promise<boolean> {
  const r = await db
    .updateTable('invitations')
    .set({ used_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export function findLoginUser(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.full_name', 'u.role', 'u.organization_id', 'o.name as organization_name'])
    .where('u.organization_id', '=', orgId)
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
}

export function updateProfile(
  db: Db,
  orgId: string,
  userId: string,
  values: { full_name?: string; operator_oib?: string | null },
) {
  return db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .returning(['full_name', 'operator_oib'])
    .executeTakeFirst();
}

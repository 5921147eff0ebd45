import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import type { InvitableRole } from '../../lib/jwt.js';

type Db = Kysely<DB>;

const USER_COLUMNS = [
  'id',
  'email',
  'full_name',
  'role',
  'two_factor_enabled',
  'last_login_at',
  'created_at',
  'is_active',
] as const;

export function listActiveUsers(db: Db, orgId: string, role?: string) {
  let q = db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('organization_id', '=', orgId)
    .where('is_active', '=', true);
  if (role) q = q.where('role', '=', role as never);
  return q.orderBy('created_at', 'asc').execute();
}

export function findUser(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

export function lockUser(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/** The organization's first user, who registered it: owner, signed in from the start. */
export async function insertOwner(
  db: Db,
  orgId: string,
  u: { id: string; email: string; fullName: string; passwordHash: string },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: u.id,
      organization_id: orgId,
      email: u.email,
      full_name: u.fullName,
      role: 'owner',
      password_hash: u.passwordHash,
      last_login_at: new Date(),
    })
    .execute();
}

export function insertInvitedUser(db: Db, orgId: string, u: { email: string; fullName: string; role: InvitableRole }) {
  return db
    .insertInto('users')
    .values({ organization_id: orgId, email: u.email, full_name: u.fullName, role: u.role, password_hash: null })
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function insertInvitation(
  db: Db,
  i: { orgId: string; userId: string; tokenHash: string; expiresAt: Date; createdBy: string },
) {
  await db
    .insertInto('invitations')
    .values({
      organization_id: i.orgId,
      user_id: i.userId,
      token_hash: i.tokenHash,
      expires_at: i.expiresAt,
      created_by: i.createdBy,
    })
    .execute();
}

export function setRole(db: Db, orgId: string, userId: string, role: InvitableRole) {
  return db
    .updateTable('users')
    .set({ role, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deactivate(db: Db, orgId: string, userId: string) {
  await db
    .updateTable('users')
    .set({ is_active: false, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .execute();
}

/** True when any organization has a user with this address (runs as a SECURITY DEFINER function). */
export async function emailExists(db: Db, email: string): Promise<boolean> {
  const { rows } = await sql<{ used: boolean }>`SELECT email_in_use(${email}) AS used`.execute(db);
  return rows[0].used;
}

/** Signs the user out everywhere (sessions and refresh tokens): on a password change and on removal. */
export async function revokeAllSessions(db: Db, userId: string, orgId: string) {
  const now = new Date();
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('organization_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('organization_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The name and operator OIB the user signs documents with. */
export function findProfile(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(['full_name', 'operator_oib'])
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

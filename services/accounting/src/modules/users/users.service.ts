import { newOpaqueToken } from '@app/shared/secrets';
import type { AppContext } from '../../context.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import { AppError } from '../../lib/errors.js';
import type { InvitableRole, Role } from '../../lib/jwt.js';
import { isUniqueViolation } from '../../lib/pg-error.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import * as repo from './users.repository.js';

type UserRow = NonNullable<Awaited<ReturnType<typeof repo.findUser>>>;

export function presentUser(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    fullName: u.full_name,
    role: u.role,
    twoFactorEnabled: u.two_factor_enabled,
    lastLoginAt: u.last_login_at ? u.last_login_at.toISOString() : null,
    createdAt: u.created_at.toISOString(),
  };
}

export async function listUsers(scope: TenantScope, role: Role | undefined) {
  const rows = await scope.run((db) => repo.listActiveUsers(db, scope.orgId, role));
  return { data: rows.map(presentUser) };
}

export function invite(
  scope: TenantScope,
  ctx: AppContext,
  p: Principal,
  body: { email: string; fullName: string; role: InvitableRole },
) {
  return scope.transaction((trx) => insertInvitation(trx, ctx, p, body));
}

async function insertInvitation(
  trx: TenantTx,
  ctx: AppContext,
  p: Principal,
  body: { email: string; fullName: string; role: InvitableRole },
) {
  const email = body.email.trim();
  // Addresses are unique across the whole service (A17), so look beyond this organization.
  if (await repo.emailExists(trx, email)) throw new AppError('SVC-2008');
  const { token, hash } = newOpaqueToken();
  const expiresAt = new Date(Date.now() + ctx.config.inviteTtlMs);
  try {
    const user = await repo.insertInvitedUser(trx, p.orgId, { email, fullName: body.fullName.trim(), role: body.role });
    await repo.insertInvitation(trx, {
      orgId: p.orgId,
      userId: user.id,
      tokenHash: hash,
      expiresAt,
      createdBy: p.userId,
    });
    const link = new URL('/accept-invite', ctx.config.webOrigin);
    link.searchParams.set('token', token);
    return {
      user: { id: user.id, email: user.email, fullName: user.full_name, role: user.role },
      inviteLink: link.toString(),
      expiresAt: expiresAt.toISOString(),
    };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('SVC-2008');
    throw err;
  }
}

async function target(trx: TenantTx, p: Principal, userId: string) {
  const user = await repo.lockUser(trx, p.orgId, userId);
  if (!user?.is_active) throw new AppError('SVC-2005');
  return user;
}

export function changeRole(scope: TenantScope, p: Principal, userId: string, role: InvitableRole) {
  return scope.transaction((trx) => setUserRole(trx, p, userId, role));
}

async function setUserRole(trx: TenantTx, p: Principal, userId: string, role: InvitableRole) {
  const user = await target(trx, p, userId);
  if (user.role === 'owner') throw new AppError('SVC-2006');
  return presentUser(await repo.setRole(trx, p.orgId, userId, role));
}

export function removeUser(scope: TenantScope, p: Principal, userId: string) {
  return scope.transaction((trx) => deactivateUser(trx, p, userId));
}

async function deactivateUser(trx: TenantTx, p: Principal, userId: string) {
  const user = await target(trx, p, userId);
  if (user.id === p.userId) throw new AppError('SVC-2007');
  if (user.role === 'owner') throw new AppError('SVC-2006');
  await repo.deactivate(trx, p.orgId, userId);
  await repo.revokeAllSessions(trx, userId, p.orgId);
}

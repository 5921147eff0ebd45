import { randomUUID } from 'node:crypto';
import { newOpaqueToken, sha256Hex } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import type { DB, OrganizationCountry, OrganizationLanguage } from '../../db/types.js';
import { assertVatNumber, isOib } from '../../domain/tax-ids.js';
import { hashPassword, passwordWeaknesses, verifyPassword } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { Role } from '../../lib/jwt.js';
import { isUniqueViolation } from '../../lib/pg-error.js';
import { matchTotp, newTotpSecret, totpFor } from '../../lib/totp.js';
import type { Principal } from '../../plugins/auth.js';
import { addressValues, createOrganizationWithOwner } from '../organization/organization.service.js';
import * as users from '../users/users.repository.js';
import { accountBackoff } from './account-backoff.js';
import * as repo from './auth.repository.js';

export interface IssuedLogin {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
  expiresIn: number;
}

function loginBody(
  user: {
    id: string;
    email: string;
    full_name: string;
    role: Role;
    organization_id: string;
    organization_name: string;
  },
  issued: IssuedLogin,
) {
  return {
    user: {
      id: user.id,
      email: user.email,
      fullName: user.full_name,
      role: user.role,
      organizationId: user.organization_id,
      organizationName: user.organization_name,
    },
    tokens: { accessToken: issued.accessToken, expiresIn: issued.expiresIn },
  };
}

/** SVC-1009 lists the failures under `password` on every route, password change included (catalog). */
function assertStrong(password: string) {
  const problems = passwordWeaknesses(password);
  if (problems.length) throw new AppError('SVC-1009', { password: problems });
}

async function startSession(
  ctx: AppContext,
  trx: Kysely<DB>,
  user: { id: string; orgId: string; role: Role },
  opts: { remember: boolean },
): Promise<IssuedLogin> {
  const sessionId = randomUUID();
  const { token, hash } = newOpaqueToken();
  const ttl = opts.remember ? ctx.config.refreshTokenTtlRememberMs : ctx.config.refreshTokenTtlMs;
  const refreshExpiresAt = new Date(Date.now() + ttl);
  await repo.createSession(trx, {
    id: sessionId,
    orgId: user.orgId,
    userId: user.id,
    remember: opts.remember,
    tokenHash: hash,
    expiresAt: refreshExpiresAt,
  });
  const accessToken = await ctx.tokens.sign({ sub: user.id, org: user.orgId, role: user.role, sid: sessionId });
  return {
    accessToken,
    refreshToken: token,
    refreshExpiresAt,
    expiresIn: Math.round(ctx.config.accessTokenTtlMs / 1000),
  };
}

/**
 * Sign-in flows (register, login, refresh, accept-invite) have no principal yet: they find the
 * organization and user first (as the owner role, outside RLS) and then act in that tenant's
 * scope, built here as the auth plugin builds the caller's.
 */
function signInScope(ctx: AppContext, orgId: string, userId: string, requestId: string): TenantScope {
  return tenantScope(ctx.db, orgId, userId, requestId);
}

export async function register(
  ctx: AppContext,
  input: {
    organizationName: string;
    country: OrganizationCountry;
    baseCurrency: string;
    language: OrganizationLanguage;
    registrationNumber?: string | null;
    vatNumber?: string | null;
    addressLine1?: string | null;
    city?: string | null;
    postalCode?: string | null;
    iban?: string | null;
    email: string;
    password: string;
    fullName: string;
  },
  requestId: string,
) {
  assertStrong(input.password);
  assertVatNumber(input.country, input.vatNumber);
  const address = addressValues(input.country, input);
  const email = input.email.trim();
  if (await users.emailExists(ctx.db.system, email)) throw new AppError('SVC-1008');
  const passwordHash = await hashPassword(input.password, ctx.config.bcryptCost);
  const orgId = randomUUID();
  const userId = randomUUID();
  const year = new Date().getUTCFullYear();
  try {
    // The new organization's own tenant context: RLS accepts its rows, the audit log records them.
    const login = await signInScope(ctx, orgId, userId, requestId).transaction(async (trx) => {
      await createOrganizationWithOwner(trx, {
        orgId,
        organizationName: input.organizationName.trim(),
        country: input.country,
        baseCurrency: input.baseCurrency,
        language: input.language,
        registrationNumber: input.registrationNumber ?? null,
        vatNumber: input.vatNumber ?? null,
        address,
        fiscalYearStart: `${year}-01-01`,
        owner: { id: userId, email, fullName: input.fullName.trim(), passwordHash },
      });
      return startSession(ctx, trx, { id: userId, orgId, role: 'owner' }, { remember: false });
    });
    return {
      login,
      body: {
        user: { id: userId, email, fullName: input.fullName.trim(), role: 'owner' as const },
        organization: {
          id: orgId,
          name: input.organizationName.trim(),
          country: input.country,
          baseCurrency: input.baseCurrency,
        },
        tokens: { accessToken: login.accessToken, refreshToken: login.refreshToken, expiresIn: login.expiresIn },
      },
    };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('SVC-1008');
    throw err;
  }
}

export async function login(
  ctx: AppContext,
  input: { email: string; password: string; rememberMe?: boolean; code?: string },
  requestId: string,
) {
  const backoff = accountBackoff(ctx.counters, ctx.config.rateLimits);
  await backoff.assertMayTry(input.email);
  const user = await repo.findUserForLogin(ctx.db.system, input.email.trim());
  const ok = await verifyPassword(input.password, user?.password_hash ?? null, ctx.config.bcryptCost);
  if (!user || !ok) {
    await backoff.recordFailure(input.email);
    throw new AppError('SVC-1001');
  }
  if (!user.is_active) throw new AppError('SVC-1002');
  if (user.two_factor_enabled) {
    if (!input.code) throw new AppError('SVC-1010', { requiresTwoFactor: ['true'] });
  }
  const loginResult = await signInScope(ctx, user.organization_id, user.id, requestId).transaction(async (trx) => {
    if (user.two_factor_enabled) {
      try {
        await consumeTotp(trx, user.organization_id, user.id, user.two_factor_secret, input.code!);
      } catch (err) {
        if (err instanceof AppError && err.code === 'SVC-1011') await backoff.recordFailure(input.email);
        throw err;
      }
    }
    await repo.updateUser(trx, user.organization_id, user.id, { last_login_at: new Date() });
    return startSession(
      ctx,
      trx,
      { id: user.id, orgId: user.organization_id, role: user.role },
      { remember: input.rememberMe === true },
    );
  });
  return { login: loginResult, body: loginBody(user, loginResult) };
}

async function consumeTotp(trx: Kysely<DB>, orgId: string, userId: string, secret: string | null, code: string) {
  const step = secret ? matchTotp(secret, code) : null;
  if (step === null || !(await repo.claimTotpStep(trx, orgId, userId, step))) throw new AppError('SVC-1011');
}

export async function refresh(ctx: AppContext, token: string | undefined, requestId: string) {
  if (!token) throw new AppError('SVC-1006');
  const row = await repo.findRefreshToken(ctx.db.system, sha256Hex(token));
  if (!row || row.revoked_at || row.session_revoked_at || row.expires_at.getTime() <= Date.now() || !row.is_active) {
    throw new AppError('SVC-1006');
  }
  const outcome = await signInScope(ctx, row.organization_id, row.user_id, requestId).transaction(async (trx) => {
    if (!(await repo.claimRotation(trx, row.organization_id, row.id))) return null;
    const next = newOpaqueToken();
    const ttl = row.remember ? ctx.config.refreshTokenTtlRememberMs : ctx.config.refreshTokenTtlMs;
    const expiresAt = new Date(Date.now() + ttl);
    await repo.insertRefreshToken(trx, {
      orgId: row.organization_id,
      userId: row.user_id,
      familyId: row.family_id,
      tokenHash: next.hash,
      remember: row.remember,
      expiresAt,
    });
    const accessToken = await ctx.tokens.sign({
      sub: row.user_id,
      org: row.organization_id,
      role: row.role,
      sid: row.family_id,
    });
    return {
      accessToken,
      refreshToken: next.token,
      refreshExpiresAt: expiresAt,
      expiresIn: Math.round(ctx.config.accessTokenTtlMs / 1000),
    };
  });
  if (!outcome) {
    // A rotated-out token came back: someone holds a copy. End the whole login (A17).
    await signInScope(ctx, row.organization_id, row.user_id, requestId).transaction((trx) =>
      repo.revokeSession(trx, row.organization_id, row.family_id),
    );
    throw new AppError('SVC-1006');
  }
  return outcome;
}

export async function logout(scope: TenantScope, p: Principal) {
  await scope.transaction((trx) => repo.revokeSession(trx, p.orgId, p.sessionId));
}

export async function changePassword(
  scope: TenantScope,
  ctx: AppContext,
  p: Principal,
  input: { currentPassword: string; newPassword: string },
) {
  const secrets = await scope.run((db) => repo.findUserSecrets(db, p.orgId, p.userId));
  if (!secrets || !(await verifyPassword(input.currentPassword, secrets.password_hash, ctx.config.bcryptCost)))
    throw new AppError('SVC-1001');
  assertStrong(input.newPassword);
  const hash = await hashPassword(input.newPassword, ctx.config.bcryptCost);
  await scope.transaction(async (trx) => {
    await repo.updateUser(trx, p.orgId, p.userId, { password_hash: hash });
    await users.revokeAllSessions(trx, p.userId, p.orgId);
  });
}

export async function setupTwoFactor(scope: TenantScope, p: Principal) {
  if (p.user.twoFactorEnabled) throw new AppError('SVC-9003', { twoFactor: ['is already enabled; disable it first'] });
  const secret = newTotpSecret();
  await scope.transaction((trx) =>
    repo.updateUser(trx, p.orgId, p.userId, { two_factor_secret: secret, two_factor_last_step: null }),
  );
  return { secret, otpauthUrl: totpFor(secret, p.user.email).toString() };
}

/**
 * Enables or disables 2FA with a current code. Disabling also needs a recent sign-in (step-up,
 * issue 33 item 11): a stolen access token or refresh chain alone cannot strip the second factor.
 */
export async function setTwoFactor(
  scope: TenantScope,
  p: Principal,
  code: string,
  opts: { enable: boolean; reauthMaxAgeMs?: number },
) {
  const { enable, reauthMaxAgeMs = Number.POSITIVE_INFINITY } = opts;
  await scope.transaction(async (trx) => {
    if (!enable) {
      const signedIn = await repo.findSessionStart(trx, p.orgId, p.sessionId);
      // 403 SVC-1010 (a code is required) with the reason: the code must come with a fresh sign-in.
      if (!signedIn || Date.now() - signedIn.getTime() > reauthMaxAgeMs) {
        throw new AppError('SVC-1010', {
          reauthentication: ['sign in again (password and code) within REAUTH_MAX_AGE to disable 2FA'],
        });
      }
    }
    const secrets = await repo.findUserSecrets(trx, p.orgId, p.userId);
    if (!secrets?.two_factor_secret || secrets.two_factor_enabled === enable) {
      throw new AppError('SVC-9003', { twoFactor: [enable ? 'run 2fa/setup first' : 'is not enabled'] });
    }
    await consumeTotp(trx, p.orgId, p.userId, secrets.two_factor_secret, code);
    await repo.updateUser(
      trx,
      p.orgId,
      p.userId,
      enable ? { two_factor_enabled: true } : { two_factor_enabled: false, two_factor_secret: null },
    );
  });
  return { twoFactorEnabled: enable };
}

export async function acceptInvite(ctx: AppContext, input: { token: string; password: string }, requestId: string) {
  const inv = await repo.findInvitation(ctx.db.system, sha256Hex(input.token));
  if (!inv || inv.used_at || inv.expires_at.getTime() <= Date.now() || !inv.is_active) throw new AppError('SVC-1012');
  assertStrong(input.password);
  const hash = await hashPassword(input.password, ctx.config.bcryptCost);
  const result = await signInScope(ctx, inv.organization_id, inv.user_id, requestId).transaction(async (trx) => {
    if (!(await repo.claimInvitation(trx, inv.organization_id, inv.id))) throw new AppError('SVC-1012');
    await repo.updateUser(trx, inv.organization_id, inv.user_id, { password_hash: hash, last_login_at: new Date() });
    const user = await repo.findLoginUser(trx, inv.organization_id, inv.user_id);
    const issued = await startSession(
      ctx,
      trx,
      { id: user.id, orgId: user.organization_id, role: user.role },
      {
        remember: false,
      },
    );
    return { user, issued };
  });
  return { login: result.issued, body: loginBody(result.user, result.issued) };
}

async function findProfile(db: Kysely<DB>, p: Principal) {
  const row = await users.findProfile(db, p.orgId, p.userId);
  if (!row) throw new AppError('SVC-1002');
  return { fullName: row.full_name, operatorOib: row.operator_oib };
}

/** PUT /auth/me (E1): name and operator OIB (11 digits, "HR" prefix accepted, checked with its check digit). */
export async function updateProfile(
  scope: TenantScope,
  p: Principal,
  body: { fullName?: string; operatorOib?: string | null },
) {
  const values: { full_name?: string; operator_oib?: string | null } = {};
  if (body.fullName !== undefined) {
    const name = body.fullName.trim();
    if (!name) throw new AppError('SVC-9003', { fullName: ['must not be blank'] });
    values.full_name = name;
  }
  if (body.operatorOib !== undefined) {
    const oib = body.operatorOib?.replace(/\s/g, '').replace(/^HR/i, '') || null;
    if (oib !== null && !isOib(oib))
      throw new AppError('SVC-9003', {
        operatorOib: ['must be a valid Croatian OIB (11 digits with a correct check digit)'],
      });
    values.operator_oib = oib;
  }
  return scope.transaction(async (trx) => {
    if (Object.keys(values).length === 0) return findProfile(trx, p);
    const row = await repo.updateProfile(trx, p.orgId, p.userId, values);
    if (!row) throw new AppError('SVC-1002');
    return { fullName: row.full_name, operatorOib: row.operator_oib };
  });
}

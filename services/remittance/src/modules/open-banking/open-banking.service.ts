import type { Database } from '@app/shared/db/database';
import { D as Decimal } from '@app/shared/money';
import { newId, randomToken, safeEqual } from '@app/shared/secrets';
import type { Config } from '../../config.js';
import type { Consent, ConsentScope, ConsentStatus, DB } from '../../db/types.js';
import { type UserScope, userScope } from '../../db/user-scope.js';
import { AppError, conflict, notFound, validationError } from '../../errors.js';
import { DAY_MS, osloDay } from '../../lib/dates.js';
import type { Surface } from '../../lib/tokens.js';
import { texts } from '../notifications/notification-texts.js';
import { insertNotification } from '../notifications/notifications.repository.js';
import * as repo from './open-banking.repository.js';
import {
  type BankRef,
  type OpenBankingProvider,
  type ProviderAccount,
  type ProviderBank,
  ProviderError,
} from './providers/provider.js';

/** The default of CONSENT_RENEWAL_WINDOW. */
export const RENEWAL_WINDOW_MS = 7 * DAY_MS;
export const STALE_WARNING =
  'The bank consent has expired or was revoked: this is the last balance read. Renew the consent to update it.';
export const REAUTHORIZATION_WARNING =
  'The bank no longer accepts this consent (it expired or was revoked at the bank): this is the last balance read. Renew the consent to update it.';

export interface AccountView {
  id: string;
  bankName: string;
  accountName: string | null;
  accountNumber: string;
  balance: number;
  currency: string;
  isPrimary: boolean;
  balanceUpdatedAt: string | null;
  consentId: string;
  consentStatus: ConsentStatus;
  consentExpiresAt: string | null;
  renewalDue: boolean;
  reauthorizationRequired: boolean;
  stale: boolean;
}

export interface ConsentView {
  id: string;
  provider: string;
  status: ConsentStatus;
  scope: ConsentScope;
  bankAccountId: string | null;
  grantedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  renewalDue: boolean;
  reauthorizationRequired: boolean;
  renewsConsentId: string | null;
  bank: BankRef | null;
  unattendedReadsToday: number;
}

function readable(status: string, expiresAt: Date | null, now: Date): boolean {
  return status === 'active' && expiresAt !== null && expiresAt.getTime() > now.getTime();
}

/** Active, accepted by the bank, and expiring within the renewal window. */
function renewalDue(
  status: string,
  expiresAt: Date | null,
  reauthorizationAt: Date | null,
  now: Date,
  windowMs: number,
): boolean {
  return (
    readable(status, expiresAt, now) && reauthorizationAt === null && expiresAt!.getTime() - now.getTime() <= windowMs
  );
}

// User operations take the caller's UserScope after the deps. The bank callback and the background
// jobs work across users: they find their rows as the login role, then act in each owner's scope.

/** What the open-banking functions need: the database, the provider (sandbox or a real one) and the config. */
export interface OpenBankingDeps {
  db: Database<DB>;
  provider: OpenBankingProvider;
  config: Config;
}

export function toAccountView(a: repo.AccountWithConsent, now = new Date(), windowMs = RENEWAL_WINDOW_MS): AccountView {
  const reauthorization = a.consent_reauthorization_required_at !== null && a.consent_status === 'active';
  return {
    id: a.id,
    bankName: a.bank_name,
    accountName: a.account_name,
    accountNumber: a.account_number,
    balance: Number(a.balance),
    currency: a.currency,
    isPrimary: a.is_primary,
    balanceUpdatedAt: a.balance_updated_at?.toISOString() ?? null,
    consentId: a.consent_id,
    consentStatus: readable(a.consent_status, a.consent_expires_at, now)
      ? a.consent_status
      : a.consent_status === 'active'
        ? 'expired'
        : a.consent_status,
    consentExpiresAt: a.consent_expires_at?.toISOString() ?? null,
    renewalDue: renewalDue(
      a.consent_status,
      a.consent_expires_at,
      a.consent_reauthorization_required_at,
      now,
      windowMs,
    ),
    reauthorizationRequired: reauthorization,
    stale:
      !readable(a.consent_status, a.consent_expires_at, now) || !a.consent_scope.includes('AISP') || reauthorization,
  };
}

export function toConsentView(c: Consent, now = new Date(), windowMs = RENEWAL_WINDOW_MS): ConsentView {
  const today = osloDay(now);
  return {
    id: c.id,
    provider: c.provider,
    status: c.status === 'active' && !readable(c.status, c.expires_at, now) ? 'expired' : c.status,
    scope: c.scope,
    bankAccountId: c.bank_account_id,
    grantedAt: c.granted_at?.toISOString() ?? null,
    expiresAt: c.expires_at?.toISOString() ?? null,
    revokedAt: c.revoked_at?.toISOString() ?? null,
    renewalDue: renewalDue(c.status, c.expires_at, c.reauthorization_required_at, now, windowMs),
    reauthorizationRequired: c.status === 'active' && c.reauthorization_required_at !== null,
    renewsConsentId: c.renews_consent_id,
    bank: c.aspsp_name && c.aspsp_country ? { name: c.aspsp_name, country: c.aspsp_country } : null,
    unattendedReadsToday: c.last_access_date === today ? c.access_count_today : 0,
  };
}

/** Whether this user linked a bank before (a new consent is then "linking again": step-up, see the routes). */
export async function linkedBefore(user: UserScope): Promise<boolean> {
  return user.run((db) => repo.hasGrantedConsent(db, user.userId));
}

/** A provider that fails or times out is 502 bank_unavailable, not an internal error. */
function bankUnavailable(err: unknown): never {
  if (err instanceof ProviderError) throw new AppError('bank_unavailable', `The bank did not answer: ${err.message}`);
  throw err;
}

/** GET /open-banking/banks: the banks a user in `country` can link (the bank chooser). */
export async function listBanks(deps: OpenBankingDeps, country: string): Promise<ProviderBank[]> {
  return deps.provider.listBanks(country.toUpperCase()).catch(bankUnavailable);
}

/**
 * The bank a new consent starts at: the one chosen, checked against the provider's list (and spelled
 * as the list spells it), or the provider's default; 422 when neither names a bank.
 */
async function bankFor(deps: OpenBankingDeps, chosen: BankRef | undefined): Promise<BankRef> {
  if (!chosen) {
    const fallback = deps.provider.defaultBank;
    if (!fallback)
      throw validationError('Choose the bank to link', [
        { field: 'bank', message: 'required: one of GET /open-banking/banks' },
      ]);
    return fallback;
  }
  const country = chosen.country.toUpperCase();
  const name = chosen.name.trim().toLocaleLowerCase('nb');
  const found = (await listBanks(deps, country)).find((b) => b.name.toLocaleLowerCase('nb') === name);
  if (!found)
    throw validationError('Unknown bank', [
      { field: 'bank.name', message: `not a bank the service can link in ${country} (GET /open-banking/banks)` },
    ]);
  return { name: found.name, country: found.country };
}

/** Starts consent at the bank; the bank's callback carries our consent id and a one-time state. */
export async function createConsent(
  deps: OpenBankingDeps,
  user: UserScope,
  scope: ConsentScope,
  surface: Surface,
  opts: {
    /** The bank the user chose (checked against the provider's list). */
    bank?: BankRef;
    /** A renewal: the consent it renews, and that consent's bank (taken as recorded, not looked up again). */
    renewal?: { consentId: string; bank: BankRef | null };
  } = {},
): Promise<{ consentId: string; redirectUrl: string }> {
  const bank = opts.renewal?.bank ?? (await bankFor(deps, opts.bank));
  const renewsConsentId = opts.renewal?.consentId;
  const consentId = newId('con');
  const callbackState = randomToken(24);
  const callback = new URL('/api/open-banking/callback', deps.config.publicUrl);
  callback.searchParams.set('consentId', consentId);
  const { externalConsentId, redirectUrl } = await deps.provider
    .createConsent({ customerRef: user.userId, scope, redirectUri: callback.toString(), state: callbackState, bank })
    .catch(bankUnavailable);
  await user.run((db) =>
    repo.insertConsent(db, user.userId, {
      id: consentId,
      provider: deps.provider.name,
      externalConsentId,
      scope,
      surface,
      callbackState,
      renewsConsentId,
      bank,
    }),
  );
  return { consentId, redirectUrl };
}

/**
 * Renewal (before expiry, after expiry, or after the bank revoked the consent): a new authorization
 * at the same bank with the same scope, as when linking. The new consent names the one it renews;
 * at the bank's callback it takes over its accounts (same ids, so recipients' payments and the
 * history keep working) and the old one is closed (docs/remittance/open-banking.md).
 */
export async function renewConsent(
  deps: OpenBankingDeps,
  user: UserScope,
  consentId: string,
  surface: Surface,
): Promise<{ consentId: string; redirectUrl: string }> {
  const existing = await user.run((db) => repo.findUserConsent(db, user.userId, consentId));
  if (!existing) throw notFound('Consent not found');
  if (existing.status !== 'active' && existing.status !== 'expired')
    throw conflict(`A ${existing.status} consent cannot be renewed; link the bank again`);
  if (existing.provider !== deps.provider.name)
    throw conflict('The consent was given through another open banking provider; link the bank again');
  // At the bank the consent was given at (a consent from before the chooser: the default bank). The
  // bank is not looked up in the provider's list again: the renewal does not depend on that call.
  const bank =
    existing.aspsp_name && existing.aspsp_country
      ? { name: existing.aspsp_name, country: existing.aspsp_country }
      : null;
  return createConsent(deps, user, existing.scope, surface, { renewal: { consentId: existing.id, bank } });
}

/**
 * The bank's redirect back: checks the state, activates the consent for 90 days (or until the
 * bank's own end of access, if earlier) and links the bank's accounts. Provider calls happen before the
 * database transaction (no remote call while holding locks). Returns where to send the browser or app.
 */
export async function completeConsent(
  deps: OpenBankingDeps,
  consentId: string,
  params: Record<string, string | undefined>,
): Promise<string> {
  const consent = await repo.findConsentForCallback(deps.db.system, consentId);
  const destination = (c: Consent | undefined, error?: string) => {
    const base = c?.surface === 'api' ? new URL('app://open-banking/callback') : null;
    if (base) {
      base.searchParams.set('consentId', consentId);
      if (error) base.searchParams.set('error', error);
      return base.toString();
    }
    const q = new URLSearchParams({ consentId });
    if (error) q.set('error', error);
    return `/bank-accounts?${q}`;
  };
  if (!consent || !params.state || !safeEqual(consent.callback_state, params.state))
    return destination(undefined, 'consent_failed');
  if (consent.status === 'active') return destination(consent);
  if (consent.status !== 'pending' || !consent.external_consent_id) return destination(consent, 'consent_failed');

  const owner = userScope(deps.db, consent.user_id);
  let approved: Awaited<ReturnType<OpenBankingProvider['completeConsent']>>;
  let accounts: ProviderAccount[] = [];
  let externalConsentId = consent.external_consent_id;
  try {
    approved = await deps.provider.completeConsent(consent.external_consent_id, params);
    if (typeof approved === 'object') externalConsentId = approved.externalConsentId;
    if (approved && consent.scope !== 'PISP') accounts = await deps.provider.listAccounts(externalConsentId);
  } catch (err) {
    // The bank or aggregator failed (expired code, timeout): the consent stays pending, the user may retry.
    if (!(err instanceof ProviderError)) throw err;
    return destination(consent, 'consent_failed');
  }
  if (!approved) {
    await owner.run((db) => repo.declineConsent(db, owner.userId, consentId, new Date()));
    return destination(consent, 'consent_denied');
  }
  const now = new Date();
  // At most 90 days (CONSENT_DAYS), and never past what the bank granted (Enable Banking's valid_until).
  const ours = now.getTime() + deps.config.openBanking.consentDays * DAY_MS;
  const granted = typeof approved === 'object' ? approved.validUntil?.getTime() : undefined;
  const expiresAt = new Date(granted === undefined ? ours : Math.min(ours, granted));
  const replaced = await owner.transaction(async (trx) => {
    const activated = await repo.activateConsent(trx, owner.userId, consentId, now, expiresAt, externalConsentId);
    if (!activated) return undefined;
    // A renewal: the consent it renews is closed; its accounts move to this one below.
    const old = consent.renews_consent_id
      ? await repo.closeReplacedConsent(trx, owner.userId, consent.renews_consent_id, now)
      : undefined;
    const linked = await repo.upsertAccounts(
      trx,
      owner.userId,
      consentId,
      deps.provider.name,
      accounts,
      () => newId('bac'),
      now,
    );
    if (linked.length === 0) return old;
    const checking = linked[accounts.findIndex((a) => a.isChecking)] ?? linked[0];
    if (!(await repo.hasPrimaryAccount(trx, owner.userId)))
      await repo.setPrimaryAccount(trx, owner.userId, checking.id);
    const kept = old?.bank_account_id && linked.find((a) => a.id === old.bank_account_id);
    await repo.setConsentAccount(trx, owner.userId, consentId, kept ? kept.id : checking.id);
    return old;
  });
  // The replaced consent is closed at the bank too (after commit; ours stays closed whatever it answers).
  if (replaced && replaced.external_consent_id !== externalConsentId) await tellBankRevoked(deps, [replaced]);
  return destination(consent);
}

export async function listConsents(user: UserScope, windowMs = RENEWAL_WINDOW_MS): Promise<ConsentView[]> {
  const now = new Date();
  return (await user.run((db) => repo.listUserConsents(db, user.userId))).map((c) => toConsentView(c, now, windowMs));
}

export async function revokeConsent(deps: OpenBankingDeps, user: UserScope, consentId: string): Promise<ConsentView> {
  const { existing, revoked } = await user.transaction(async (trx) => {
    const existing = await repo.findUserConsent(trx, user.userId, consentId);
    if (!existing) throw notFound('Consent not found');
    return { existing, revoked: await repo.revokeUserConsent(trx, user.userId, consentId, new Date()) };
  });
  if (revoked) await tellBankRevoked(deps, [revoked]);
  return toConsentView(revoked ?? existing);
}

/** After our records are revoked, the bank is told too; they stay revoked whatever it answers. */
export async function tellBankRevoked(deps: OpenBankingDeps, consents: readonly Consent[]): Promise<void> {
  for (const c of consents) {
    if (c.external_consent_id) await deps.provider.revokeConsent(c.external_consent_id).catch(() => undefined);
  }
}

export async function listAccounts(
  user: UserScope,
  windowMs = RENEWAL_WINDOW_MS,
): Promise<{ accounts: AccountView[]; totalBalance: number }> {
  const now = new Date();
  const rows = await user.run((db) => repo.listUserAccounts(db, user.userId));
  // Summed as decimals from the stored strings; numbers only in the response.
  const total = rows.filter((a) => a.currency === 'NOK').reduce((sum, a) => sum.plus(a.balance), new Decimal(0));
  return {
    accounts: rows.map((a) => toAccountView(a, now, windowMs)),
    totalBalance: total.toDecimalPlaces(2).toNumber(),
  };
}

export async function setPrimary(user: UserScope, accountId: string): Promise<AccountView> {
  const account = await user.transaction(async (trx) => {
    if (!(await repo.findUserAccount(trx, user.userId, accountId))) throw notFound('Bank account not found');
    await repo.setPrimaryAccount(trx, user.userId, accountId);
    return repo.findUserAccount(trx, user.userId, accountId);
  });
  return toAccountView(account!);
}

/**
 * A balance read the user asked for (R8): not counted against the unattended limit. With an
 * expired or revoked consent the cached balance comes back marked stale, with a warning.
 */
export async function refreshBalance(
  deps: OpenBankingDeps,
  user: UserScope,
  accountId: string,
): Promise<{ account: AccountView; warning?: string }> {
  const account = await user.run((db) => repo.findUserAccount(db, user.userId, accountId));
  if (!account) throw notFound('Bank account not found');
  const now = new Date();
  if (account.consent_reauthorization_required_at && account.consent_status === 'active')
    return { account: toAccountView(account, now), warning: REAUTHORIZATION_WARNING };
  if (
    !readable(account.consent_status, account.consent_expires_at, now) ||
    !account.consent_scope.includes('AISP') ||
    !account.external_consent_id
  ) {
    return { account: toAccountView(account, now), warning: STALE_WARNING };
  }
  try {
    const balance = await deps.provider.readBalance(account.external_consent_id, account.external_account_id);
    await user.run((db) => repo.updateCachedBalance(db, user.userId, account.id, balance.amount, now));
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    if (err.reason === 'consent_invalid') {
      // The bank no longer accepts the consent (expired or revoked there): re-authorization.
      await consentRefusedByBank(deps.db, { userId: user.userId, consentId: account.consent_id }, now);
      const after = (await user.run((db) => repo.findUserAccount(db, user.userId, accountId)))!;
      return { account: toAccountView(after, now), warning: REAUTHORIZATION_WARNING };
    }
    return {
      account: { ...toAccountView(account, now), stale: true },
      warning: `The bank did not answer: ${err.message}`,
    };
  }
  return {
    account: toAccountView((await user.run((db) => repo.findUserAccount(db, user.userId, accountId)))!, now),
  };
}

/**
 * An unattended read of every account under a consent (background sync): counts once against
 * the 4-a-day limit. Returns false when the limit is reached or the consent cannot be read.
 */
export async function syncConsentUnattended(
  deps: OpenBankingDeps,
  user: UserScope,
  consentId: string,
  now = new Date(),
): Promise<boolean> {
  const limit = deps.config.openBanking.unattendedReadsPerDay;
  const accounts = await user.run(async (db) =>
    (await repo.countUnattendedAccess(db, user.userId, consentId, osloDay(now), limit, now))
      ? repo.listConsentAccounts(db, user.userId, consentId)
      : null,
  );
  if (!accounts) return false;
  for (const account of accounts) {
    if (!account.external_consent_id) continue;
    try {
      const balance = await deps.provider.readBalance(account.external_consent_id, account.external_account_id);
      await user.run((db) => repo.updateCachedBalance(db, user.userId, account.id, balance.amount, now));
    } catch (err) {
      if (err instanceof ProviderError && err.reason === 'consent_invalid') {
        await consentRefusedByBank(deps.db, { userId: user.userId, consentId }, now);
        return false;
      }
      throw err;
    }
  }
  return true;
}

export async function syncAllUnattended(deps: OpenBankingDeps, now = new Date()): Promise<number> {
  let reads = 0;
  for (const consent of await repo.listSyncableConsents(deps.db.system, now)) {
    if (await syncConsentUnattended(deps, userScope(deps.db, consent.user_id), consent.id, now).catch(() => false))
      reads++;
  }
  return reads;
}

export async function expireConsents(deps: OpenBankingDeps, now = new Date()): Promise<string[]> {
  return repo.expireConsents(deps.db.system, now);
}

/**
 * The bank answered that a consent we hold as active is no longer valid (EXPIRED_SESSION,
 * REVOKED_SESSION ...): it is marked as needing re-authorization and its user notified, both once,
 * in one transaction (login role: the payment jobs call it for any user). Returns whether it was
 * marked now.
 */
export async function consentRefusedByBank(
  db: Database<DB>,
  where: { userId: string; consentId: string } | { userId: string; externalConsentId: string },
  now = new Date(),
): Promise<boolean> {
  return db.system.transaction().execute(async (trx) => {
    const marked = await repo.markReauthorizationRequired(trx, where, now);
    if (!marked) return false;
    const bank = await trx
      .selectFrom('bank_accounts')
      .select('bank_name')
      .where('consent_id', '=', marked.id)
      .executeTakeFirst();
    await insertNotification(trx, { userId: marked.user_id, ...texts.consentReauthorization(bank?.bank_name ?? null) });
    return true;
  });
}

/**
 * The consent-renewal job (G12, issue 30): consents expiring within the renewal window are
 * notified once per consent and expiry, each claim and its notification in one transaction (two
 * instances never notify twice). Returns the consents notified.
 */
export async function notifyRenewalsDue(deps: OpenBankingDeps, now = new Date()): Promise<string[]> {
  return deps.db.system.transaction().execute(async (trx) => {
    const due = await repo.claimRenewalNotices(trx, now, deps.config.openBanking.renewalWindowMs);
    for (const c of due)
      await insertNotification(trx, { userId: c.user_id, ...texts.consentExpiring(c.bank_name, c.expires_at) });
    return due.map((c) => c.id);
  });
}

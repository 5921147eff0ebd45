import { type Kysely, sql } from 'kysely';
import type { BankAccount, Consent, ConsentScope, DB } from '../../db/types.js';
import type { ProviderAccount } from './providers/provider.js';

export async function insertConsent(
  db: Kysely<DB>,
  userId: string,
  row: {
    id: string;
    provider: string;
    externalConsentId: string;
    scope: ConsentScope;
    surface: 'web' | 'api';
    callbackState: string;
    /** A renewal: the consent this one replaces when the bank authorizes it. */
    renewsConsentId?: string;
    /** The bank the consent is given at. */
    bank: { name: string; country: string };
  },
): Promise<void> {
  await db
    .insertInto('ob_consents')
    .values({
      id: row.id,
      user_id: userId,
      provider: row.provider,
      external_consent_id: row.externalConsentId,
      status: 'pending',
      scope: row.scope,
      surface: row.surface,
      callback_state: row.callbackState,
      renews_consent_id: row.renewsConsentId ?? null,
      aspsp_name: row.bank.name,
      aspsp_country: row.bank.country,
    })
    .execute();
}

/**
 * The bank's redirect carries no session: the consent is found by id across users (login role),
 * and the caller then proves it with the one-time state before acting in the owner's context.
 */
export async function findConsentForCallback(system: Kysely<DB>, consentId: string): Promise<Consent | undefined> {
  return system.selectFrom('ob_consents').selectAll().where('id', '=', consentId).executeTakeFirst();
}

export async function findUserConsent(db: Kysely<DB>, userId: string, consentId: string): Promise<Consent | undefined> {
  return db
    .selectFrom('ob_consents')
    .selectAll()
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Whether the user has ever authorized a consent (linking a bank again, not for the first time). */
export async function hasGrantedConsent(db: Kysely<DB>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ob_consents')
    .select('id')
    .where('user_id', '=', userId)
    .where('granted_at', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listUserConsents(db: Kysely<DB>, userId: string): Promise<Consent[]> {
  return db
    .selectFrom('ob_consents')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .execute();
}

/** pending -> active, once (a replayed callback finds nothing to activate). */
export async function activateConsent(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
  grantedAt: Date,
  expiresAt: Date,
  externalConsentId?: string,
): Promise<Consent | undefined> {
  return db
    .updateTable('ob_consents')
    .set({
      status: 'active',
      granted_at: grantedAt,
      expires_at: expiresAt,
      ...(externalConsentId ? { external_consent_id: externalConsentId } : {}),
    })
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** pending -> revoked when the user declines at the bank. */
export async function declineConsent(db: Kysely<DB>, userId: string, consentId: string, at: Date): Promise<void> {
  await db
    .updateTable('ob_consents')
    .set({ status: 'revoked', revoked_at: at })
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
}

export async function setConsentAccount(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
  bankAccountId: string,
): Promise<void> {
  await db
    .updateTable('ob_consents')
    .set({ bank_account_id: bankAccountId })
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .execute();
}

export async function revokeUserConsent(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
  at: Date,
): Promise<Consent | undefined> {
  return db
    .updateTable('ob_consents')
    .set({ status: 'revoked', revoked_at: at })
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .where('status', 'in', ['pending', 'active'])
    .returningAll()
    .executeTakeFirst();
}

/** The job's work across users (login role), as one statement: safe to run from several instances at once. */
export async function expireConsents(system: Kysely<DB>, now: Date): Promise<string[]> {
  const rows = await system
    .updateTable('ob_consents')
    .set({ status: 'expired' })
    .where('status', '=', 'active')
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Counts one unattended account-information access (R8: at most `limit` a day); the counter
 * resets when the date changes. Returns false, counting nothing, when the day's reads are used
 * up or the consent no longer allows reads.
 */
export async function countUnattendedAccess(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
  today: string,
  limit: number,
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('ob_consents')
    .set({
      access_count_today: sql`CASE WHEN last_access_date = ${today} THEN access_count_today + 1 ELSE 1 END`,
      last_access_date: today,
    })
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .where((eb) =>
      eb.or([
        eb('last_access_date', 'is', null),
        eb('last_access_date', '!=', today),
        eb('access_count_today', '<', limit),
      ]),
    )
    .returning('access_count_today')
    .executeTakeFirst();
  return row !== undefined;
}

export interface AccountWithConsent extends BankAccount {
  consent_status: Consent['status'];
  consent_scope: Consent['scope'];
  consent_expires_at: Date | null;
  external_consent_id: string | null;
  consent_reauthorization_required_at: Date | null;
}

function accountsWithConsent(db: Kysely<DB>) {
  return db
    .selectFrom('bank_accounts as a')
    .innerJoin('ob_consents as c', 'c.id', 'a.consent_id')
    .selectAll('a')
    .select([
      'c.status as consent_status',
      'c.scope as consent_scope',
      'c.expires_at as consent_expires_at',
      'c.external_consent_id',
      'c.reauthorization_required_at as consent_reauthorization_required_at',
    ]);
}

export async function listUserAccounts(db: Kysely<DB>, userId: string): Promise<AccountWithConsent[]> {
  return accountsWithConsent(db)
    .where('a.user_id', '=', userId)
    .orderBy('a.is_primary', 'desc')
    .orderBy('a.created_at')
    .execute();
}

export async function findUserAccount(
  db: Kysely<DB>,
  userId: string,
  accountId: string,
): Promise<AccountWithConsent | undefined> {
  return accountsWithConsent(db).where('a.user_id', '=', userId).where('a.id', '=', accountId).executeTakeFirst();
}

export async function listConsentAccounts(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
): Promise<AccountWithConsent[]> {
  return accountsWithConsent(db).where('a.user_id', '=', userId).where('a.consent_id', '=', consentId).execute();
}

/** An account number compared as the bank writes it in any form: no spaces, upper case. */
const compactNumber = (n: string) => n.replace(/\s/g, '').toUpperCase();

/**
 * Links (or re-links after a renewal) the bank's accounts to the user and the consent. An account
 * the user already has from this provider is kept (its id, so recipients' payments and transactions
 * referencing it keep working) and moved to the consent: matched by the provider's account id, or
 * by its account number (IBAN), since an aggregator may name the same account anew in each session
 * (Enable Banking's `uid`).
 */
export async function upsertAccounts(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
  provider: string,
  accounts: ProviderAccount[],
  newId: () => string,
  now: Date,
): Promise<BankAccount[]> {
  const out: BankAccount[] = [];
  const mine = await db
    .selectFrom('bank_accounts')
    .select(['id', 'external_account_id', 'account_number'])
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .execute();
  for (const a of accounts) {
    const known =
      mine.find((m) => m.external_account_id === a.externalId) ??
      (a.accountNumber
        ? mine.find((m) => compactNumber(m.account_number) === compactNumber(a.accountNumber))
        : undefined);
    if (known) {
      const row = await db
        .updateTable('bank_accounts')
        .set({
          consent_id: consentId,
          external_account_id: a.externalId,
          balance: a.balance,
          balance_updated_at: now,
          account_name: a.name,
        })
        .where('id', '=', known.id)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      out.push(row);
      continue;
    }
    const row = await db
      .insertInto('bank_accounts')
      .values({
        id: newId(),
        user_id: userId,
        consent_id: consentId,
        provider,
        external_account_id: a.externalId,
        bank_name: a.bankName,
        account_name: a.name,
        account_number: a.accountNumber,
        balance: a.balance,
        currency: a.currency,
        balance_updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    out.push(row);
  }
  return out;
}

export async function hasPrimaryAccount(db: Kysely<DB>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('bank_accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/** Clears the old primary first: a partial unique index allows one primary per user. */
export async function setPrimaryAccount(db: Kysely<DB>, userId: string, accountId: string): Promise<void> {
  await db
    .updateTable('bank_accounts')
    .set({ is_primary: false })
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .where('id', '!=', accountId)
    .execute();
  await db
    .updateTable('bank_accounts')
    .set({ is_primary: true })
    .where('user_id', '=', userId)
    .where('id', '=', accountId)
    .execute();
}

export async function updateCachedBalance(
  db: Kysely<DB>,
  userId: string,
  accountId: string,
  balance: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('bank_accounts')
    .set({ balance, balance_updated_at: at })
    .where('id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}

/** Active consents with account-information scope across users (login role), for the unattended balance sync. */
export async function listSyncableConsents(system: Kysely<DB>, now: Date): Promise<Consent[]> {
  return system
    .selectFrom('ob_consents')
    .selectAll()
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .where('reauthorization_required_at', 'is', null)
    .where('scope', 'in', ['AISP', 'AISP+PISP'])
    .execute();
}

/**
 * A renewal authorized at the bank: the consent it replaces is closed (revoked now; its accounts
 * were moved to the new one). Returns the old row when it was still open.
 */
export async function closeReplacedConsent(
  db: Kysely<DB>,
  userId: string,
  consentId: string,
  at: Date,
): Promise<Consent | undefined> {
  return db
    .updateTable('ob_consents')
    .set({ status: 'revoked', revoked_at: at })
    .where('id', '=', consentId)
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'expired'])
    .returningAll()
    .executeTakeFirst();
}

/**
 * The bank answered that an active consent is no longer valid (expired or revoked at the bank):
 * marked once; the row comes back only the first time, so the caller notifies the user once.
 */
export async function markReauthorizationRequired(
  db: Kysely<DB>,
  where: { userId: string; consentId: string } | { userId: string; externalConsentId: string },
  at: Date,
): Promise<Consent | undefined> {
  let q = db
    .updateTable('ob_consents')
    .set({ reauthorization_required_at: at })
    .where('user_id', '=', where.userId)
    .where('status', '=', 'active')
    .where('reauthorization_required_at', 'is', null);
  q =
    'consentId' in where
      ? q.where('id', '=', where.consentId)
      : q.where('external_consent_id', '=', where.externalConsentId);
  return q.returningAll().executeTakeFirst();
}

/**
 * The renewal job's work across users (login role), in the caller's transaction: active consents
 * expiring within the window, not waiting for re-authorization, whose expiry was not yet notified;
 * each marked with the expiry it is notified for, so a consent is notified once per expiry. The
 * bank's name comes from the consent's accounts.
 */
export async function claimRenewalNotices(
  system: Kysely<DB>,
  now: Date,
  windowMs: number,
): Promise<{ id: string; user_id: string; expires_at: Date; bank_name: string | null }[]> {
  const rows = await system
    .updateTable('ob_consents as c')
    .set({ renewal_notified_for: sql`c.expires_at` })
    .where('c.status', '=', 'active')
    .where('c.reauthorization_required_at', 'is', null)
    .where('c.expires_at', '>', now)
    .where('c.expires_at', '<=', new Date(now.getTime() + windowMs))
    .where((eb) =>
      eb.or([eb('c.renewal_notified_for', 'is', null), eb('c.renewal_notified_for', '!=', eb.ref('c.expires_at'))]),
    )
    .returning([
      'c.id',
      'c.user_id',
      'c.expires_at',
      (eb) =>
        eb
          .selectFrom('bank_accounts as a')
          .select('a.bank_name')
          .whereRef('a.consent_id', '=', 'c.id')
          .limit(1)
          .as('bank_name'),
    ])
    .execute();
  return rows.map((r) => ({ ...r, expires_at: r.expires_at! }));
}

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

/** Links (or re-links after renewal) the bank's accounts to the user and the consent. */
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
  for (const a of accounts) {
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
      .onConflict((oc) =>
        oc.columns(['user_id', 'provider', 'external_account_id']).doUpdateSet({
          consent_id: consentId,
          balance: a.balance,
          balance_updated_at: now,
          account_name: a.name,
        }),
      )
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
    .where('scope', 'in', ['AISP', 'AISP+PISP'])
    .execute();
}

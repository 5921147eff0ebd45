import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { rewrapNationalIdHash } from '../../lib/national-id.js';

/** What an erased account's anonymised text fields read. */
export const ERASED = '[erased]';

/**
 * Erasure (issue 33 item 6, docs/data-retention.md): in the erasure's transaction, as the user,
 * everything anti-money-laundering law does not need is removed or blanked now; the rest stays
 * until `retainUntil`, when purgeExpiredAccounts deletes it.
 */
export async function anonymiseErasedAccount(db: Kysely<DB>, userId: string, retainUntil: Date): Promise<void> {
  // The customer: identified for AML by the keyed national id hash and how they were identified.
  await db
    .updateTable('users')
    .set({
      email: null,
      first_name: '',
      last_name: '',
      phone: null,
      date_of_birth: null,
      last_login_at: null,
      retain_until: retainUntil,
    })
    .where('id', '=', userId)
    .execute();
  // Where and with what the user signed in, consented and asked.
  await db.updateTable('sessions').set({ ip_address: null, user_agent: null }).where('user_id', '=', userId).execute();
  await db.updateTable('gdpr_consents').set({ ip_address: null }).where('user_id', '=', userId).execute();
  await db.updateTable('gdpr_consent_events').set({ ip_address: null }).where('user_id', '=', userId).execute();
  await db.updateTable('data_access_requests').set({ ip_address: null }).where('user_id', '=', userId).execute();
  // Complaints are not AML records: their text goes, the fact and dates stay until the purge.
  await db
    .updateTable('complaints')
    .set({ subject: ERASED, description: ERASED, resolution: null })
    .where('user_id', '=', userId)
    .execute();
  // The address book: a recipient never paid is no transfer record, so its name and IBAN go;
  // one that was paid is the payee of a transfer and stays with it (Funds Transfer Regulation).
  await db
    .updateTable('recipients')
    .set({ name: ERASED, bank_account: ERASED, bank_name: null })
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('transactions as t')
            .select('t.id')
            .whereRef('t.recipient_id', '=', 'recipients.id')
            .where('t.user_id', '=', userId),
        ),
      ),
    )
    .execute();
  await db
    .updateTable('recipients')
    .set({ deleted_at: sql`coalesce(deleted_at, now())` })
    .where('user_id', '=', userId)
    .execute();
  // The payer's account: kept where a transfer was paid from it (payer information of the
  // transfer record), masked where none was.
  await db.updateTable('bank_accounts').set({ account_name: null }).where('user_id', '=', userId).execute();
  await db
    .updateTable('bank_accounts')
    .set({ account_number: sql`'****' || right(account_number, 4)` })
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('transactions as t')
            .select('t.id')
            .whereRef('t.bank_account_id', '=', 'bank_accounts.id')
            .where('t.user_id', '=', userId),
        ),
      ),
    )
    .execute();
  await db.updateTable('cards').set({ shipping_address: null, pin_hash: null }).where('user_id', '=', userId).execute();
  await db.updateTable('merchants').set({ address: null }).where('user_id', '=', userId).execute();
  // Nothing in these is a record anyone must keep.
  await db.deleteFrom('notifications').where('user_id', '=', userId).execute();
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
  await db.deleteFrom('user_settings').where('user_id', '=', userId).execute();
}

/**
 * The purge at the end of the retention period: every row of every erased account whose
 * retain_until has passed, as the login role (a job, no user). One account per transaction. A
 * merchant that other users paid keeps its merchant row (it is the payee of their records) and so
 * a tombstone user row with nothing personal left.
 */
export async function purgeExpiredAccounts(db: Kysely<DB>, now: Date, batch = 100): Promise<number> {
  const due = await db
    .selectFrom('users')
    .select('id')
    .where('retain_until', '<=', now)
    .where('deleted_at', 'is not', null)
    .orderBy('retain_until')
    .limit(batch)
    .execute();
  for (const { id } of due) await db.transaction().execute((trx) => purgeAccount(trx, id));
  return due.length;
}

async function purgeAccount(db: Kysely<DB>, userId: string): Promise<void> {
  const own = (table: 'card_spending_limits' | 'cards' | 'payment_initiations' | 'idempotency_keys') =>
    db.deleteFrom(table).where('user_id', '=', userId).execute();
  await own('card_spending_limits');
  await own('cards');
  await own('payment_initiations');
  await own('idempotency_keys');
  await db.deleteFrom('transactions').where('user_id', '=', userId).execute();
  await db.deleteFrom('recipients').where('user_id', '=', userId).execute();
  for (const table of [
    'notifications',
    'complaints',
    'gdpr_consent_events',
    'gdpr_consents',
    'data_access_requests',
    'sessions',
    'user_settings',
  ] as const) {
    await db.deleteFrom(table).where('user_id', '=', userId).execute();
  }
  await db.updateTable('ob_consents').set({ bank_account_id: null }).where('user_id', '=', userId).execute();
  await db.deleteFrom('bank_accounts').where('user_id', '=', userId).execute();
  await db.deleteFrom('ob_consents').where('user_id', '=', userId).execute();
  const paidByOthers = await db
    .selectFrom('merchants as m')
    .innerJoin('transactions as t', 't.merchant_id', 'm.id')
    .select('m.id')
    .where('m.user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  if (paidByOthers) {
    await db
      .updateTable('users')
      .set({ national_id_hash: null, national_id_hash_version: null, retain_until: null })
      .where('id', '=', userId)
      .execute();
    return;
  }
  await db.deleteFrom('merchants').where('user_id', '=', userId).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/**
 * Rewraps version 1 national id hashes (unkeyed SHA-256) as version 2 (keyed HMAC), in batches;
 * runs at start under an advisory lock. Each row is rewritten once (its version is checked).
 */
export async function rewrapLegacyNationalIdHashes(db: Kysely<DB>, pepper: string, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'national_id_hash'])
      .where('national_id_hash_version', '=', 1)
      .where('national_id_hash', 'is not', null)
      .limit(batch)
      .execute();
    if (rows.length === 0) return total;
    await db.transaction().execute(async (trx) => {
      for (const r of rows) {
        await trx
          .updateTable('users')
          .set({ national_id_hash: rewrapNationalIdHash(r.national_id_hash!, pepper), national_id_hash_version: 2 })
          .where('id', '=', r.id)
          .where('national_id_hash_version', '=', 1)
          .execute();
      }
    });
    total += rows.length;
  }
}

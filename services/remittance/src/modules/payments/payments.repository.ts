import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB, TransactionType } from '../../db/types.js';
import type { SessionProof } from '../auth/sessions.repository.js';
import { DEBIT_RECORD_SQL, RECORD_ANSWER_SQL, REMIT_CONTEXT_SQL } from './payments.sql.js';

/** The paying account with its consent: the one asked for, or the user's primary. */
export interface PayingAccount {
  id: string;
  bank_name: string;
  balance: string;
  external_account_id: string;
  provider: string;
  consent_status: string;
  consent_scope: string;
  consent_expires_at: Date | null;
  external_consent_id: string | null;
  /** The bank refused the consent (expired or revoked there): renew it before paying. */
  consent_reauthorization: boolean;
  /** The bank the consent was given at (null: before the bank chooser, the default bank). */
  aspsp_name: string | null;
  aspsp_country: string | null;
}

/** The paying account and its consent, as the QR payment look-up selects them (a: bank_accounts, c: ob_consents). */
const PAYING_ACCOUNT = [
  'a.id as account_id',
  'a.bank_name',
  'a.balance',
  'a.external_account_id',
  'a.provider',
  'c.status as consent_status',
  'c.scope as consent_scope',
  'c.expires_at as consent_expires_at',
  'c.external_consent_id',
  sql<boolean>`c.reauthorization_required_at IS NOT NULL`.as('consent_reauthorization'),
  'c.aspsp_name',
  'c.aspsp_country',
] as const;

/** What a remittance checks before it pays (see REMIT_CONTEXT_SQL). */
export interface RemitContext {
  session_live: boolean;
  kyc_status: string;
  recipient_id: string | null;
  recipient_name: string | null;
  recipient_country: string | null;
  recipient_currency: string | null;
  recipient_account: string | null;
  /** numeric as text (no float touches money or rates). */
  rate: string | null;
  account_id: string | null;
  bank_name: string | null;
  balance: string | null;
  external_account_id: string | null;
  consent_status: string | null;
  consent_scope: string | null;
  /** ISO 8601 (timestamptz as JSON writes it). */
  consent_expires_at: string | null;
  external_consent_id: string | null;
  consent_reauthorization: boolean | null;
  aspsp_name: string | null;
  aspsp_country: string | null;
}

export async function remitContext(
  db: Kysely<DB>,
  userId: string,
  recipientId: string,
  bankAccountId: string | null,
  proof: SessionProof | null = null,
): Promise<RemitContext | undefined> {
  const params = [
    userId,
    recipientId,
    bankAccountId,
    proof?.tokenHash ?? null,
    proof?.surface ?? null,
    proof ? new Date() : null,
  ];
  const { rows } = await db.executeQuery<{ context: RemitContext }>(CompiledQuery.raw(REMIT_CONTEXT_SQL, params));
  return rows[0]?.context;
}

/** The order the bank gets, kept with the intent so every attempt sends the same one. */
export interface StoredOrder {
  externalConsentId: string;
  externalAccountId: string;
  amount: string;
  currency: string;
  creditorAccount: string;
  creditorName: string;
  reference: string;
  /** The bank of the account's consent (absent: a consent from before the bank chooser, the default bank). */
  bank?: { name: string; country: string };
}

export interface NewIntent {
  provider: string;
  endToEndId: string;
  order: StoredOrder;
  idempotencyKey: string | null;
  surface: 'web' | 'api';
  callbackState: string;
  leaseUntil: Date;
}

/**
 * Runs DEBIT_RECORD_SQL (see there): the debit, the 'initiating' transaction and its initiation.
 * The transaction's created_at (ISO text), or undefined when the balance does not cover the total.
 */
export async function recordIntent(
  db: Kysely<DB>,
  userId: string,
  t: NewTransaction,
  intent: NewIntent,
): Promise<string | undefined> {
  const q = CompiledQuery.raw(DEBIT_RECORD_SQL, [
    userId,
    t.bankAccountId,
    t.total,
    t.id,
    t.type,
    t.recipientId,
    t.merchantId,
    t.recipientName,
    t.recipientCountry,
    t.fromAccount,
    t.sendAmount,
    t.receiveAmount,
    t.receiveCurrency,
    t.exchangeRate,
    t.fee,
    t.eta,
    intent.provider,
    intent.endToEndId,
    JSON.stringify(intent.order),
    intent.idempotencyKey,
    intent.surface,
    intent.callbackState,
    intent.leaseUntil,
  ]);
  const { rows } = await db.executeQuery<{ created_at: string }>(q);
  return rows[0]?.created_at;
}

/** A payment with its initiation, as the state machine reads it (system connection). */
export async function loadPayment(db: Kysely<DB>, transactionId: string) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('payment_initiations as p', 'p.transaction_id', 't.id')
    .select([
      't.id',
      't.user_id',
      't.type',
      't.status',
      't.bank_account_id',
      't.merchant_id',
      't.send_amount',
      't.send_currency',
      't.total',
      't.recipient_name',
      't.recipient_country',
      't.receive_amount',
      't.receive_currency',
      't.exchange_rate',
      't.fee',
      't.from_account',
      't.eta',
      't.failure_reason',
      't.created_at',
      'p.external_payment_id',
      'p.end_to_end_id',
      'p.payment_order',
      'p.idempotency_key',
      'p.surface',
      'p.callback_state',
      'p.authorization_url',
      'p.bank_status',
      'p.attempts',
      'p.lease_until',
    ])
    .where('t.id', '=', transactionId)
    .executeTakeFirst();
}
export type PaymentRow = NonNullable<Awaited<ReturnType<typeof loadPayment>>>;

/** The payment an Idempotency-Key started (the user's own). */
export async function paymentOfKey(db: Kysely<DB>, userId: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('payment_initiations')
    .select('transaction_id')
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.transaction_id;
}

/** The payment the bank's redirect names by its one-time state. */
export async function paymentOfState(db: Kysely<DB>, state: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('payment_initiations')
    .select('transaction_id')
    .where('callback_state', '=', state)
    .executeTakeFirst();
  return row?.transaction_id;
}

/**
 * Takes the provider call of an intent whose answer is not recorded (no external payment id) and
 * whose lease has run out: one statement, so two workers never both call. True when taken.
 */
export async function leaseIntent(db: Kysely<DB>, transactionId: string, now: Date, until: Date): Promise<boolean> {
  const r = await db
    .updateTable('payment_initiations')
    .set({ lease_until: until, attempts: sql`attempts + 1`, bank_status: null, updated_at: now })
    .where('transaction_id', '=', transactionId)
    .where('external_payment_id', 'is', null)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('transactions')
          .select('id')
          .whereRef('transactions.id', '=', 'payment_initiations.transaction_id')
          .where('transactions.status', '=', 'initiating'),
      ),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The recovery job's claim: initiating payments whose lease ran out (an intent whose call was
 * never made or whose answer was lost, or a payment waiting for the user's authorization whose
 * next status check is due), leased for this worker in one statement (SKIP LOCKED: two workers
 * take different rows). Polled ones (with an external id) get the poll interval as their lease.
 */
export async function claimDue(
  db: Kysely<DB>,
  now: Date,
  limit: number,
  leaseMs: number,
  pollMs: number,
): Promise<{ transaction_id: string; external_payment_id: string | null }[]> {
  const { rows } = await sql<{ transaction_id: string; external_payment_id: string | null }>`
    UPDATE payment_initiations p
    SET lease_until = ${now}::timestamptz + make_interval(secs => CASE WHEN p.external_payment_id IS NULL
          THEN ${leaseMs / 1000}::float8 ELSE ${pollMs / 1000}::float8 END),
        attempts = p.attempts + CASE WHEN p.external_payment_id IS NULL THEN 1 ELSE 0 END,
        bank_status = CASE WHEN p.external_payment_id IS NULL THEN NULL ELSE p.bank_status END,
        updated_at = ${now}
    WHERE p.transaction_id IN (
      SELECT q.transaction_id FROM payment_initiations q
      JOIN transactions t ON t.id = q.transaction_id
      WHERE t.status = 'initiating' AND (q.lease_until IS NULL OR q.lease_until <= ${now})
      ORDER BY t.created_at
      LIMIT ${limit}
      FOR UPDATE OF q SKIP LOCKED
    )
    RETURNING p.transaction_id, p.external_payment_id`.execute(db);
  return rows;
}

/**
 * The bank's answer to the creation, once (RECORD_ANSWER_SQL), and with `moveToProcessing` a
 * remittance the bank accepted moved on to 'processing' in the same statement. The payment as
 * recorded, or undefined when an answer was already recorded.
 */
export async function recordAnswer(
  db: Kysely<DB>,
  transactionId: string,
  created: { paymentId: string; bankStatus: string; authorizationUrl: string | null },
  now: Date,
  moveToProcessing: boolean,
): Promise<PaymentRow | undefined> {
  const { rows } = await db.executeQuery<PaymentRow>(
    CompiledQuery.raw(RECORD_ANSWER_SQL, [
      transactionId,
      created.paymentId,
      created.bankStatus,
      created.authorizationUrl,
      now,
      moveToProcessing,
    ]),
  );
  return rows[0];
}

/** The call got no answer (5xx, 429, timeout): marked, and the next attempt not before `retryAt`. */
export async function recordNoAnswer(db: Kysely<DB>, transactionId: string, now: Date, retryAt: Date): Promise<void> {
  await db
    .updateTable('payment_initiations')
    .set({ bank_status: NO_ANSWER, lease_until: retryAt, updated_at: now })
    .where('transaction_id', '=', transactionId)
    .where('external_payment_id', 'is', null)
    .execute();
}

/** bank_status of an intent whose last call got no answer (not an ISO 20022 code). */
export const NO_ANSWER = 'NO_ANSWER';

/** The bank's latest status code (kept for the failure reason and logs). */
export async function recordBankStatus(db: Kysely<DB>, transactionId: string, bankStatus: string, now: Date) {
  await db
    .updateTable('payment_initiations')
    .set({ bank_status: bankStatus, updated_at: now })
    .where('transaction_id', '=', transactionId)
    .execute();
}

/** Moves a payment on from one of `from`, once; false when another worker moved it first. */
export async function moveTransaction(
  db: Kysely<DB>,
  transactionId: string,
  from: readonly ('initiating' | 'processing')[],
  to: 'processing' | 'completed' | 'failed',
  at: Date,
  reason: string | null = null,
): Promise<boolean> {
  const r = await db
    .updateTable('transactions')
    .set(
      to === 'completed'
        ? { status: to, completed_at: at }
        : to === 'failed'
          ? { status: to, failed_at: at, failure_reason: reason }
          : { status: to },
    )
    .where('id', '=', transactionId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The merchant's user, for the "payment received" notification written by the system connection. */
export async function merchantUser(db: Kysely<DB>, merchantId: string): Promise<string | undefined> {
  const row = await db.selectFrom('merchants').select('user_id').where('id', '=', merchantId).executeTakeFirst();
  return row?.user_id;
}

/** The payer's name as the merchant sees it. */
export async function payerName(db: Kysely<DB>, userId: string) {
  return db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
}

/** What payable_merchant() (an owner-run function, see the RLS migration) gives a payer. */
interface PayableMerchant {
  id: string;
  user_id: string;
  business_name: string;
  bank_account: string;
}

/**
 * A QR payment's checks in one round trip: the merchant and the payer's primary account. The
 * merchant belongs to another user, so it comes through payable_merchant(), which also leaves
 * out a merchant whose owner is erased (kept for retention only, it receives no payments).
 */
export async function loadQrContext(db: Kysely<DB>, userId: string, merchantId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin(sql<PayableMerchant>`payable_merchant(${merchantId})`.as('m'), (j) => j.onTrue())
    .leftJoin('bank_accounts as a', (j) => j.onRef('a.user_id', '=', 'u.id').on('a.is_primary', '=', true))
    .leftJoin('ob_consents as c', 'c.id', 'a.consent_id')
    .select([
      'u.first_name',
      'u.last_name',
      'm.id as merchant_id',
      'm.user_id as merchant_user_id',
      'm.business_name',
      'm.bank_account as merchant_account',
      ...PAYING_ACCOUNT,
    ])
    .where('u.id', '=', userId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The merchant's "payment received" notification, from inside the payer's transaction: the
 * owner-run notify_qr_payee() writes it only for the caller's own QR payment, only to its merchant.
 */
export async function notifyQrPayee(
  db: Kysely<DB>,
  transactionId: string,
  notificationId: string,
  text: { title: string; body: string },
): Promise<void> {
  await sql`SELECT notify_qr_payee(${transactionId}, ${notificationId}, ${text.title}, ${text.body})`.execute(db);
}

export async function creditAccount(db: Kysely<DB>, userId: string, accountId: string, amount: string): Promise<void> {
  await db
    .updateTable('bank_accounts')
    .set({ balance: sql`balance + ${amount}::numeric` })
    .where('user_id', '=', userId)
    .where('id', '=', accountId)
    .execute();
}

export interface NewTransaction {
  id: string;
  type: TransactionType;
  bankAccountId: string;
  recipientId: string | null;
  merchantId: string | null;
  recipientName: string;
  recipientCountry: string | null;
  fromAccount: string;
  sendAmount: string;
  receiveAmount: string;
  receiveCurrency: string;
  exchangeRate: string;
  fee: string;
  total: string;
  eta: string | null;
}

/**
 * The settlement job's claim (G12): processing payments whose next status check is due, leased
 * for this worker in one statement (SKIP LOCKED: another worker at the same time takes others).
 * The bank is asked after this statement, outside any transaction.
 */
export async function claimProcessing(db: Kysely<DB>, now: Date, limit: number, pollMs: number): Promise<string[]> {
  const { rows } = await sql<{ transaction_id: string }>`
    UPDATE payment_initiations p
    SET lease_until = ${now}::timestamptz + make_interval(secs => ${pollMs / 1000}::float8), updated_at = ${now}
    WHERE p.transaction_id IN (
      SELECT q.transaction_id FROM payment_initiations q
      JOIN transactions t ON t.id = q.transaction_id
      WHERE t.status = 'processing' AND q.external_payment_id IS NOT NULL
        AND (q.lease_until IS NULL OR q.lease_until <= ${now})
      ORDER BY t.created_at
      LIMIT ${limit}
      FOR UPDATE OF q SKIP LOCKED
    )
    RETURNING p.transaction_id`.execute(db);
  return rows.map((r) => r.transaction_id);
}

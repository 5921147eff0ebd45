import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB, Transaction, TransactionType } from '../../db/types.js';
import type { SessionProof } from '../auth/sessions.repository.js';
import { DEBIT_RECORD_SQL, INITIATION_SQL, REMIT_CONTEXT_SQL } from './payments.sql.js';

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

/** The recorded transaction, one JSON column (numerics as text, created_at as toISOString writes it). */
export type RecordedTransaction = Pick<
  Transaction,
  | 'id'
  | 'status'
  | 'receive_amount'
  | 'receive_currency'
  | 'exchange_rate'
  | 'recipient_name'
  | 'recipient_country'
  | 'from_account'
> & {
  created_at: string;
};

/**
 * Runs DEBIT_RECORD_SQL (see there); undefined when the balance does not cover the total.
 */
export async function debitAndRecord(
  db: Kysely<DB>,
  userId: string,
  t: NewTransaction,
  initiation: { provider: string; externalPaymentId: string },
): Promise<RecordedTransaction | undefined> {
  const q = CompiledQuery.raw(DEBIT_RECORD_SQL, [
    userId,
    t.bankAccountId,
    t.total,
    t.id,
    t.type,
    t.status,
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
    t.completedAt,
    initiation.provider,
    initiation.externalPaymentId,
  ]);
  const { rows } = await db.executeQuery<{ tx: RecordedTransaction }>(q);
  return rows[0]?.tx;
}

/** The payment initiation row on its own (QR payments, whose debit comes before the bank's), precompiled. */
export async function recordInitiation(
  db: Kysely<DB>,
  userId: string,
  row: { transactionId: string; provider: string; externalPaymentId: string; amount: string },
): Promise<void> {
  await db.executeQuery(
    CompiledQuery.raw(INITIATION_SQL, [row.transactionId, userId, row.provider, row.externalPaymentId, row.amount]),
  );
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
  status: 'processing' | 'completed';
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
  completedAt: Date | null;
}

/**
 * The debit (R9) and the transaction row in one statement: the conditional update
 * (`balance >= total`) feeds the insert, so concurrent payments can never take the cached
 * balance below zero, and a refused debit inserts nothing. Undefined when the balance does not
 * cover the total.
 */
export async function debitAndInsertTransaction(
  db: Kysely<DB>,
  userId: string,
  t: NewTransaction,
): Promise<Transaction | undefined> {
  const { rows } = await sql<Transaction>`
    WITH debit AS (
      UPDATE bank_accounts SET balance = balance - ${t.total}::numeric
      WHERE user_id = ${userId} AND id = ${t.bankAccountId} AND balance >= ${t.total}::numeric
      RETURNING id
    )
    INSERT INTO transactions (id, user_id, type, status, bank_account_id, recipient_id, merchant_id, recipient_name,
      recipient_country, from_account, send_amount, send_currency, receive_amount, receive_currency, exchange_rate,
      fee, total, reference, eta, completed_at)
    SELECT ${t.id}, ${userId}, ${t.type}, ${t.status}, debit.id, ${t.recipientId}, ${t.merchantId}, ${t.recipientName},
      ${t.recipientCountry}, ${t.fromAccount}, ${t.sendAmount}::numeric, 'NOK', ${t.receiveAmount}::numeric, ${t.receiveCurrency},
      ${t.exchangeRate}::numeric, ${t.fee}::numeric, ${t.total}::numeric, ${t.id}, ${t.eta}, ${t.completedAt}::timestamptz
    FROM debit
    RETURNING *`.execute(db);
  return rows[0];
}

/**
 * The settlement job's claim (G12): processing remittances, locked for this transaction and
 * skipped by any other worker that runs at the same time.
 */
export async function claimProcessing(db: Kysely<DB>, limit: number) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('payment_initiations as p', 'p.transaction_id', 't.id')
    .select([
      't.id',
      't.user_id',
      't.bank_account_id',
      't.send_amount',
      't.send_currency',
      't.total',
      't.recipient_name',
      'p.external_payment_id',
    ])
    .where('t.status', '=', 'processing')
    .orderBy('t.created_at')
    .limit(limit)
    .forUpdate('t')
    .skipLocked()
    .execute();
}

/** processing -> completed or failed, once. */
export async function finishTransaction(
  db: Kysely<DB>,
  userId: string,
  transactionId: string,
  status: 'completed' | 'failed',
  at: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('transactions')
    .set(status === 'completed' ? { status, completed_at: at } : { status, failed_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', transactionId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

import { CompiledQuery, sql, type Kysely } from 'kysely';
import { withCommit } from '@app/shared/db/database';
import { CORRIDOR_COUNTRIES, remittanceEta } from '../../lib/corridors.js';
import type { DB, Transaction, TransactionType } from '../../db/schema.js';

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

/** The paying account and its consent, as both payment look-ups select them (a: bank_accounts, c: ob_consents). */
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

/**
 * Everything a remittance checks before its transaction, in one round trip: the user's KYC
 * status, the recipient (only the user's own, not deleted), the rate for its currency and the
 * paying account with its consent.
 */
export async function loadRemittanceContext(db: Kysely<DB>, userId: string, recipientId: string, bankAccountId: string | null) {
  return db
    .selectFrom('users as u')
    .leftJoin('recipients as r', (j) => j.onRef('r.user_id', '=', 'u.id').on('r.id', '=', recipientId).on('r.deleted_at', 'is', null))
    .leftJoin('exchange_rates as er', 'er.currency', 'r.currency')
    .leftJoin('bank_accounts as a', (j) => {
      const own = j.onRef('a.user_id', '=', 'u.id');
      return bankAccountId === null ? own.on('a.is_primary', '=', true) : own.on('a.id', '=', bankAccountId);
    })
    .leftJoin('ob_consents as c', 'c.id', 'a.consent_id')
    .select([
      'u.kyc_status',
      'r.id as recipient_id',
      'r.name as recipient_name',
      'r.country as recipient_country',
      'r.currency as recipient_currency',
      'r.bank_account as recipient_account',
      'er.rate',
      ...PAYING_ACCOUNT,
    ])
    .where('u.id', '=', userId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A remittance's checks, debit and transaction row: what the service reads back (see remitStatement). */
export interface RemitRow {
  kyc_status: string;
  recipient_id: string | null;
  recipient_name: string | null;
  recipient_country: string | null;
  recipient_currency: string | null;
  recipient_account: string | null;
  rate: string | null;
  account_id: string | null;
  bank_name: string | null;
  external_account_id: string | null;
  consent_status: string | null;
  consent_scope: string | null;
  consent_expires_at: Date | null;
  external_consent_id: string | null;
  /** Set when the debit happened and the transaction row was written. */
  tx_id: string | null;
  tx_status: string | null;
  receive_amount: string | null;
  exchange_rate: string | null;
  eta: string | null;
  created_at: Date | null;
}

/** The ETA of every corridor country (R10), so the statement picks the recipient's. */
const ETAS = JSON.stringify(Object.fromEntries(CORRIDOR_COUNTRIES.map((c) => [c, remittanceEta(c)])));
const DEFAULT_ETA = remittanceEta('');

/**
 * A remittance in one statement (R9), precompiled: the look-up (the user's KYC status, the
 * recipient (only the user's own, not deleted), the rate for its currency, the paying account
 * with its consent: $4 or the primary), the conditional debit (`balance >= total`), which
 * happens only when every check passes, and the transaction row fed by it. The look-up columns
 * come back whether or not the debit happened, so a refusal is explained without another query.
 * receiveAmount = round(amount x rate, 2) (numeric round: half away from zero, as ROUND_HALF_UP).
 * $1 user, $2 recipient, $3 bankAccountId or null, $4 now, $5 transaction id, $6 amount,
 * $7 fee, $8 total, $9 ETA by country (JSON), $10 default ETA.
 */
const REMIT_SQL = `
  WITH ctx AS (
    SELECT u.kyc_status, r.id AS recipient_id, r.name AS recipient_name, r.country AS recipient_country,
      r.currency AS recipient_currency, r.bank_account AS recipient_account, er.rate,
      a.id AS account_id, a.bank_name, a.external_account_id,
      c.status AS consent_status, c.scope AS consent_scope, c.expires_at AS consent_expires_at, c.external_consent_id
    FROM users u
    LEFT JOIN recipients r ON r.user_id = u.id AND r.id = $2 AND r.deleted_at IS NULL
    LEFT JOIN exchange_rates er ON er.currency = r.currency
    LEFT JOIN bank_accounts a ON a.user_id = u.id AND (CASE WHEN $3::text IS NULL THEN a.is_primary ELSE a.id = $3::text END)
    LEFT JOIN ob_consents c ON c.id = a.consent_id
    WHERE u.id = $1 AND u.deleted_at IS NULL
  ), debit AS (
    UPDATE bank_accounts b SET balance = b.balance - $8::numeric
    FROM ctx
    WHERE b.user_id = $1 AND b.id = ctx.account_id AND b.balance >= $8::numeric
      AND ctx.recipient_id IS NOT NULL AND ctx.kyc_status = 'approved' AND ctx.rate IS NOT NULL
      AND ctx.consent_status = 'active' AND position('PISP' in ctx.consent_scope) > 0 AND ctx.external_consent_id IS NOT NULL
      AND (ctx.consent_expires_at IS NULL OR ctx.consent_expires_at > $4::timestamptz)
    RETURNING b.id
  ), tx AS (
    INSERT INTO transactions (id, user_id, type, status, bank_account_id, recipient_id, merchant_id, recipient_name,
      recipient_country, from_account, send_amount, send_currency, receive_amount, receive_currency, exchange_rate,
      fee, total, reference, eta, completed_at)
    SELECT $5, $1, 'remittance', 'processing', debit.id, ctx.recipient_id, NULL, ctx.recipient_name,
      ctx.recipient_country, ctx.bank_name, $6::numeric, 'NOK', round($6::numeric * ctx.rate, 2), ctx.recipient_currency,
      ctx.rate, $7::numeric, $8::numeric, $5, coalesce($9::jsonb ->> ctx.recipient_country, $10), NULL
    FROM debit, ctx
    RETURNING id, status, receive_amount, exchange_rate, eta, created_at
  )
  SELECT ctx.*, tx.id AS tx_id, tx.status AS tx_status, tx.receive_amount, tx.exchange_rate, tx.eta, tx.created_at
  FROM ctx LEFT JOIN tx ON true`;

/**
 * Runs REMIT_SQL (see there). Undefined when the user is gone; tx_id null when a check or the
 * balance refused the debit (nothing was written).
 */
export async function remitStatement(
  db: Kysely<DB>,
  userId: string,
  p: { recipientId: string; bankAccountId: string | null; now: Date; id: string; amount: string; fee: string; total: string },
): Promise<RemitRow | undefined> {
  const { rows } = await db.executeQuery<RemitRow>(
    CompiledQuery.raw(REMIT_SQL, [userId, p.recipientId, p.bankAccountId, p.now, p.id, p.amount, p.fee, p.total, ETAS, DEFAULT_ETA]),
  );
  return rows[0];
}

const INITIATION_SQL = `INSERT INTO payment_initiations (transaction_id, user_id, provider, external_payment_id, amount) VALUES ($1, $2, $3, $4, $5::numeric)`;

/**
 * The payment initiation row, precompiled; `last` marks it the transaction's last statement, so
 * COMMIT travels in the same round trip (withCommit).
 */
export async function recordInitiation(
  db: Kysely<DB>,
  userId: string,
  row: { transactionId: string; provider: string; externalPaymentId: string; amount: string },
  last: boolean,
): Promise<void> {
  const q = CompiledQuery.raw(INITIATION_SQL, [row.transactionId, userId, row.provider, row.externalPaymentId, row.amount]);
  await db.executeQuery(last ? withCommit(q) : q);
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
export async function notifyQrPayee(db: Kysely<DB>, transactionId: string, notificationId: string, text: { title: string; body: string }): Promise<void> {
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
export async function debitAndInsertTransaction(db: Kysely<DB>, userId: string, t: NewTransaction): Promise<Transaction | undefined> {
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
    .select(['t.id', 't.user_id', 't.bank_account_id', 't.send_amount', 't.send_currency', 't.total', 't.recipient_name', 'p.external_payment_id'])
    .where('t.status', '=', 'processing')
    .orderBy('t.created_at')
    .limit(limit)
    .forUpdate('t')
    .skipLocked()
    .execute();
}

/** processing -> completed or failed, once. */
export async function finishTransaction(db: Kysely<DB>, userId: string, transactionId: string, status: 'completed' | 'failed', at: Date): Promise<boolean> {
  const r = await db
    .updateTable('transactions')
    .set(status === 'completed' ? { status, completed_at: at } : { status, failed_at: at })
    .where('user_id', '=', userId)
    .where('id', '=', transactionId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

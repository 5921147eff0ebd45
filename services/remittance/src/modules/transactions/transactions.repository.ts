import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB, Transaction, TransactionStatus, TransactionType } from '../../db/types.js';
import { listTransactionsSql } from './transactions.sql.js';

export interface TransactionFilter {
  type?: TransactionType;
  status?: TransactionStatus;
}

/**
 * The version of the user's history and, unless it is `heldVersion`, one page of it as the JSON
 * text of its items with the filtered total, in one statement (transactions.sql.ts).
 */
export async function listTransactionsJson(
  db: Kysely<DB>,
  userId: string,
  filter: TransactionFilter,
  limit: number,
  offset: number,
  heldVersion: string | null,
): Promise<{ version: string | null; page: { data: string; total: number } | null }> {
  const params: unknown[] = [userId];
  for (const v of [filter.type, filter.status]) if (v) params.push(v);
  params.push(limit, offset, heldVersion ?? '-1');
  const { rows } = await db.executeQuery<{ version: string | null; data: string | null; total: number | null }>(
    CompiledQuery.raw(listTransactionsSql(filter), params),
  );
  const { version, data, total } = rows[0];
  return { version, page: data === null ? null : { data, total: total! } };
}

export async function findTransaction(
  db: Kysely<DB>,
  userId: string,
  transactionId: string,
): Promise<Transaction | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', transactionId)
    .executeTakeFirst();
}

export interface SummaryRow {
  total_count: string;
  total_sent: string;
  total_paid: string;
  remittance_count: string;
  qr_payment_count: string;
}

/**
 * All-time and this month's (Europe/Oslo calendar month) figures; failed transactions returned
 * the money, so they are left out.
 */
export async function summarize(
  db: Kysely<DB>,
  userId: string,
  now: Date,
): Promise<{ allTime: SummaryRow; thisMonth: SummaryRow }> {
  const { rows } = await sql<{ [k: string]: string }>`
    WITH t AS (
      SELECT type, send_amount,
             created_at >= (date_trunc('month', ${now}::timestamptz AT TIME ZONE 'Europe/Oslo') AT TIME ZONE 'Europe/Oslo') AS this_month
      FROM transactions WHERE user_id = ${userId} AND status <> 'failed'
    )
    SELECT count(*) AS total_count,
           coalesce(sum(send_amount) FILTER (WHERE type = 'remittance'), 0) AS total_sent,
           coalesce(sum(send_amount) FILTER (WHERE type = 'qr_payment'), 0) AS total_paid,
           count(*) FILTER (WHERE type = 'remittance') AS remittance_count,
           count(*) FILTER (WHERE type = 'qr_payment') AS qr_payment_count,
           count(*) FILTER (WHERE this_month) AS m_total_count,
           coalesce(sum(send_amount) FILTER (WHERE this_month AND type = 'remittance'), 0) AS m_total_sent,
           coalesce(sum(send_amount) FILTER (WHERE this_month AND type = 'qr_payment'), 0) AS m_total_paid,
           count(*) FILTER (WHERE this_month AND type = 'remittance') AS m_remittance_count,
           count(*) FILTER (WHERE this_month AND type = 'qr_payment') AS m_qr_payment_count
    FROM t`.execute(db);
  const r = rows[0];
  const pick = (p: string): SummaryRow => ({
    total_count: String(r[`${p}total_count`]),
    total_sent: String(r[`${p}total_sent`]),
    total_paid: String(r[`${p}total_paid`]),
    remittance_count: String(r[`${p}remittance_count`]),
    qr_payment_count: String(r[`${p}qr_payment_count`]),
  });
  return { allTime: pick(''), thisMonth: pick('m_') };
}

export async function findUserLanguage(db: Kysely<DB>, userId: string): Promise<string> {
  const row = await db.selectFrom('user_settings').select('language').where('user_id', '=', userId).executeTakeFirst();
  return row?.language ?? 'nb';
}

/**
 * What a receipt names besides the transaction row: the sender's names and paying account, and
 * the account the money went to (the one copied into the transaction when it was made, or for a QR payment the merchant's through
 * payable_merchant(), null once that merchant's owner is erased). One round trip.
 */
export async function findReceiptParties(db: Kysely<DB>, userId: string, t: Transaction) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('bank_accounts as a', (j) => j.onRef('a.user_id', '=', 'u.id').on('a.id', '=', t.bank_account_id))
    .leftJoin('recipients as r', (j) => j.onRef('r.user_id', '=', 'u.id').on('r.id', '=', t.recipient_id ?? ''))
    .leftJoin(sql<{ bank_account: string }>`payable_merchant(${t.merchant_id ?? ''})`.as('m'), (j) => j.onTrue())
    .select([
      'u.first_name',
      'u.last_name',
      'a.account_number',
      'r.bank_account as recipient_account',
      'm.bank_account as merchant_account',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return {
    senderName: [row?.first_name, row?.last_name].filter(Boolean).join(' ') || null,
    senderAccount: row?.account_number ?? null,
    // A remittance's account as it was paid (copied at insert, migration 20261201003000), whatever
    // the recipient was edited to since.
    recipientAccount:
      (t.type === 'remittance' ? (t.recipient_account ?? row?.recipient_account) : row?.merchant_account) ?? null,
  };
}

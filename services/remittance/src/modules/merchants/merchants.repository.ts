import { type Kysely, sql } from 'kysely';
import type { DB, Merchant } from '../../db/types.js';
import type { Role } from '../../lib/tokens.js';

/** Inserts the merchant; false when the user already is one or the org number is taken. */
export async function insertMerchant(
  db: Kysely<DB>,
  userId: string,
  row: { id: string; businessName: string; orgNumber: string; address: string | null; bankAccount: string },
): Promise<Merchant | undefined> {
  return db
    .insertInto('merchants')
    .values({
      id: row.id,
      user_id: userId,
      business_name: row.businessName,
      org_number: row.orgNumber,
      address: row.address,
      bank_account: row.bankAccount,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function setUserRole(db: Kysely<DB>, userId: string, role: Role): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', userId).execute();
}

/**
 * The merchant a QR code names, as a payer may see it: through payable_merchant() (owner-run, the
 * merchants table being private to its owner), which leaves out a merchant whose owner is erased.
 */
export async function findPayee(db: Kysely<DB>, merchantId: string) {
  const { rows } = await sql<{ id: string; user_id: string; business_name: string }>`
    SELECT m.id, m.user_id, m.business_name FROM payable_merchant(${merchantId}) m`.execute(db);
  return rows[0];
}

export async function findMerchantOfUser(db: Kysely<DB>, userId: string): Promise<Merchant | undefined> {
  return db.selectFrom('merchants').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export type Period = 'today' | 'week' | 'month';

/**
 * The dashboard's figures over completed QR payments to the merchant (R12), in Europe/Oslo time:
 * the period starts at the Oslo day, ISO week (Monday) or month; payouts are cut at 15:00 Oslo.
 */
export async function merchantFigures(db: Kysely<DB>, userId: string, merchantId: string, period: Period, now: Date) {
  const unit = period === 'today' ? 'day' : period;
  const { rows } = await sql<{ revenue: string; fees: string; count: string; next_payout: string; payout_time: Date }>`
    WITH clock AS (
      SELECT (${now}::timestamptz AT TIME ZONE 'Europe/Oslo') AS local_now
    ), bounds AS (
      SELECT (date_trunc(${unit}, local_now) AT TIME ZONE 'Europe/Oslo') AS period_start,
             (CASE WHEN local_now >= date_trunc('day', local_now) + interval '15 hours'
                   THEN date_trunc('day', local_now) + interval '15 hours'
                   ELSE date_trunc('day', local_now) - interval '9 hours' END) AS last_cut_local
      FROM clock
    )
    SELECT coalesce(sum(t.send_amount) FILTER (WHERE t.created_at >= b.period_start), 0) AS revenue,
           coalesce(sum(t.fee) FILTER (WHERE t.created_at >= b.period_start), 0) AS fees,
           count(*) FILTER (WHERE t.created_at >= b.period_start) AS count,
           coalesce(sum(t.send_amount) FILTER (WHERE t.created_at >= (b.last_cut_local AT TIME ZONE 'Europe/Oslo')), 0) AS next_payout,
           ((b.last_cut_local + interval '1 day') AT TIME ZONE 'Europe/Oslo') AS payout_time
    FROM bounds b
    LEFT JOIN transactions t
      ON t.merchant_id = ${merchantId} AND t.type = 'qr_payment' AND t.status = 'completed'
     AND t.created_at >= least(b.period_start, b.last_cut_local AT TIME ZONE 'Europe/Oslo')
     AND EXISTS (SELECT 1 FROM merchants m WHERE m.id = t.merchant_id AND m.user_id = ${userId})
    GROUP BY b.period_start, b.last_cut_local`.execute(db);
  return rows[0];
}

/**
 * QR payments received by the user's merchant, newest first, with the payer's name. The payments
 * are visible through the `payee` policy; the payer's name comes from qr_payer_name(), an
 * owner-run function that answers only the merchant that was paid (users rows stay private).
 */
export async function listMerchantPayments(db: Kysely<DB>, userId: string, limit: number, offset: number) {
  const base = db
    .selectFrom('transactions as t')
    .innerJoin('merchants as m', 'm.id', 't.merchant_id')
    .where('m.user_id', '=', userId)
    .where('t.type', '=', 'qr_payment');
  const rows = await base
    .leftJoinLateral(sql<{ first_name: string; last_name: string }>`qr_payer_name(t.id)`.as('u'), (j) => j.onTrue())
    .select(['t.id', 't.status', 't.send_amount', 't.fee', 't.created_at', 'u.first_name', 'u.last_name'])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

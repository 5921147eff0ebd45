import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB>;

export interface ChartAccount {
  id: string;
  code: string;
  name: string;
  account_type_id: number;
}

/** The organization's chart (a few hundred rows at most): what the reports classify by. */
export async function chart(db: Db, orgId: string): Promise<ChartAccount[]> {
  return db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'account_type_id'])
    .where('organization_id', '=', orgId)
    .orderBy('code')
    .execute();
}

/**
 * Unpaid invoices (sent, viewed, overdue) in base currency, bucketed by whole days since the
 * invoice date on `today` (A16 receivablesAging); an invoice dated after today counts as current.
 */
export async function receivables(db: Db, orgId: string, today: string) {
  const result = await sql<{
    total: string | null;
    current: string | null;
    days30: string | null;
    days60: string | null;
    days90plus: string | null;
  }>`
    SELECT sum(base_amount) AS total,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date <= 30) AS current,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date BETWEEN 31 AND 60) AS days30,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date BETWEEN 61 AND 90) AS days60,
           sum(base_amount) FILTER (WHERE ${today}::date - invoice_date > 90) AS days90plus
    FROM invoices
    WHERE organization_id = ${orgId}::uuid AND status IN ('sent', 'viewed', 'overdue')`.execute(db);
  return result.rows[0];
}

// Expenses and banking (issue 10) ------------------------------------------------------------------

/** The ledger accounts bank accounts are booked on (inactive bank accounts included: their history counts). */
export async function bankLedgerAccountIds(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('bank_accounts')
    .select('account_id')
    .distinct()
    .where('organization_id', '=', orgId)
    .execute();
  return rows.map((r) => r.account_id);
}

/** Approved and paid expenses dated in [from, to] per category: amount without VAT, base currency. */
export async function expensesByCategory(db: Db, orgId: string, from: string, to: string, decimals: number) {
  const result = await sql<{ category: string; amount: string }>`
    SELECT category, sum(round((amount - tax_amount) * exchange_rate, ${decimals}::int)) AS amount
    FROM expenses
    WHERE organization_id = ${orgId}::uuid AND status IN ('approved', 'paid') AND expense_date BETWEEN ${from}::date AND ${to}::date
    GROUP BY category
    ORDER BY amount DESC, category`.execute(db);
  return result.rows;
}

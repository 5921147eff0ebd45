import type pg from 'pg';

/**
 * After a bulk load of ledger_transactions, rebuilds from the postings of one organization what
 * the ledger-fold job maintains from their moves: the running totals (account_balances) and the
 * day and month sums by counter account (account_period_sums). The moves the load's trigger
 * appended are dropped in the same transaction (the rebuild counts their postings already).
 */
export async function rebuildLedgerTotals(client: pg.Client, orgId: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await rebuild(client, orgId);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

async function rebuild(client: pg.Client, orgId: string): Promise<void> {
  await client.query('DELETE FROM ledger_moves WHERE organization_id = $1', [orgId]);
  await client.query(
    `INSERT INTO account_balances (account_id, organization_id, debit_total, credit_total, posting_count)
     SELECT account_id, $1, sum(d), sum(c), count(*) FROM (
       SELECT debit_account_id AS account_id, base_amount AS d, 0::numeric AS c FROM ledger_transactions WHERE organization_id = $1
       UNION ALL SELECT credit_account_id, 0, base_amount FROM ledger_transactions WHERE organization_id = $1) m
     GROUP BY account_id
     ON CONFLICT (account_id) DO UPDATE SET debit_total = EXCLUDED.debit_total, credit_total = EXCLUDED.credit_total, posting_count = EXCLUDED.posting_count`,
    [orgId],
  );
  await client.query('DELETE FROM account_period_sums WHERE organization_id = $1', [orgId]);
  await client.query(
    `INSERT INTO account_period_sums (organization_id, grain, period_start, account_id, counter_account_id, debit_total, credit_total, posting_count)
     SELECT $1, g.grain, CASE g.grain WHEN 'day' THEN m.d ELSE date_trunc('month', m.d)::date END,
            m.account_id, m.counter_account_id, sum(m.debit), sum(m.credit), count(*)
     FROM (
       SELECT transaction_date AS d, debit_account_id AS account_id, credit_account_id AS counter_account_id, base_amount AS debit, 0::numeric AS credit
       FROM ledger_transactions WHERE organization_id = $1
       UNION ALL
       SELECT transaction_date, credit_account_id, debit_account_id, 0::numeric, base_amount FROM ledger_transactions WHERE organization_id = $1
     ) m CROSS JOIN (VALUES ('day'), ('month')) AS g (grain)
     GROUP BY 2, 3, 4, 5`,
    [orgId],
  );
}

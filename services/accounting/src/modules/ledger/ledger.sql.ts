/**
 * The ledger module's hand-written SQL: the statements tuned by hand where Kysely would cost a
 * measured share of the request or job (docs/perf/). Everything else in the module goes through
 * Kysely. test/hot-sql.test.ts runs the posting statement on a migrated database and holds what comes back to the
 * response schema of the route that serves it.
 */

/**
 * The day and month sums by counter account (account_period_sums, read by the reports) of the rows
 * of a CTE named `d` (organization_id, account_id, counter_account_id, transaction_date, debit,
 * credit, posting_count: the sides of ledger_moves rows), as an upsert CTE named `sums`. Rows are upserted
 * in key order, so two statements that take the same rows cannot deadlock.
 */
export const PERIOD_SUMS_CTE = `
    sums AS (
      INSERT INTO account_period_sums AS s
        (organization_id, grain, period_start, account_id, counter_account_id, debit_total, credit_total, posting_count)
      SELECT d.organization_id, g.grain,
             CASE g.grain WHEN 'day' THEN d.transaction_date ELSE date_trunc('month', d.transaction_date)::date END,
             d.account_id, d.counter_account_id, sum(d.debit), sum(d.credit), sum(d.posting_count)
      FROM d CROSS JOIN (VALUES ('day'), ('month')) AS g (grain)
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT (organization_id, grain, period_start, account_id, counter_account_id) DO UPDATE SET
        debit_total = s.debit_total + EXCLUDED.debit_total,
        credit_total = s.credit_total + EXCLUDED.credit_total,
        posting_count = s.posting_count + EXCLUDED.posting_count
      RETURNING 1
    )`;

/**
 * A posting's two sides, from the rows of a CTE named `gone` (ledger_moves rows: one per posting,
 * migration 20261202003100), as a CTE named `d`: the amount debited to the debit account against
 * the credit account, and credited to the credit account against the debit account.
 */
const SIDES_CTE = `
    d AS (
      SELECT g.organization_id, s.account_id, s.counter_account_id, g.transaction_date, s.debit, s.credit, g.posting_count
      FROM gone g CROSS JOIN LATERAL (VALUES (g.debit_account_id, g.credit_account_id, g.amount, 0::numeric),
                                             (g.credit_account_id, g.debit_account_id, 0::numeric, g.amount))
        AS s (account_id, counter_account_id, debit, credit)
    )`;

/**
 * Folds up to `limit` moves of ledger_moves (one per posting, appended by a trigger; migrations
 * 20261127000200, 20261202003100) into the running totals and the day and month sums, and deletes
 * them, in one statement: a reader sees each move once, in ledger_moves or in the totals. Moves
 * committed while it runs are not in its snapshot and wait for the next fold. Runs as the system
 * (every organization), one instance at a time (fold-job.ts). Answers the moves (postings) folded.
 */
export const FOLD_SQL = `
  WITH gone AS (
    DELETE FROM ledger_moves WHERE ctid = ANY (ARRAY(SELECT ctid FROM ledger_moves LIMIT $1))
    RETURNING organization_id, debit_account_id, credit_account_id, transaction_date, amount, posting_count
  ),${SIDES_CTE}, bal AS (
    INSERT INTO account_balances AS b (account_id, organization_id, debit_total, credit_total, posting_count)
    SELECT account_id, organization_id, sum(debit), sum(credit), sum(posting_count) FROM d
    GROUP BY account_id, organization_id ORDER BY account_id
    ON CONFLICT (account_id) DO UPDATE SET
      debit_total = b.debit_total + EXCLUDED.debit_total,
      credit_total = b.credit_total + EXCLUDED.credit_total,
      posting_count = b.posting_count + EXCLUDED.posting_count
    RETURNING 1
  ),${PERIOD_SUMS_CTE}
  SELECT count(*)::int AS moved FROM gone`;

/**
 * A manual entry in one statement: lock both accounts and the organization FOR KEY SHARE (a
 * concurrent deactivation or base-currency change either waits for this entry or is seen by it),
 * insert the posting only when both are active and the base currency is the one the amounts were
 * computed in (the table's trigger appends its moves for the totals); $13 is the journal entry's id
 * (reference_id) for a posting of a several-line entry, null for a lone one. One row per account found,
 * each carrying the posting when it was inserted: the caller tells a missing or inactive account
 * from the rows.
 */
export const MANUAL_POSTING_SQL = `
  WITH acc AS (
    SELECT a.id, a.code, a.name, a.is_active, o.base_currency
    FROM accounts a JOIN organizations o ON o.id = a.organization_id
    WHERE a.organization_id = $1 AND a.id IN ($2, $3)
    FOR KEY SHARE
  ), ins AS (
    INSERT INTO ledger_transactions (organization_id, transaction_date, description, notes, debit_account_id, credit_account_id,
      amount, currency_code, exchange_rate, base_amount, reference_type, reference_id, locked, created_by)
    SELECT $1, $4::date, $5, $6, $2, $3, $7::numeric, $8, $9::numeric, $10::numeric, 'manual', $13::uuid, false, $11::uuid
    WHERE (SELECT count(*) FROM acc WHERE is_active AND base_currency = $12) = 2
    RETURNING *
  )
  SELECT json_build_object('account_id', acc.id, 'account_code', acc.code, 'account_name', acc.name, 'account_active', acc.is_active,
    'account_base_currency', acc.base_currency,
    'posting', CASE WHEN ins.id IS NOT NULL THEN json_build_object('id', ins.id, 'organization_id', ins.organization_id,
      'transaction_date', ins.transaction_date, 'description', ins.description, 'notes', ins.notes,
      'debit_account_id', ins.debit_account_id, 'credit_account_id', ins.credit_account_id, 'amount', ins.amount::text,
      'currency_code', ins.currency_code, 'exchange_rate', ins.exchange_rate::text, 'base_amount', ins.base_amount::text,
      'reference_type', ins.reference_type, 'reference_id', ins.reference_id, 'reversal_of', ins.reversal_of, 'locked', ins.locked,
      'reconciled', ins.reconciled, 'created_by', ins.created_by,
      'created_at', to_char(ins.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END) AS row
  FROM acc LEFT JOIN ins ON true`;

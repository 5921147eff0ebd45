-- Reports (issue 12): per-account, per-counter-account sums by day and by month, maintained in the
-- same statement as every posting (ledger.repository.ts withBalances), so a report over any date
-- range reads at most the months inside it plus the days at its two edges, whatever the size of
-- the ledger. See docs/accounting/reports.md.
--
-- One row = the base-currency debits and credits that `account_id` received in postings whose
-- other side is `counter_account_id`, dated in the day (grain 'day') or the calendar month
-- (grain 'month', period_start = the 1st) starting at period_start. Every posting adds to four
-- rows: its debit account and its credit account, each by day and by month. Keeping the other
-- side of the posting is what lets the cash-flow report classify movements by counter account.
CREATE TABLE account_period_sums (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  grain text NOT NULL CHECK (grain IN ('day', 'month')),
  period_start date NOT NULL,
  account_id uuid NOT NULL,
  counter_account_id uuid NOT NULL,
  debit_total numeric(20, 4) NOT NULL DEFAULT 0,
  credit_total numeric(20, 4) NOT NULL DEFAULT 0,
  posting_count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, grain, period_start, account_id, counter_account_id),
  CHECK (grain = 'day' OR extract(day FROM period_start) = 1),
  FOREIGN KEY (organization_id, account_id) REFERENCES accounts (organization_id, id),
  FOREIGN KEY (organization_id, counter_account_id) REFERENCES accounts (organization_id, id)
);

-- Derived from postings, like account_balances: not audited (every posting that moves it is),
-- and visible only to its organization.
ALTER TABLE account_period_sums ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON account_period_sums USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());

-- Backfill from the postings that exist already.
INSERT INTO account_period_sums (organization_id, grain, period_start, account_id, counter_account_id, debit_total, credit_total, posting_count)
SELECT organization_id, g.grain,
       CASE g.grain WHEN 'day' THEN m.transaction_date ELSE date_trunc('month', m.transaction_date)::date END,
       m.account_id, m.counter_account_id, sum(m.debit), sum(m.credit), count(*)
FROM (
  SELECT organization_id, transaction_date, debit_account_id AS account_id, credit_account_id AS counter_account_id,
         base_amount AS debit, 0::numeric AS credit
  FROM ledger_transactions
  UNION ALL
  SELECT organization_id, transaction_date, credit_account_id, debit_account_id, 0::numeric, base_amount
  FROM ledger_transactions
) m
CROSS JOIN (VALUES ('day'), ('month')) AS g (grain)
GROUP BY 1, 2, 3, 4, 5;

-- Issue 31: one ledger_moves row per posting instead of one per side. Both sides of a posting are
-- the same amount on its two accounts, so one row (debit account, credit account, amount) says
-- what the two said; the fold job and the readers spell it out into its two sides (ledger.sql.ts
-- FOLD_SQL, ledger.repository.ts periodSums, accounts.repository.ts). Each posting wrote two rows
-- and the fold deleted two: now one and one (WAL per posting in BENCHMARKS.md).
--
-- The moves pending now are folded first (FOLD_SQL as it stood, every move at once), then the
-- table is made again in its new shape, empty.
WITH d AS (
  DELETE FROM ledger_moves
  RETURNING organization_id, account_id, counter_account_id, transaction_date, debit, credit, posting_count
), bal AS (
  INSERT INTO account_balances AS b (account_id, organization_id, debit_total, credit_total, posting_count)
  SELECT account_id, organization_id, sum(debit), sum(credit), sum(posting_count) FROM d
  GROUP BY account_id, organization_id ORDER BY account_id
  ON CONFLICT (account_id) DO UPDATE SET
    debit_total = b.debit_total + EXCLUDED.debit_total,
    credit_total = b.credit_total + EXCLUDED.credit_total,
    posting_count = b.posting_count + EXCLUDED.posting_count
  RETURNING 1
), sums AS (
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
)
SELECT count(*) FROM d;

DROP TRIGGER ledger_moves_insert ON ledger_transactions;
DROP TRIGGER ledger_moves_update ON ledger_transactions;
DROP TRIGGER ledger_moves_delete ON ledger_transactions;
DROP FUNCTION ledger_moves_insert();
DROP FUNCTION ledger_moves_change();
DROP TABLE ledger_moves;

CREATE TABLE ledger_moves (
  organization_id uuid NOT NULL,
  debit_account_id uuid NOT NULL,
  credit_account_id uuid NOT NULL,
  transaction_date date NOT NULL,
  -- The posting's base amount: debited to the first account, credited to the second. Negative for
  -- a posting taken back (deleted or changed by hand).
  amount numeric(20, 4) NOT NULL,
  -- 1 for a posting, -1 for one taken back.
  posting_count integer NOT NULL
);
-- No index: the table holds about a second of postings (migration 20261202003000).
ALTER TABLE ledger_moves SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 5000);
ALTER TABLE ledger_moves ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON ledger_moves USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());
REVOKE ALL ON ledger_moves FROM accounting_app;
GRANT SELECT ON ledger_moves TO accounting_app;

CREATE FUNCTION ledger_moves_insert() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO ledger_moves (organization_id, debit_account_id, credit_account_id, transaction_date, amount, posting_count)
  SELECT n.organization_id, n.debit_account_id, n.credit_account_id, n.transaction_date, n.base_amount, 1 FROM new_rows n;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_moves_insert AFTER INSERT ON ledger_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_moves_insert();

CREATE FUNCTION ledger_moves_change() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO ledger_moves (organization_id, debit_account_id, credit_account_id, transaction_date, amount, posting_count)
  VALUES (OLD.organization_id, OLD.debit_account_id, OLD.credit_account_id, OLD.transaction_date, -OLD.base_amount, -1);
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO ledger_moves (organization_id, debit_account_id, credit_account_id, transaction_date, amount, posting_count)
    VALUES (NEW.organization_id, NEW.debit_account_id, NEW.credit_account_id, NEW.transaction_date, NEW.base_amount, 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_moves_update AFTER UPDATE OF organization_id, transaction_date, debit_account_id, credit_account_id, base_amount
  ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_moves_change();
CREATE TRIGGER ledger_moves_delete AFTER DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_moves_change();

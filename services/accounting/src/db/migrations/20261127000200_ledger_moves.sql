-- Issue 9: a posting no longer updates the running totals (account_balances) and the day and month
-- sums (account_period_sums) itself. Those rows are shared by every posting of an organization to
-- the same accounts on the same day: with one busy organization every posting waited for the one
-- before it to commit, and the updates of the same few rows, each a new row version with a new
-- entry in the sums' covering key, cost more than the posting (PostgreSQL CPU per posting at 10
-- concurrent connections: 1,400-2,000 us with the upserts, 500-600 us without; docs/perf/hot-paths.md,
-- "Hot paths: where the rest goes", 2026-11-27).
--
-- Instead every posting's two sides are appended to ledger_moves, by a trigger (no posting path can
-- forget them), and a job folds the moves into the totals and sums (ledger.repository.ts
-- foldLedgerMoves, every second, one instance at a time): one statement deletes the moves it
-- sees and adds them to the totals, so a reader sees each move exactly once, either in ledger_moves
-- or in the totals, never both and never neither. Every reader of the totals adds the moves not yet
-- folded (ledger.repository.ts periodSums, accounts.repository.ts), so a posting counts in every
-- figure as soon as it commits, as before.
CREATE TABLE ledger_moves (
  organization_id uuid NOT NULL,
  account_id uuid NOT NULL,
  counter_account_id uuid NOT NULL,
  transaction_date date NOT NULL,
  debit numeric(20, 4) NOT NULL,
  credit numeric(20, 4) NOT NULL,
  -- 1 for a posting's side, -1 for one taken back (a posting deleted or changed by hand).
  posting_count integer NOT NULL
);
CREATE INDEX ledger_moves_org_date ON ledger_moves (organization_id, transaction_date);
-- Rows live about a second: vacuum it by the number of dead rows, not by a share of a small table.
ALTER TABLE ledger_moves SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 5000);

-- Derived from postings, like the totals: not audited, and visible only to its organization.
ALTER TABLE ledger_moves ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON ledger_moves USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());
GRANT SELECT ON ledger_moves TO accounting_app;

-- New postings: both sides, set-based, once per statement. Runs as the owner (SECURITY DEFINER,
-- like the audit trigger), so the app role needs no write grant on the moves.
CREATE FUNCTION ledger_moves_insert() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO ledger_moves (organization_id, account_id, counter_account_id, transaction_date, debit, credit, posting_count)
  SELECT n.organization_id, m.account_id, m.counter_account_id, n.transaction_date, m.debit, m.credit, 1
  FROM new_rows n
  CROSS JOIN LATERAL (VALUES (n.debit_account_id, n.credit_account_id, n.base_amount, 0::numeric),
                             (n.credit_account_id, n.debit_account_id, 0::numeric, n.base_amount)) AS m (account_id, counter_account_id, debit, credit);
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_moves_insert AFTER INSERT ON ledger_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_moves_insert();

-- The API never changes a posting's amounts, accounts or date, nor deletes one (corrections are
-- reversals), but if anything does, the totals follow: the old sides are taken back and the new
-- ones added.
CREATE FUNCTION ledger_moves_change() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO ledger_moves (organization_id, account_id, counter_account_id, transaction_date, debit, credit, posting_count)
  VALUES (OLD.organization_id, OLD.debit_account_id, OLD.credit_account_id, OLD.transaction_date, -OLD.base_amount, 0, -1),
         (OLD.organization_id, OLD.credit_account_id, OLD.debit_account_id, OLD.transaction_date, 0, -OLD.base_amount, -1);
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO ledger_moves (organization_id, account_id, counter_account_id, transaction_date, debit, credit, posting_count)
    VALUES (NEW.organization_id, NEW.debit_account_id, NEW.credit_account_id, NEW.transaction_date, NEW.base_amount, 0, 1),
           (NEW.organization_id, NEW.credit_account_id, NEW.debit_account_id, NEW.transaction_date, 0, NEW.base_amount, 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_moves_update AFTER UPDATE OF organization_id, transaction_date, debit_account_id, credit_account_id, base_amount
  ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_moves_change();
CREATE TRIGGER ledger_moves_delete AFTER DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_moves_change();


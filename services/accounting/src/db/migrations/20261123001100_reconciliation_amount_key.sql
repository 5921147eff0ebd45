-- Reconciliation candidates (A15) are read by amount under row-level security. PostgreSQL only
-- uses a condition as an index condition ahead of an RLS policy when its operator is leakproof,
-- and numeric equality is not (text equality is). amount_key is the posting amount as text at the
-- column's fixed scale ("500.0000"), so "same amount" becomes a leakproof text comparison that the
-- partial indexes can answer; the amounts are compared exactly again when a pair is scored.
ALTER TABLE ledger_transactions ADD COLUMN amount_key text GENERATED ALWAYS AS (amount::text) STORED;

DROP INDEX ledger_transactions_debit_open;
DROP INDEX ledger_transactions_credit_open;
CREATE INDEX ledger_transactions_debit_open ON ledger_transactions (debit_account_id, amount_key) WHERE NOT reconciled;
CREATE INDEX ledger_transactions_credit_open ON ledger_transactions (credit_account_id, amount_key) WHERE NOT reconciled;

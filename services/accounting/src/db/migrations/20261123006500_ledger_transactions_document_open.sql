-- Reconciliation suggestions (A15) without the amount rule: a posting reaches the threshold of 50
-- through its date and a reference match, and apart from "the posting's description contains the
-- bank reference" (same day only, see banking.repository.ts) every such match goes through the
-- number of the posting's invoice or expense. EXPLAIN (ANALYZE, BUFFERS) of the suggestions query
-- on the bench database (20 lines, 100,000 postings on the ledger account, about 110 a day) showed
-- that branch reading every posting of the line's day (or week) on the account through the
-- (debit/credit account, date) indexes and fetching each from the heap, only to find no document:
-- 2,220 heap rows and 2,300 buffers per page, two thirds of the query's time. These partial indexes
-- hold only the open postings that belong to a document, so that branch reads those alone.
CREATE INDEX ledger_transactions_debit_document_open ON ledger_transactions (debit_account_id, transaction_date)
  WHERE NOT reconciled AND reference_type IN ('invoice', 'expense', 'payment');
CREATE INDEX ledger_transactions_credit_document_open ON ledger_transactions (credit_account_id, transaction_date)
  WHERE NOT reconciled AND reference_type IN ('invoice', 'expense', 'payment');

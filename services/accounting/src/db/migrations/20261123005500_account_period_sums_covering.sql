-- Reports (issue 12, performance): the primary key of account_period_sums also carries the
-- figures, so a report's range reads (one per month range and edge days, UNION ALL in
-- ledger.repository.ts periodSums) are index-only scans of consecutive index entries instead of
-- one heap page per row (sums rows of a period are scattered over the heap: rows are added as
-- postings arrive and updated in place). One index as before, so a posting still updates one
-- index entry per sums row. A lower autovacuum threshold keeps the visibility map (what lets an
-- index-only scan skip the heap) current on this busily updated table. See docs/accounting/reports.md.
ALTER TABLE account_period_sums DROP CONSTRAINT account_period_sums_pkey;
ALTER TABLE account_period_sums
  ADD CONSTRAINT account_period_sums_pkey PRIMARY KEY (organization_id, grain, period_start, account_id, counter_account_id)
  INCLUDE (debit_total, credit_total, posting_count);
ALTER TABLE account_period_sums SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);

-- Issue 31: less WAL per posting, every reader and every audit guarantee kept. Measured with
-- `npm run bench -- wal` (pg_walinspect, bytes per request by relation; BENCHMARKS.md).
--
-- 1. ledger_transactions_reference held an entry for every posting, but every query that reads it
--    names a reference_id (ledger.repository.ts byReference: reference_type = $1 AND
--    reference_id = $2, the reversal of a document's postings; banking's suggestions join on
--    reference_id): manual postings (reference_id null) are never looked up through it. Partial.
DROP INDEX ledger_transactions_reference;
CREATE INDEX ledger_transactions_reference ON ledger_transactions (organization_id, reference_type, reference_id)
  WHERE reference_id IS NOT NULL;

-- 2. logged_actions_pkey: no query reads an audit row by its id (the audit API reads by
--    organization and date, ordered by created_at and id, through logged_actions_org_created, and
--    by record id). The id stays unique: it comes only from the table's sequence, and only the
--    audit triggers (running as the owner) insert; the restricted role can neither insert nor
--    change a row. The column keeps NOT NULL and its default.
ALTER TABLE logged_actions DROP CONSTRAINT logged_actions_pkey;

-- 3. The history of one record (GET /audit-log?recordId=, tests counting a record's rows) is read
--    by record id alone or with the organization: a hash index on record_id answers both (record
--    ids are uuids, unique across organizations; the organization is checked on the few rows
--    found) with an entry of a 4-byte hash instead of the organization and the 36-character id.
DROP INDEX logged_actions_org_record;
CREATE INDEX logged_actions_record ON logged_actions USING hash (record_id);

-- 4. Audit values leave out derived columns as they leave out secrets: ledger_transactions.amount_key
--    is the amount as text (a generated column, migration 20261123001100), recomputed from the
--    amount the row already records.
CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  old_rec jsonb;
  new_rec jsonb;
  org_col text := COALESCE(TG_ARGV[0], 'organization_id');
  hidden text[] := ARRAY['password_hash', 'two_factor_secret', 'token_hash', 'amount_key'];
  org_id uuid;
  rec_id text;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_rec := to_jsonb(OLD) - hidden; END IF;
  IF TG_OP <> 'DELETE' THEN new_rec := to_jsonb(NEW) - hidden; END IF;
  org_id := COALESCE(new_rec ->> org_col, old_rec ->> org_col)::uuid;
  rec_id := COALESCE(new_rec ->> 'id', old_rec ->> 'id');
  IF TG_OP = 'UPDATE' THEN
    SELECT COALESCE(jsonb_object_agg(n.key, o.value), '{}'), COALESCE(jsonb_object_agg(n.key, n.value), '{}')
      INTO old_rec, new_rec
      FROM jsonb_each(new_rec) n JOIN jsonb_each(old_rec) o USING (key)
      WHERE n.value IS DISTINCT FROM o.value;
  ELSE
    old_rec := jsonb_strip_nulls(old_rec - ARRAY['id', org_col]);
    new_rec := jsonb_strip_nulls(new_rec - ARRAY['id', org_col]);
  END IF;
  INSERT INTO logged_actions (organization_id, table_name, action, record_id, user_id, request_id, old_values, new_values)
  VALUES (
    org_id,
    TG_TABLE_NAME,
    TG_OP,
    rec_id,
    NULLIF(current_setting('app.user_id', true), '')::uuid,
    NULLIF(current_setting('app.request_id', true), ''),
    old_rec,
    new_rec
  );
  RETURN NULL;
END $$;

-- 5. ledger_moves_org_date: ledger_moves holds the moves of about the last second (the fold job
--    deletes them every second, migration 20261127000200) and is vacuumed every 5,000 dead rows,
--    so it stays a few pages: its readers (accounts.repository.ts accountsWithBalances,
--    ledger.repository.ts periodSums) read it by a sequential scan of those pages (EXPLAIN with
--    1,000 pending moves: Seq Scan, 14 pages), and the index cost two entries per posting.
DROP INDEX ledger_moves_org_date;

-- Issue 31: an invoice's lines are written and replaced all at once (the numbered insert writes every
-- line in one statement, a draft's PUT deletes them all and inserts the new ones), but audit_row() ran
-- once per line: a PL/pgSQL call as the owner, a shape look-up and an INSERT each. On a 10,000-row
-- insert (psql, 2026-11-28) that was ~85 us a line against ~30 us for one statement-level trigger
-- writing all the lines' audit rows with one INSERT ... SELECT, as bank statement lines already were
-- (20261123001200). A line's insert and delete are now audited per statement, its update still per row.
--
-- audit_statement_rows() is the statement-level audit of inserts and deletes for any table (it replaces
-- audit_inserted_rows(), which did inserts only). Each branch names its transition table in static SQL:
-- PL/pgSQL keeps the plans of static statements, while EXECUTE plans its text at every call (psql,
-- 3,000 one-row inserts: ~48 us a statement static, ~183 us through EXECUTE). The values keep their
-- nulls in place (one shape per statement); logged_actions reads an insert or a delete without its
-- nulls, so the audit reads exactly as the per-row trigger wrote it.
CREATE FUNCTION audit_statement_rows() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  hidden text[] := ARRAY['id', 'organization_id', 'password_hash', 'two_factor_secret', 'token_hash', 'amount_key'];
  cols text[];
  sid bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT ARRAY(SELECT jsonb_object_keys(to_jsonb(r) - hidden)) INTO cols FROM new_rows r LIMIT 1;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT ARRAY(SELECT jsonb_object_keys(to_jsonb(r) - hidden)) INTO cols FROM old_rows r LIMIT 1;
  ELSE
    RAISE EXCEPTION 'audit_statement_rows() audits inserts and deletes, not %', TG_OP;
  END IF;
  IF cols IS NULL THEN RETURN NULL; END IF;
  sid := audit_shape(TG_TABLE_NAME, cols);
  IF TG_OP = 'INSERT' THEN
    INSERT INTO audit_rows (organization_id, shape_id, action, record_id, user_id, request_id, old_values, new_values)
    SELECT r.organization_id, sid, 'INSERT', r.id::text, NULLIF(current_setting('app.user_id', true), '')::uuid,
           NULLIF(current_setting('app.request_id', true), ''), NULL, jsonb_path_query_array(to_jsonb(r) - hidden, '$.*')
      FROM new_rows r;
  ELSE
    INSERT INTO audit_rows (organization_id, shape_id, action, record_id, user_id, request_id, old_values, new_values)
    SELECT r.organization_id, sid, 'DELETE', r.id::text, NULLIF(current_setting('app.user_id', true), '')::uuid,
           NULLIF(current_setting('app.request_id', true), ''), jsonb_path_query_array(to_jsonb(r) - hidden, '$.*'), NULL
      FROM old_rows r;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER audit_insert ON bank_transactions;
CREATE TRIGGER audit_insert AFTER INSERT ON bank_transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_statement_rows();
DROP FUNCTION audit_inserted_rows();

DROP TRIGGER audit ON invoice_items;
CREATE TRIGGER audit AFTER UPDATE ON invoice_items FOR EACH ROW EXECUTE FUNCTION audit_row();
CREATE TRIGGER audit_insert AFTER INSERT ON invoice_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_statement_rows();
CREATE TRIGGER audit_delete AFTER DELETE ON invoice_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_statement_rows();

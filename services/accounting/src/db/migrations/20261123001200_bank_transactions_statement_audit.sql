-- A statement import inserts tens of thousands of bank lines in one transaction; the per-row audit
-- trigger (one PL/pgSQL call and one INSERT per row) tripled its time. For inserts into
-- bank_transactions the audit rows are written by one statement-level trigger over the transition
-- table instead: the same logged_actions rows (table, action, record id, organization, user,
-- request id, new values), in the same transaction, still written by the database so no code path
-- can skip them (A20). Updates and deletes keep the per-row trigger.
CREATE FUNCTION audit_inserted_rows() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO logged_actions (organization_id, table_name, action, record_id, user_id, request_id, old_values, new_values)
  SELECT n.organization_id, TG_TABLE_NAME, 'INSERT', n.id::text,
         NULLIF(current_setting('app.user_id', true), '')::uuid,
         NULLIF(current_setting('app.request_id', true), ''),
         NULL, to_jsonb(n)
  FROM new_rows n;
  RETURN NULL;
END $$;

DROP TRIGGER audit ON bank_transactions;
CREATE TRIGGER audit AFTER UPDATE OR DELETE ON bank_transactions FOR EACH ROW EXECUTE FUNCTION audit_row();
CREATE TRIGGER audit_insert AFTER INSERT ON bank_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION audit_inserted_rows();

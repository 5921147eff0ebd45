-- Audit rows no larger than they need be (issue 31), every guarantee of A20 kept: each insert,
-- update and delete still writes its logged_actions row in the same transaction, by the database.
-- What is no longer written twice:
--  - the record id and the organization id, which have columns of their own in the audit row, are
--    left out of the values;
--  - an inserted or deleted row's values leave out its null columns (a column absent from the JSON
--    was null);
--  - an update records the columns it changed: their old values and their new values (a change to
--    null is kept, as JSON null). The unchanged columns are in the record's earlier audit rows, from
--    its INSERT on. An update that changes nothing still writes its row, with two empty objects.
-- Secrets (password hashes, 2FA secrets, token hashes) still never reach the log.
CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  old_rec jsonb;
  new_rec jsonb;
  org_col text := COALESCE(TG_ARGV[0], 'organization_id');
  hidden text[] := ARRAY['password_hash', 'two_factor_secret', 'token_hash'];
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

CREATE OR REPLACE FUNCTION audit_inserted_rows() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO logged_actions (organization_id, table_name, action, record_id, user_id, request_id, old_values, new_values)
  SELECT n.organization_id, TG_TABLE_NAME, 'INSERT', n.id::text,
         NULLIF(current_setting('app.user_id', true), '')::uuid,
         NULLIF(current_setting('app.request_id', true), ''),
         NULL, jsonb_strip_nulls(to_jsonb(n) - ARRAY['id', 'organization_id', 'password_hash', 'two_factor_secret', 'token_hash'])
  FROM new_rows n;
  RETURN NULL;
END $$;

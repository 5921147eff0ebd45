-- Issue 31: audit rows without their column names, every guarantee of A20 kept. An audit row held its
-- values as a JSON object, so each row repeated the names of the columns it recorded: for a posting
-- 13 names, some 200 of the row's 660 bytes (pg_column_size of new_values: 468 as an object, 260 as
-- an array). Now:
--  - audit_shapes holds each list of column names once: the table and the columns an audit row
--    records, in the order of jsonb's keys. Its id is a hash of the table and the list (53 bits, exact
--    as a JavaScript number), so a
--    trigger knows it without a look-up; a shape is written the first time it is seen (in the
--    writing transaction, so it commits or rolls back with the row that needs it), and a hash that
--    met another list raises instead of naming the wrong columns.
--  - audit_rows (the former logged_actions table: same rows, same triggers, same transaction, same
--    row-level security) holds the shape's id in place of the table name, and the values as JSON
--    arrays in the shape's order: new values (insert, update), old values (update, delete). Which
--    values are recorded is unchanged (migration 20261130009000): an insert or delete leaves out
--    nulls, ids and secrets; an update records the columns it changed, old and new.
--  - logged_actions is now a view with the same columns as before (table name, old and new values
--    as JSON objects with their column names), read with the reader's own rights and row-level
--    security (security_invoker): the audit API and every SQL reader read it as they did.
-- Names are those of the time of writing, as they were in the objects: a column renamed or dropped
-- later does not change what an audit row says.

CREATE TABLE audit_shapes (
  id bigint PRIMARY KEY,
  table_name text NOT NULL,
  columns text[] NOT NULL
);
REVOKE INSERT, UPDATE, DELETE ON audit_shapes FROM accounting_app;
GRANT SELECT ON audit_shapes TO accounting_app;

CREATE FUNCTION audit_shape_id(t text, cols text[]) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT hashtextextended(t || cols::text, 31) & 9007199254740991
$$;

-- The shape's id, written the first time it is seen.
CREATE FUNCTION audit_shape(t text, cols text[]) RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  sid bigint := audit_shape_id(t, cols);
BEGIN
  PERFORM 1 FROM audit_shapes WHERE id = sid AND table_name = t AND columns = cols;
  IF FOUND THEN RETURN sid; END IF;
  INSERT INTO audit_shapes (id, table_name, columns) VALUES (sid, t, cols) ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    -- Another transaction wrote this id first (the insert waited for it to end): the same list, or
    -- a hash collision, which must not mislabel values.
    PERFORM 1 FROM audit_shapes WHERE id = sid AND table_name = t AND columns = cols;
    IF NOT FOUND THEN RAISE EXCEPTION 'audit shape % of % is taken by another column list', sid, t; END IF;
  END IF;
  RETURN sid;
END $$;
-- Only the triggers (running as the owner) write shapes.
REVOKE EXECUTE ON FUNCTION audit_shape(text, text[]) FROM PUBLIC;

-- A JSON array of values in the shape's order back to an object (null stays null).
CREATE FUNCTION audit_values(cols text[], vals jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN vals IS NULL THEN NULL
    ELSE COALESCE((SELECT jsonb_object_agg(c, vals -> (i::int - 1)) FROM unnest(cols) WITH ORDINALITY AS u(c, i)), '{}')
  END
$$;

-- The rows recorded so far, in the new form.
ALTER TABLE logged_actions RENAME TO audit_rows;
ALTER SEQUENCE logged_actions_id_seq RENAME TO audit_rows_id_seq;
ALTER INDEX logged_actions_org_created RENAME TO audit_rows_org_created;
ALTER INDEX logged_actions_record RENAME TO audit_rows_record;
ALTER TABLE audit_rows RENAME CONSTRAINT logged_actions_action_check TO audit_rows_action_check;
ALTER TABLE audit_rows ADD COLUMN shape_id bigint;

UPDATE audit_rows
   SET shape_id = audit_shape_id(table_name, ARRAY(SELECT jsonb_object_keys(COALESCE(new_values, old_values, '{}'))));
INSERT INTO audit_shapes (id, table_name, columns)
  SELECT DISTINCT ON (shape_id) shape_id, table_name, ARRAY(SELECT jsonb_object_keys(COALESCE(new_values, old_values, '{}')))
    FROM audit_rows
   ORDER BY shape_id;
UPDATE audit_rows a
   SET old_values = CASE WHEN a.old_values IS NULL THEN NULL
         ELSE COALESCE((SELECT jsonb_agg(a.old_values -> c ORDER BY i) FROM unnest(s.columns) WITH ORDINALITY AS u(c, i)), '[]') END,
       new_values = CASE WHEN a.new_values IS NULL THEN NULL
         ELSE COALESCE((SELECT jsonb_agg(a.new_values -> c ORDER BY i) FROM unnest(s.columns) WITH ORDINALITY AS u(c, i)), '[]') END
  FROM audit_shapes s
 WHERE s.id = a.shape_id;
ALTER TABLE audit_rows ALTER COLUMN shape_id SET NOT NULL;
ALTER TABLE audit_rows DROP COLUMN table_name;

CREATE VIEW logged_actions WITH (security_invoker = true) AS
  SELECT a.id, a.organization_id, s.table_name, a.action, a.record_id, a.user_id, a.request_id,
         -- An update's change to null is kept; an insert or delete reads without its nulls.
         CASE WHEN a.action = 'UPDATE' THEN audit_values(s.columns, a.old_values)
           ELSE jsonb_strip_nulls(audit_values(s.columns, a.old_values)) END AS old_values,
         CASE WHEN a.action = 'UPDATE' THEN audit_values(s.columns, a.new_values)
           ELSE jsonb_strip_nulls(audit_values(s.columns, a.new_values)) END AS new_values,
         a.created_at
    FROM audit_rows a
    -- Every row has its shape (written before it, in its transaction); LEFT lets the planner leave
    -- the join out where no shape column is read (the audit API's count: an index-only scan).
    LEFT JOIN audit_shapes s ON s.id = a.shape_id;
GRANT SELECT ON logged_actions TO accounting_app;
-- npm run db:types types a view's column as not null when its comment starts with "not null".
COMMENT ON COLUMN logged_actions.id IS 'not null';
COMMENT ON COLUMN logged_actions.organization_id IS 'not null';
COMMENT ON COLUMN logged_actions.table_name IS 'not null';
COMMENT ON COLUMN logged_actions.action IS 'not null';
COMMENT ON COLUMN logged_actions.created_at IS 'not null';

CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  old_rec jsonb;
  new_rec jsonb;
  org_col text := COALESCE(TG_ARGV[0], 'organization_id');
  hidden text[] := ARRAY['password_hash', 'two_factor_secret', 'token_hash', 'amount_key'];
  org_id uuid;
  rec_id text;
  cols text[];
  sid bigint;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_rec := to_jsonb(OLD) - hidden; END IF;
  IF TG_OP <> 'DELETE' THEN new_rec := to_jsonb(NEW) - hidden; END IF;
  org_id := COALESCE(new_rec ->> org_col, old_rec ->> org_col)::uuid;
  rec_id := COALESCE(new_rec ->> 'id', old_rec ->> 'id');
  IF TG_OP = 'UPDATE' THEN
    -- Old and new values of the changed columns: two objects with the same keys, so the same order.
    SELECT COALESCE(jsonb_object_agg(n.key, o.value), '{}'), COALESCE(jsonb_object_agg(n.key, n.value), '{}')
      INTO old_rec, new_rec
      FROM jsonb_each(new_rec) n JOIN jsonb_each(old_rec) o USING (key)
      WHERE n.value IS DISTINCT FROM o.value;
  ELSE
    old_rec := jsonb_strip_nulls(old_rec - ARRAY['id', org_col]);
    new_rec := jsonb_strip_nulls(new_rec - ARRAY['id', org_col]);
  END IF;
  cols := ARRAY(SELECT jsonb_object_keys(COALESCE(new_rec, old_rec)));
  -- audit_shape(), written out: a call of it cost as much again as the look-up (psql, 20,000 rows).
  sid := audit_shape_id(TG_TABLE_NAME, cols);
  PERFORM 1 FROM audit_shapes WHERE id = sid AND table_name = TG_TABLE_NAME AND columns = cols;
  IF NOT FOUND THEN sid := audit_shape(TG_TABLE_NAME, cols); END IF;
  INSERT INTO audit_rows (organization_id, shape_id, action, record_id, user_id, request_id, old_values, new_values)
  VALUES (
    org_id,
    sid,
    TG_OP,
    rec_id,
    NULLIF(current_setting('app.user_id', true), '')::uuid,
    NULLIF(current_setting('app.request_id', true), ''),
    jsonb_path_query_array(old_rec, '$.*'),
    jsonb_path_query_array(new_rec, '$.*')
  );
  RETURN NULL;
END $$;

-- Bank statement imports (migration 20261123001200): one statement for all the inserted lines. Their
-- values are recorded with their nulls, so that every line of the statement has the one shape of
-- its table's columns (a shape per line's null columns cost a look-up per line: an 80,000-line
-- import took a second longer); logged_actions leaves an insert's or a delete's nulls out, so they
-- read as before.
CREATE OR REPLACE FUNCTION audit_inserted_rows() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  hidden text[] := ARRAY['id', 'organization_id', 'password_hash', 'two_factor_secret', 'token_hash', 'amount_key'];
  cols text[];
  sid bigint;
BEGIN
  SELECT ARRAY(SELECT jsonb_object_keys(to_jsonb(n) - hidden)) INTO cols FROM new_rows n LIMIT 1;
  IF cols IS NULL THEN RETURN NULL; END IF;
  sid := audit_shape(TG_TABLE_NAME, cols);
  INSERT INTO audit_rows (organization_id, shape_id, action, record_id, user_id, request_id, old_values, new_values)
  SELECT n.organization_id, sid, 'INSERT', n.id::text,
         NULLIF(current_setting('app.user_id', true), '')::uuid,
         NULLIF(current_setting('app.request_id', true), ''),
         NULL, jsonb_path_query_array(to_jsonb(n) - hidden, '$.*')
    FROM new_rows n;
  RETURN NULL;
END $$;

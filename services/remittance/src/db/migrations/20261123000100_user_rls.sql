-- Row-level security for user-owned rows (issue 15): the second wall under the user id that
-- every repository query filters by. Requests run as the role remittance_app (not superuser,
-- not owner, no BYPASSRLS) with the session setting app.user_id; each user-owned table has the
-- policy `owner`, user_id = app_user_id(). The login role owns the tables and stays outside
-- RLS: migrations, the session look-up by token hash, eID sign-in look-ups and background jobs.
DO $$ BEGIN
  CREATE ROLE remittance_app NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
DO $$ BEGIN
  EXECUTE format('GRANT remittance_app TO %I', current_user);
EXCEPTION WHEN others THEN NULL;
END $$;
GRANT USAGE ON SCHEMA public TO remittance_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO remittance_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO remittance_app;
-- Tables created by later migrations get the same grants; they still need their policy.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO remittance_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO remittance_app;

-- The user the current connection acts for ('' or unset: none, so no owned row is visible).
CREATE FUNCTION app_user_id() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT NULLIF(current_setting('app.user_id', true), '')
$$;

-- A new user-owned table gets its policy with one call: SELECT enable_user_rls('recipients');
-- (the table must have a user_id column referencing users).
CREATE FUNCTION enable_user_rls(tbl regclass, owner_column text DEFAULT 'user_id') RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('CREATE POLICY owner ON %s USING (%I = app_user_id()) WITH CHECK (%I = app_user_id())', tbl, owner_column, owner_column);
END
$$;

SELECT enable_user_rls('users', 'id');
SELECT enable_user_rls('sessions');
SELECT enable_user_rls('notifications');
SELECT enable_user_rls('ob_consents');
SELECT enable_user_rls('bank_accounts');

-- Foundation: restricted role, audit log, organizations and users, chart of accounts, ledger.

-- The service's tenant queries run as this role (SET ROLE), which row-level security applies to.
-- The login role owns the tables and is used only for migrations, sign-in look-ups and jobs.
DO $$ BEGIN
  CREATE ROLE accounting_app NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
DO $$ BEGIN
  EXECUTE format('GRANT accounting_app TO %I', current_user);
EXCEPTION WHEN others THEN NULL;
END $$;
GRANT USAGE ON SCHEMA public TO accounting_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO accounting_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO accounting_app;

-- The organization the current transaction acts for ('' or unset: none).
CREATE FUNCTION current_org_id() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT NULLIF(current_setting('app.org_id', true), '')::uuid
$$;

-- Audit (A20) ---------------------------------------------------------------------------------
CREATE TABLE logged_actions (
  id bigserial PRIMARY KEY,
  organization_id uuid NOT NULL,
  table_name text NOT NULL,
  action text NOT NULL CHECK (action IN ('INSERT', 'UPDATE', 'DELETE')),
  record_id text,
  user_id uuid,
  request_id text,
  old_values jsonb,
  new_values jsonb,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX logged_actions_org_created ON logged_actions (organization_id, created_at DESC, id DESC);
CREATE INDEX logged_actions_org_record ON logged_actions (organization_id, record_id);

-- Runs as its owner so the restricted role cannot forge or skip audit rows; secrets never reach
-- the log. TG_ARGV[0] names the column holding the organization id.
CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  old_rec jsonb;
  new_rec jsonb;
  org_col text := COALESCE(TG_ARGV[0], 'organization_id');
  hidden text[] := ARRAY['password_hash', 'two_factor_secret', 'token_hash'];
BEGIN
  IF TG_OP <> 'INSERT' THEN old_rec := to_jsonb(OLD) - hidden; END IF;
  IF TG_OP <> 'DELETE' THEN new_rec := to_jsonb(NEW) - hidden; END IF;
  INSERT INTO logged_actions (organization_id, table_name, action, record_id, user_id, request_id, old_values, new_values)
  VALUES (
    COALESCE(new_rec ->> org_col, old_rec ->> org_col)::uuid,
    TG_TABLE_NAME,
    TG_OP,
    COALESCE(new_rec ->> 'id', old_rec ->> 'id'),
    NULLIF(current_setting('app.user_id', true), '')::uuid,
    NULLIF(current_setting('app.request_id', true), ''),
    old_rec,
    new_rec
  );
  RETURN NULL;
END $$;

-- Reference data (not tenant data) ------------------------------------------------------------
CREATE TABLE account_types (
  id smallint PRIMARY KEY,
  name text NOT NULL UNIQUE,
  normal_balance text NOT NULL CHECK (normal_balance IN ('debit', 'credit'))
);
INSERT INTO account_types (id, name, normal_balance) VALUES
  (1, 'Asset', 'debit'), (2, 'Liability', 'credit'), (3, 'Equity', 'credit'), (4, 'Revenue', 'credit'), (5, 'Expense', 'debit');

-- Organizations and users -----------------------------------------------------------------------
CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  registration_number text,
  vat_number text,
  base_currency text NOT NULL,
  country text NOT NULL CHECK (country IN ('RS', 'BA', 'HR')),
  language text NOT NULL CHECK (language IN ('sr', 'bs', 'hr', 'en')),
  fiscal_year_start date NOT NULL,
  default_vat_rate numeric(7, 4) NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  email text NOT NULL,
  full_name text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'accountant', 'viewer')),
  password_hash text,
  is_active boolean NOT NULL DEFAULT true,
  two_factor_enabled boolean NOT NULL DEFAULT false,
  two_factor_secret text,
  two_factor_last_step bigint,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- E-mail addresses are unique across the service (A17).
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_org ON users (organization_id);

-- One row per login. Access tokens carry its id (sid) and are refused once it is revoked
-- (logout, password change, refresh-token reuse, user removal), on every instance at once.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  remember boolean NOT NULL DEFAULT false,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL;

-- E-mail addresses are unique across organizations; RLS hides other organizations' users, so
-- the uniqueness check runs as the owner and reveals only a boolean.
CREATE FUNCTION email_in_use(address text) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower(address))
$$;

-- A login's refresh tokens form a family; presenting a rotated-out member revokes the login.
CREATE TABLE refresh_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  family_id uuid NOT NULL REFERENCES sessions (id),
  token_hash text NOT NULL UNIQUE,
  remember boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

CREATE TABLE invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tax_rates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  position smallint NOT NULL,
  name text NOT NULL,
  rate numeric(7, 4) NOT NULL CHECK (rate >= 0 AND rate <= 100),
  description text NOT NULL DEFAULT '',
  UNIQUE (organization_id, position)
);

-- Chart of accounts and ledger -----------------------------------------------------------------
CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  code text NOT NULL,
  name text NOT NULL,
  account_type_id smallint NOT NULL REFERENCES account_types (id),
  currency_code text NOT NULL,
  parent_account_id uuid REFERENCES accounts (id),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, code),
  UNIQUE (organization_id, id)
);

-- Running totals per account in base currency, updated in the same transaction as each posting,
-- so balances never need a scan of the postings.
CREATE TABLE account_balances (
  account_id uuid PRIMARY KEY REFERENCES accounts (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  debit_total numeric(20, 4) NOT NULL DEFAULT 0,
  credit_total numeric(20, 4) NOT NULL DEFAULT 0,
  posting_count bigint NOT NULL DEFAULT 0
);

CREATE TABLE ledger_transactions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  transaction_date date NOT NULL,
  description text NOT NULL,
  notes text,
  debit_account_id uuid NOT NULL,
  credit_account_id uuid NOT NULL,
  amount numeric(20, 4) NOT NULL CHECK (amount > 0),
  currency_code text NOT NULL,
  exchange_rate numeric(20, 6) NOT NULL,
  base_amount numeric(20, 4) NOT NULL,
  reference_type text CHECK (reference_type IN ('invoice', 'expense', 'payment', 'manual')),
  reference_id uuid,
  reversal_of uuid REFERENCES ledger_transactions (id),
  locked boolean NOT NULL DEFAULT false,
  reconciled boolean NOT NULL DEFAULT false,
  reconciled_at timestamptz,
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (debit_account_id <> credit_account_id),
  FOREIGN KEY (organization_id, debit_account_id) REFERENCES accounts (organization_id, id),
  FOREIGN KEY (organization_id, credit_account_id) REFERENCES accounts (organization_id, id)
);
CREATE INDEX ledger_transactions_org_date ON ledger_transactions (organization_id, transaction_date DESC, created_at DESC);
CREATE INDEX ledger_transactions_debit ON ledger_transactions (debit_account_id, transaction_date);
CREATE INDEX ledger_transactions_credit ON ledger_transactions (credit_account_id, transaction_date);
CREATE INDEX ledger_transactions_reference ON ledger_transactions (organization_id, reference_type, reference_id);

-- Row-level security (A21): every tenant table sees only the current organization's rows. ------
ALTER TABLE organizations ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON organizations USING (id = current_org_id()) WITH CHECK (id = current_org_id());

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['logged_actions', 'users', 'sessions', 'refresh_tokens', 'invitations', 'tax_rates', 'accounts',
                           'account_balances', 'ledger_transactions']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['users', 'sessions', 'invitations', 'tax_rates', 'accounts', 'ledger_transactions', 'refresh_tokens']
  LOOP
    EXECUTE format('CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row()', t);
  END LOOP;
END $$;
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION audit_row('id');

-- Audit rows are written only by the trigger and never changed.
REVOKE INSERT, UPDATE, DELETE ON logged_actions FROM accounting_app;
GRANT SELECT ON logged_actions TO accounting_app;
GRANT SELECT ON account_types TO accounting_app;

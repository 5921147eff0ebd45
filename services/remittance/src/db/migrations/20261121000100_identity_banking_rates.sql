-- Remittance service: identity (eID users, sessions), open banking, exchange rates.

CREATE TABLE users (
  id text PRIMARY KEY,
  email text,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  phone text,
  date_of_birth date,
  kyc_status text NOT NULL DEFAULT 'pending',
  kyc_method text,
  auth_provider text,
  national_id_hash text,
  password_hash text NOT NULL DEFAULT 'EIDONLY',
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'merchant')),
  last_login_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- An erased (soft-deleted) user keeps its row for the retention period; a new eID login then
-- creates a new account (R6), so uniqueness only holds among live users.
CREATE UNIQUE INDEX users_national_id_live ON users (national_id_hash) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_email_live ON users (lower(email)) WHERE deleted_at IS NULL AND email IS NOT NULL;

CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  token_hash text NOT NULL,
  surface text NOT NULL CHECK (surface IN ('web', 'api')),
  expires_at timestamptz NOT NULL,
  revoked smallint NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
  revoked_at timestamptz,
  ip_address text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sessions_token_hash ON sessions (token_hash);
CREATE INDEX sessions_user_live ON sessions (user_id) WHERE revoked = 0;

-- A started eID sign-in: state (the key), nonce and PKCE verifier, consumed once by the callback.
CREATE TABLE eid_auth_requests (
  state text PRIMARY KEY,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  platform text NOT NULL CHECK (platform IN ('web', 'mobile')),
  redirect_uri text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX eid_auth_requests_expiry ON eid_auth_requests (expires_at);

-- Codes issued by the built-in mock provider (R3): single use, short-lived.
CREATE TABLE eid_mock_codes (
  code text PRIMARY KEY,
  client_id text NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text,
  nonce text,
  claims jsonb NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE notifications (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('transaction_complete', 'qr_payment', 'security', 'rate_update', 'system', 'promotional')),
  title text NOT NULL,
  body text NOT NULL,
  read smallint NOT NULL DEFAULT 0 CHECK (read IN (0, 1)),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user ON notifications (user_id, created_at DESC);

-- Open banking (R8). 'pending' is the state between consent creation and the bank's callback.
CREATE TABLE ob_consents (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  bank_account_id text,
  provider text NOT NULL,
  external_consent_id text,
  status text NOT NULL CHECK (status IN ('pending', 'active', 'expired', 'revoked')),
  scope text NOT NULL CHECK (scope IN ('AISP', 'PISP', 'AISP+PISP')),
  surface text NOT NULL CHECK (surface IN ('web', 'api')),
  callback_state text NOT NULL,
  granted_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz,
  access_count_today integer NOT NULL DEFAULT 0,
  last_access_date text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ob_consents_user ON ob_consents (user_id, created_at DESC);
CREATE INDEX ob_consents_active_expiry ON ob_consents (expires_at) WHERE status = 'active';

CREATE TABLE bank_accounts (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  consent_id text NOT NULL REFERENCES ob_consents (id),
  provider text NOT NULL,
  external_account_id text NOT NULL,
  bank_name text NOT NULL,
  account_name text,
  account_number text NOT NULL,
  balance numeric(16, 2) NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'NOK',
  is_primary boolean NOT NULL DEFAULT false,
  balance_updated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX bank_accounts_external ON bank_accounts (user_id, provider, external_account_id);
CREATE UNIQUE INDEX bank_accounts_one_primary ON bank_accounts (user_id) WHERE is_primary;
ALTER TABLE ob_consents ADD CONSTRAINT ob_consents_bank_account_fk FOREIGN KEY (bank_account_id) REFERENCES bank_accounts (id);

-- The sandbox bank's own books (it stands in for a real bank behind the provider adapter).
CREATE TABLE sandbox_bank_consents (
  id text PRIMARY KEY,
  customer_ref text NOT NULL,
  scope text NOT NULL,
  redirect_uri text NOT NULL,
  state text NOT NULL,
  status text NOT NULL CHECK (status IN ('received', 'valid', 'revoked')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_bank_accounts (
  id text PRIMARY KEY,
  customer_ref text NOT NULL,
  name text NOT NULL,
  account_number text NOT NULL UNIQUE,
  balance numeric(16, 2) NOT NULL,
  currency text NOT NULL DEFAULT 'NOK',
  is_checking boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_bank_accounts_customer ON sandbox_bank_accounts (customer_ref);
CREATE TABLE sandbox_bank_payments (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES sandbox_bank_accounts (id),
  amount numeric(16, 2) NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  creditor_account text NOT NULL,
  creditor_name text NOT NULL,
  reference text,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'rejected')),
  settles_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Exchange rates NOK -> target (R11). Seeded with recent mid rates as of their date, so they
-- read as stale until the feed refreshes them.
CREATE TABLE exchange_rates (
  currency text PRIMARY KEY,
  rate numeric(20, 8) NOT NULL CHECK (rate > 0),
  source text NOT NULL,
  updated_at timestamptz NOT NULL
);
INSERT INTO exchange_rates (currency, rate, source, updated_at) VALUES
  ('EUR', 0.08530000, 'seed', '2026-11-20T15:00:00Z'),
  ('BAM', 0.16683000, 'seed', '2026-11-20T15:00:00Z'),
  ('RSD', 9.99700000, 'seed', '2026-11-20T15:00:00Z'),
  ('PLN', 0.36210000, 'seed', '2026-11-20T15:00:00Z'),
  ('PKR', 27.84000000, 'seed', '2026-11-20T15:00:00Z'),
  ('TRY', 4.19500000, 'seed', '2026-11-20T15:00:00Z');

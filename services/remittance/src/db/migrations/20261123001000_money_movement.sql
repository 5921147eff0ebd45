-- Remittance money movement (issue 11): recipients, merchants, transactions with their payment
-- initiations, idempotency keys, settings. Every user-owned row carries user_id, and every
-- repository query filters by it.

CREATE TABLE recipients (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  name text NOT NULL,
  country text NOT NULL CHECK (country IN ('RS', 'BA', 'PL', 'PK', 'TR')),
  currency text NOT NULL CHECK (currency IN ('RSD', 'BAM', 'PLN', 'PKR', 'TRY', 'EUR')),
  bank_account text NOT NULL,
  bank_name text,
  -- DELETE hides a recipient; its transactions keep pointing at it (history and receipts).
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipients_user_live ON recipients (user_id, created_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE merchants (
  id text PRIMARY KEY,
  user_id text NOT NULL UNIQUE REFERENCES users (id),
  business_name text NOT NULL,
  org_number text NOT NULL UNIQUE CHECK (org_number ~ '^[0-9]{9}$'),
  address text,
  bank_account text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE transactions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('remittance', 'qr_payment')),
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  bank_account_id text NOT NULL REFERENCES bank_accounts (id),
  recipient_id text REFERENCES recipients (id),
  merchant_id text REFERENCES merchants (id),
  -- Copied at creation: the history shows what was paid to whom, whatever happens later.
  recipient_name text NOT NULL,
  recipient_country text,
  from_account text NOT NULL,
  send_amount numeric(16, 2) NOT NULL CHECK (send_amount > 0),
  send_currency text NOT NULL,
  receive_amount numeric(18, 2) NOT NULL,
  receive_currency text NOT NULL,
  exchange_rate numeric(20, 8) NOT NULL,
  fee numeric(16, 2) NOT NULL CHECK (fee >= 0),
  total numeric(16, 2) NOT NULL CHECK (total = send_amount + fee),
  reference text NOT NULL,
  eta text,
  completed_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((type = 'remittance') = (recipient_id IS NOT NULL)),
  CHECK ((type = 'qr_payment') = (merchant_id IS NOT NULL))
);
CREATE INDEX transactions_user ON transactions (user_id, created_at DESC);
CREATE INDEX transactions_merchant ON transactions (merchant_id, created_at DESC) WHERE merchant_id IS NOT NULL;
-- The settlement job's queue.
CREATE INDEX transactions_processing ON transactions (created_at) WHERE status = 'processing';

-- The order sent to the bank through the open-banking adapter, one per transaction.
CREATE TABLE payment_initiations (
  transaction_id text PRIMARY KEY REFERENCES transactions (id),
  user_id text NOT NULL REFERENCES users (id),
  provider text NOT NULL,
  external_payment_id text NOT NULL,
  amount numeric(16, 2) NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Idempotency-Key (R9): the first response to a key, replayed for 24 h. The key row is written
-- in the payment's own transaction, so a concurrent twin waits on the unique index and then
-- sees the stored response (or, when the first rolled back, takes the key itself).
CREATE TABLE idempotency_keys (
  user_id text NOT NULL REFERENCES users (id),
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE user_settings (
  user_id text PRIMARY KEY REFERENCES users (id),
  currency text NOT NULL DEFAULT 'NOK' CHECK (currency IN ('EUR', 'USD', 'GBP', 'BAM', 'CHF', 'PLN', 'NOK', 'RSD', 'TRY', 'PKR')),
  language text NOT NULL DEFAULT 'nb' CHECK (language IN ('nb', 'en', 'bs', 'sq')),
  push_enabled boolean NOT NULL DEFAULT true,
  email_enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX notifications_user_unread ON notifications (user_id) WHERE read = 0;

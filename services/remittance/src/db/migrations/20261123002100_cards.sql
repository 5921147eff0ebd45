-- Cards (spec Card, Cards; R14), behind the FEATURE_CARDS flags. The service is not a card
-- issuer: it keeps only the last four digits (the issuer would hold the full number), so a
-- leaked row reveals no card number. The PIN is kept only as a bcrypt hash.
CREATE TABLE cards (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('virtual', 'physical')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'frozen', 'cancelled')),
  last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  expiry_month smallint NOT NULL CHECK (expiry_month BETWEEN 1 AND 12),
  expiry_year smallint NOT NULL,
  pin_hash text,
  pin_set_at timestamptz,
  shipping_address text,
  physical_requested_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cards_user ON cards (user_id, created_at);

-- One limit per card and type; PUT replaces the amount of an existing type.
CREATE TABLE card_spending_limits (
  card_id text NOT NULL REFERENCES cards (id),
  user_id text NOT NULL REFERENCES users (id),
  limit_type text NOT NULL CHECK (limit_type IN ('daily', 'weekly', 'monthly', 'transaction')),
  amount numeric(16, 2) NOT NULL CHECK (amount > 0),
  currency text NOT NULL DEFAULT 'NOK',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (card_id, limit_type)
);
CREATE INDEX card_spending_limits_user ON card_spending_limits (user_id);

-- Books (issue 3): currencies, exchange rates, contacts, feed-job claims, ledger reversal guard.

-- Currencies (reference data, not tenant data) ----------------------------------------------------
CREATE TABLE currencies (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z]{3}$'),
  name text NOT NULL,
  symbol text,
  decimal_places smallint NOT NULL CHECK (decimal_places BETWEEN 0 AND 4),
  is_active boolean NOT NULL DEFAULT true
);
-- ISO 4217 minor units; keep in step with CURRENCY_DECIMALS in modules/currencies/currencies.ts.
INSERT INTO currencies (code, name, symbol, decimal_places, is_active) VALUES
  ('EUR', 'Euro', '€', 2, true),
  ('RSD', 'Serbian Dinar', 'din.', 2, true),
  ('BAM', 'Convertible Mark', 'KM', 2, true),
  ('HRK', 'Croatian Kuna', 'kn', 2, true),
  ('USD', 'US Dollar', '$', 2, true),
  ('CHF', 'Swiss Franc', 'CHF', 2, true),
  ('GBP', 'Pound Sterling', '£', 2, true);
REVOKE INSERT, UPDATE, DELETE ON currencies FROM accounting_app;
GRANT SELECT ON currencies TO accounting_app;

-- Exchange rates (A5, A6) -------------------------------------------------------------------------
-- One row = "1 base_currency is worth `rate` target_currency from effective_date on".
-- organization_id NULL: a feed or seeded rate every organization reads; otherwise an
-- organization's own manual rate, which wins over a global one of the same pair and date.
CREATE TABLE exchange_rates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid REFERENCES organizations (id),
  base_currency text NOT NULL REFERENCES currencies (code),
  target_currency text NOT NULL REFERENCES currencies (code),
  rate numeric(24, 10) NOT NULL CHECK (rate > 0),
  effective_date date NOT NULL,
  source text NOT NULL CHECK (source IN ('nbs', 'ecb', 'cbbh', 'hnb', 'third-party', 'manual')),
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (base_currency <> target_currency)
);
CREATE UNIQUE INDEX exchange_rates_global_key ON exchange_rates (base_currency, target_currency, effective_date)
  WHERE organization_id IS NULL;
CREATE UNIQUE INDEX exchange_rates_org_key ON exchange_rates (organization_id, base_currency, target_currency, effective_date)
  WHERE organization_id IS NOT NULL;
-- "Latest on or before a date" for one pair is one descent of this index.
CREATE INDEX exchange_rates_lookup ON exchange_rates (base_currency, target_currency, effective_date DESC);

ALTER TABLE exchange_rates ENABLE ROW LEVEL SECURITY;
-- Tenants read global rows and their own; they can only write their own.
CREATE POLICY tenant_read ON exchange_rates FOR SELECT USING (organization_id IS NULL OR organization_id = current_org_id());
CREATE POLICY tenant_insert ON exchange_rates FOR INSERT WITH CHECK (organization_id = current_org_id());
CREATE POLICY tenant_update ON exchange_rates FOR UPDATE USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());
CREATE POLICY tenant_delete ON exchange_rates FOR DELETE USING (organization_id = current_org_id());
-- Global rows belong to no organization, so only an organization's own rates are audited.
CREATE TRIGGER audit AFTER INSERT OR UPDATE ON exchange_rates FOR EACH ROW
  WHEN (NEW.organization_id IS NOT NULL) EXECUTE FUNCTION audit_row();
CREATE TRIGGER audit_delete AFTER DELETE ON exchange_rates FOR EACH ROW
  WHEN (OLD.organization_id IS NOT NULL) EXECUTE FUNCTION audit_row();

-- Seeds (A6). BAM and HRK are fixed by law: BAM has been pegged at 1.95583 since the euro's
-- introduction, HRK's conversion rate was fixed by Council Regulation (EU) 2022/1208 of 12 July 2022.
-- The others are the published reference rates (rounded as published) of a few recent dates;
-- the ECB feed (EXCHANGE_RATE_FEED=on) adds every business day from then on.
INSERT INTO exchange_rates (base_currency, target_currency, rate, effective_date, source) VALUES
  ('EUR', 'BAM', 1.95583, '1999-01-01', 'cbbh'),
  ('EUR', 'HRK', 7.53450, '2022-07-12', 'hnb'),
  ('EUR', 'RSD', 117.1737, '2024-01-03', 'nbs'),
  ('EUR', 'RSD', 117.0000, '2025-01-03', 'nbs'),
  ('EUR', 'RSD', 117.2000, '2026-11-20', 'nbs'),
  ('EUR', 'USD', 1.0956, '2024-01-02', 'ecb'),
  ('EUR', 'CHF', 0.9305, '2024-01-02', 'ecb'),
  ('EUR', 'GBP', 0.86790, '2024-01-02', 'ecb'),
  ('EUR', 'USD', 1.0321, '2025-01-02', 'ecb'),
  ('EUR', 'CHF', 0.9394, '2025-01-02', 'ecb'),
  ('EUR', 'GBP', 0.82900, '2025-01-02', 'ecb'),
  ('EUR', 'USD', 1.1600, '2026-11-20', 'ecb'),
  ('EUR', 'CHF', 0.9300, '2026-11-20', 'ecb'),
  ('EUR', 'GBP', 0.88000, '2026-11-20', 'ecb');

-- Background job claims (G12): one row per job and day, taken under an advisory lock, so that
-- several instances never run the same daily import twice. Not tenant data.
CREATE TABLE job_runs (
  job text NOT NULL,
  run_date date NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  detail text,
  PRIMARY KEY (job, run_date)
);
REVOKE ALL ON job_runs FROM accounting_app;

-- Contacts ---------------------------------------------------------------------------------------
CREATE TABLE contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  type text NOT NULL CHECK (type IN ('customer', 'vendor', 'both')),
  name text NOT NULL,
  email text,
  phone text,
  registration_number text,
  vat_number text,
  address_line1 text,
  address_line2 text,
  city text,
  postal_code text,
  country text CHECK (country ~ '^[A-Z]{2}$'),
  currency_code text NOT NULL REFERENCES currencies (code),
  payment_terms integer NOT NULL DEFAULT 30 CHECK (payment_terms >= 0),
  notes text,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Lets invoices and expenses reference (organization_id, contact id) as one foreign key.
  UNIQUE (organization_id, id)
);
CREATE INDEX contacts_org_created ON contacts (organization_id, created_at DESC, id DESC);
CREATE INDEX contacts_org_name ON contacts (organization_id, lower(name));

-- Ledger -----------------------------------------------------------------------------------------
-- A posting is reversed at most once, even by two concurrent cancellations.
CREATE UNIQUE INDEX ledger_transactions_reversal_of ON ledger_transactions (reversal_of) WHERE reversal_of IS NOT NULL;

-- Row-level security and audit for the new tenant tables (as in the foundation migration).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['contacts']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
    EXECUTE format('CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row()', t);
  END LOOP;
END $$;

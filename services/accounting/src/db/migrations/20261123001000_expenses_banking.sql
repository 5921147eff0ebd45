-- Expenses and banking (issue 10): expenses with their per-organization-per-year number counter,
-- bank accounts and imported bank statement lines.

-- Gapless EXP-<year>-<sequence> numbers, exactly as invoice_counters (A4).
CREATE TABLE expense_counters (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  year integer NOT NULL CHECK (year BETWEEN 1900 AND 9999),
  last_number integer NOT NULL CHECK (last_number > 0),
  PRIMARY KEY (organization_id, year)
);

CREATE TABLE bank_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  -- The ledger account (an Asset) the bank account's money is booked on.
  account_id uuid NOT NULL,
  bank_name text NOT NULL,
  account_number text,
  iban text,
  currency_code text NOT NULL REFERENCES currencies (code),
  -- A9: currentBalance = the opening balance given at creation + every imported bank transaction.
  -- current_balance is that running total, moved by each import in the import's transaction.
  opening_balance numeric(20, 4) NOT NULL DEFAULT 0,
  current_balance numeric(20, 4) NOT NULL DEFAULT 0,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, account_id) REFERENCES accounts (organization_id, id)
);
CREATE INDEX bank_accounts_org ON bank_accounts (organization_id, created_at, id);

CREATE TABLE expenses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  expense_number text NOT NULL,
  vendor_id uuid,
  -- The vendor's name when the expense was last written (as invoices keep customer_name).
  vendor_name text,
  expense_date date NOT NULL,
  category text NOT NULL,
  -- Gross amount in the expense currency; tax_amount is the VAT included in it (A8).
  amount numeric(20, 4) NOT NULL CHECK (amount > 0),
  tax_amount numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax_amount >= 0 AND tax_amount <= amount),
  currency_code text NOT NULL REFERENCES currencies (code),
  exchange_rate numeric(20, 6) NOT NULL CHECK (exchange_rate > 0),
  base_amount numeric(20, 4) NOT NULL,
  payment_method text,
  account_id uuid,
  description text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'paid', 'rejected')),
  receipt_key text,
  receipt_content_type text,
  created_by uuid REFERENCES users (id),
  approved_by uuid REFERENCES users (id),
  approved_at timestamptz,
  rejected_by uuid REFERENCES users (id),
  rejected_at timestamptz,
  rejection_reason text,
  paid_at date,
  paid_bank_account_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, expense_number),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, vendor_id) REFERENCES contacts (organization_id, id),
  FOREIGN KEY (organization_id, account_id) REFERENCES accounts (organization_id, id),
  FOREIGN KEY (organization_id, paid_bank_account_id) REFERENCES bank_accounts (organization_id, id)
);
CREATE INDEX expenses_org_date ON expenses (organization_id, expense_date DESC, expense_number DESC);
CREATE INDEX expenses_org_vendor ON expenses (organization_id, vendor_id);
CREATE INDEX expenses_org_status ON expenses (organization_id, status, expense_date);

CREATE TABLE bank_transactions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  bank_account_id uuid NOT NULL,
  transaction_date date NOT NULL,
  -- Signed: positive = money in (credit on the statement), negative = money out.
  amount numeric(20, 4) NOT NULL,
  -- '' when the statement has none (answered as null): part of the duplicate key below.
  description text NOT NULL DEFAULT '',
  reference text NOT NULL DEFAULT '',
  -- A14: the n-th row with this (date, amount, description, reference) in its statement file.
  occurrence integer NOT NULL DEFAULT 1 CHECK (occurrence > 0),
  reconciled boolean NOT NULL DEFAULT false,
  matched_transaction_id uuid REFERENCES ledger_transactions (id),
  reconciled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organization_id, bank_account_id) REFERENCES bank_accounts (organization_id, id),
  CHECK (reconciled = (matched_transaction_id IS NOT NULL))
);
-- Duplicate detection (A14): a re-imported row hits this key and is skipped (ON CONFLICT DO NOTHING),
-- also under concurrent imports of overlapping statements.
CREATE UNIQUE INDEX bank_transactions_fingerprint
  ON bank_transactions (bank_account_id, transaction_date, amount, description, reference, occurrence);
CREATE INDEX bank_transactions_account_date ON bank_transactions (bank_account_id, transaction_date DESC, created_at DESC);
CREATE INDEX bank_transactions_unreconciled ON bank_transactions (bank_account_id, transaction_date) WHERE NOT reconciled;
CREATE INDEX bank_transactions_org_date ON bank_transactions (organization_id, transaction_date);
-- A ledger posting is matched by at most one bank line.
CREATE UNIQUE INDEX bank_transactions_matched ON bank_transactions (matched_transaction_id) WHERE matched_transaction_id IS NOT NULL;

-- Reconciliation suggestions (A15): the unreconciled postings of one ledger account with a given
-- amount, on each side.
CREATE INDEX ledger_transactions_debit_open ON ledger_transactions (debit_account_id, amount) WHERE NOT reconciled;
CREATE INDEX ledger_transactions_credit_open ON ledger_transactions (credit_account_id, amount) WHERE NOT reconciled;

-- Row-level security and audit, as for the other tenant tables (A20, A21).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['expense_counters', 'bank_accounts', 'expenses', 'bank_transactions']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['bank_accounts', 'expenses', 'bank_transactions']
  LOOP
    EXECUTE format('CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row()', t);
  END LOOP;
END $$;
-- The counter has no id column; its changes are audited through the expense insert it serves.

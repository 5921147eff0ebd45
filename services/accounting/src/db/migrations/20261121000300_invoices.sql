-- Invoices (issue 4): invoices and their items, the per-organization-per-year number counter,
-- and administrator alerts.

-- A4: one counter row per organization and year, bumped with INSERT ... ON CONFLICT DO UPDATE
-- ... RETURNING in the transaction that inserts the invoice. The row lock serialises concurrent
-- creations and a rollback gives the number back, so numbers are gapless and unique.
CREATE TABLE invoice_counters (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  year integer NOT NULL CHECK (year BETWEEN 1900 AND 9999),
  last_number integer NOT NULL CHECK (last_number > 0),
  PRIMARY KEY (organization_id, year)
);

CREATE TABLE invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  invoice_number text NOT NULL,
  customer_id uuid NOT NULL,
  -- The customer's name when the invoice was last written (what the document shows).
  customer_name text NOT NULL,
  invoice_date date NOT NULL,
  due_date date NOT NULL,
  currency_code text NOT NULL,
  exchange_rate numeric(20, 6) NOT NULL CHECK (exchange_rate > 0),
  subtotal numeric(20, 4) NOT NULL,
  tax_amount numeric(20, 4) NOT NULL,
  discount_amount numeric(20, 4) NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
  total_amount numeric(20, 4) NOT NULL CHECK (total_amount >= 0),
  base_amount numeric(20, 4) NOT NULL,
  -- 'overdue' is also derived on read (A10): sent/viewed with due_date before today.
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'viewed', 'paid', 'overdue', 'cancelled')),
  notes text,
  terms text,
  pdf_key text,
  -- sha256 of the public view token (the token itself is derived, never stored).
  token_hash text UNIQUE,
  sent_at timestamptz,
  sent_to text,
  email_id text,
  viewed_at timestamptz,
  paid_at date,
  paid_bank_account_id uuid,
  cancelled_at timestamptz,
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, invoice_number),
  UNIQUE (organization_id, id),
  CHECK (due_date >= invoice_date),
  -- The customer is a contact of the same organization (contacts: 20261121000200_books.sql).
  FOREIGN KEY (organization_id, customer_id) REFERENCES contacts (organization_id, id),
  FOREIGN KEY (currency_code) REFERENCES currencies (code)
);
CREATE INDEX invoices_org_date ON invoices (organization_id, invoice_date DESC, invoice_number DESC);
CREATE INDEX invoices_org_customer ON invoices (organization_id, customer_id);
CREATE INDEX invoices_org_status ON invoices (organization_id, status, due_date);
-- The overdue job's scan across organizations.
CREATE INDEX invoices_open_due ON invoices (due_date) WHERE status IN ('sent', 'viewed');

CREATE TABLE invoice_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  invoice_id uuid NOT NULL,
  line_number integer NOT NULL CHECK (line_number > 0),
  description text NOT NULL,
  -- As given (A3 echoes them); unconstrained scale.
  quantity numeric NOT NULL CHECK (quantity > 0),
  unit_price numeric NOT NULL CHECK (unit_price > 0),
  tax_rate numeric NOT NULL CHECK (tax_rate >= 0 AND tax_rate <= 100),
  line_total numeric(20, 4) NOT NULL,
  line_tax numeric(20, 4) NOT NULL,
  account_id uuid,
  UNIQUE (invoice_id, line_number),
  FOREIGN KEY (organization_id, invoice_id) REFERENCES invoices (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, account_id) REFERENCES accounts (organization_id, id)
);
CREATE INDEX invoice_items_invoice ON invoice_items (invoice_id, line_number);

CREATE TABLE alerts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  type text NOT NULL,
  message text NOT NULL,
  reference_type text,
  reference_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alerts_org_created ON alerts (organization_id, created_at DESC);

-- Row-level security and audit, as for the foundation tables (A20, A21).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['invoice_counters', 'invoices', 'invoice_items', 'alerts']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['invoices', 'invoice_items', 'alerts']
  LOOP
    EXECUTE format('CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row()', t);
  END LOOP;
END $$;
-- The counter has no id column; its changes are audited through the invoice insert it serves.

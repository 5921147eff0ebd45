-- SEF, the Serbian e-invoice system (CONTRACT D1-D4, issue 28; docs/accounting/sef.md).

-- D1: one row per organization that configured SEF. The API key is AES-256-GCM ciphertext under
-- SEF_KEY_ENCRYPTION_KEY (never returned). webhook_token is the capability in the notification URL.
CREATE TABLE sef_settings (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL DEFAULT 'demo' CHECK (environment IN ('demo', 'production')),
  enabled boolean NOT NULL DEFAULT false,
  api_key_ciphertext text,
  webhook_token text NOT NULL,
  last_sync_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sef_settings_webhook_token ON sef_settings (webhook_token);

-- D2/D3: an invoice (or its credit note) queued for SEF. request_id is fixed when queued and sent
-- with every attempt (SEF deduplicates by it). status: SEF's own names, or Pending / Failed.
-- next_attempt_at doubles as the lease of the attempt in flight (claimed, then moved ahead).
CREATE TABLE sef_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('invoice', 'credit-note')),
  request_id uuid NOT NULL,
  status text NOT NULL,
  sales_invoice_id bigint,
  last_error text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, invoice_id, kind)
);
CREATE INDEX sef_documents_due ON sef_documents (next_attempt_at) WHERE status = 'Pending';
CREATE INDEX sef_documents_sales_id ON sef_documents (organization_id, sales_invoice_id);

-- D4: purchase invoices received in SEF (ids, then the UBL), parsed.
CREATE TABLE purchase_invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  source text NOT NULL DEFAULT 'sef' CHECK (source IN ('sef', 'hr-intermediary')),
  external_id text NOT NULL,
  status text NOT NULL,
  invoice_number text NOT NULL,
  issue_date date,
  due_date date,
  supplier_name text NOT NULL,
  supplier_vat_number text,
  supplier_registration_number text,
  currency_code text NOT NULL,
  net_amount numeric(19, 4) NOT NULL,
  tax_amount numeric(19, 4) NOT NULL,
  total_amount numeric(19, 4) NOT NULL,
  lines jsonb NOT NULL DEFAULT '[]',
  ubl text NOT NULL,
  comment text,
  vendor_id uuid REFERENCES contacts(id) ON DELETE SET NULL,
  expense_id uuid REFERENCES expenses(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, source, external_id)
);
CREATE INDEX purchase_invoices_org_date ON purchase_invoices (organization_id, issue_date DESC, created_at DESC);

-- SEF's own code lists (VAT exemption reasons, units), the same for everybody, fetched daily.
CREATE TABLE sef_code_lists (
  name text PRIMARY KEY,
  fetched_at timestamptz NOT NULL,
  entries jsonb NOT NULL
);
GRANT SELECT ON sef_code_lists TO accounting_app;
REVOKE INSERT, UPDATE, DELETE ON sef_code_lists FROM accounting_app;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sef_settings', 'sef_documents', 'purchase_invoices']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['sef_documents', 'purchase_invoices']
  LOOP
    EXECUTE format('CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row()', t);
  END LOOP;
END $$;

-- Croatian fiscalization (CONTRACT D5, issue 28; docs/accounting/fiscalization-hr.md).

-- The organization's signing certificate: the private key sealed (AES-256-GCM under
-- SEF_KEY_ENCRYPTION_KEY), the certificate itself (public) kept as PEM. The PKCS#12 file and its
-- password are not kept.
CREATE TABLE fiscalization_settings (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL DEFAULT 'test' CHECK (environment IN ('test', 'production')),
  enabled boolean NOT NULL DEFAULT false,
  key_ciphertext text NOT NULL,
  certificate_pem text NOT NULL,
  certificate_subject text NOT NULL,
  certificate_not_after timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One fiscalization message per invoice and kind, with what the Tax Administration answered.
CREATE TABLE fiscal_records (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  message text NOT NULL CHECK (message IN ('eracun', 'payment')),
  request_id uuid NOT NULL,
  status text NOT NULL CHECK (status IN ('Pending', 'Fiscalized', 'Failed')),
  errors jsonb NOT NULL DEFAULT '[]',
  last_error text,
  answered_at text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, invoice_id, message)
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['fiscalization_settings', 'fiscal_records']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
  END LOOP;
  EXECUTE 'CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON fiscal_records FOR EACH ROW EXECUTE FUNCTION audit_row()';
END $$;

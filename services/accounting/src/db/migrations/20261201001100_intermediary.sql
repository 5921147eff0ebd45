-- Croatian e-invoice exchange through an information intermediary (issue 28;
-- docs/accounting/exchange-hr.md). One row per organization that configured its intermediary
-- account: the provider, its environment, the credentials (the password sealed with AES-256-GCM
-- under SEF_KEY_ENCRYPTION_KEY, never returned) and when received e-invoices were last fetched.
CREATE TABLE intermediary_settings (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  provider text NOT NULL DEFAULT 'moj-eracun' CHECK (provider IN ('moj-eracun')),
  environment text NOT NULL DEFAULT 'demo' CHECK (environment IN ('demo', 'production')),
  enabled boolean NOT NULL DEFAULT false,
  username text NOT NULL,
  password_ciphertext text NOT NULL,
  company_bu text,
  software_id text NOT NULL,
  last_sync_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE intermediary_settings ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON intermediary_settings USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());

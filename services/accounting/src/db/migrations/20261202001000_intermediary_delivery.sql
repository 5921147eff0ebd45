-- Croatian e-invoices sent through the information intermediary (issue 28;
-- docs/accounting/exchange-hr.md), queued like sef_documents: the intent (an idempotency key, the
-- document's number, status Pending, due now) is committed before the provider is called; the call
-- runs outside any transaction; failures (provider down, 429, 5xx) are tried again by the delivery
-- job (next_attempt_at, attempts; the claim moves next_attempt_at ahead, a lease). The provider
-- publishes no idempotency key: an attempt after one that may have reached it first looks the
-- document's number up in the provider's outbox (document_number, send_year) and adopts what it
-- finds instead of sending again. Statuses:
--   Pending        recorded, not yet accepted by the provider (retried; last_error says why)
--   Failed         refused by the provider (4xx, its message in last_error) or not buildable; final
--                  until queued again by hand (then with a new idempotency key)
--   Sent           accepted by the provider (document_id = its ElectronicId), not yet delivered
--   Delivered      downloaded by the recipient (or its intermediary)
--   Accepted       the recipient's business status: approved (or paid)
--   Rejected       the recipient's business status: rejected (status_reason = its reason)
--   Undeliverable  the provider could not deliver it
-- The status job polls Sent and Delivered documents (next_check_at) until a final status.
CREATE TABLE intermediary_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('invoice', 'credit-note')),
  idempotency_key uuid NOT NULL,
  document_number text NOT NULL,
  send_year integer NOT NULL,
  status text NOT NULL CHECK (status IN ('Pending', 'Failed', 'Sent', 'Delivered', 'Accepted', 'Rejected', 'Undeliverable')),
  document_id text,
  provider_status text,
  status_reason text,
  last_error text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  next_check_at timestamptz,
  checks integer NOT NULL DEFAULT 0,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, invoice_id, kind)
);
CREATE INDEX intermediary_documents_due ON intermediary_documents (next_attempt_at) WHERE status = 'Pending';
CREATE INDEX intermediary_documents_check ON intermediary_documents (next_check_at) WHERE status IN ('Sent', 'Delivered');
ALTER TABLE intermediary_documents ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON intermediary_documents USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON intermediary_documents FOR EACH ROW EXECUTE FUNCTION audit_row();

-- GET /invoices shows each item's intermediary status: a change of it raises the list version
-- (as sef_documents, migration 20261201001000).
CREATE CONSTRAINT TRIGGER invoice_list_version AFTER INSERT OR DELETE ON intermediary_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_invoice_list_version();
CREATE CONSTRAINT TRIGGER invoice_list_version_status AFTER UPDATE ON intermediary_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION bump_invoice_list_version();

-- Who fiscalizes the e-invoices sent through the intermediary: Moj-eRačun fiscalizes what it sends
-- (and what it receives), so with 'intermediary' the service records no EvidentirajERacun of its
-- own for them; 'service' when the intermediary is told not to (docs/accounting/exchange-hr.md).
-- The default is the intermediary: an organization that enables sending must not report twice.
ALTER TABLE intermediary_settings ADD COLUMN fiscalization_by text NOT NULL DEFAULT 'intermediary'
  CHECK (fiscalization_by IN ('service', 'intermediary'));


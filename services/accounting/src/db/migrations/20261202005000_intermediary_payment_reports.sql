-- Payment reports (eIzvještavanje o naplati) of e-invoices the information intermediary fiscalized
-- (issue 28; docs/accounting/exchange-hr.md): with `fiscalization_by = 'intermediary'` the service
-- sends no EvidentirajNaplatu of its own, so Moj-eRačun is told the payment instead
-- (`/api/fiscalization/markPaid {ElectronicId, PaymentDate, PaymentAmount, PaymentMethod}`).
-- Queued like intermediary_documents: recorded in the mark-paid transaction (an idempotency key,
-- the payment as marked, status Pending, due now), called after commit outside any transaction,
-- the outcome recorded; failures (down, 429, 5xx) retried by the delivery job with backoff. A report
-- of an invoice not yet accepted by the intermediary (no ElectronicId) waits, Pending, for it.
--   Pending   recorded, not yet accepted by the intermediary (last_error says why)
--   Reported  the intermediary accepted it (fiscalized_at: its fiscalization time, when it says)
--   Failed    refused by the intermediary (4xx, its message in last_error); final
CREATE TABLE intermediary_payment_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  idempotency_key uuid NOT NULL,
  paid_at date NOT NULL,
  amount numeric(20, 4) NOT NULL,
  payment_method text NOT NULL CHECK (payment_method IN ('T', 'O', 'Z')),
  status text NOT NULL CHECK (status IN ('Pending', 'Reported', 'Failed')),
  last_error text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  reported_at timestamptz,
  fiscalized_at text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, invoice_id)
);
CREATE INDEX intermediary_payment_reports_due ON intermediary_payment_reports (next_attempt_at) WHERE status = 'Pending';
ALTER TABLE intermediary_payment_reports ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON intermediary_payment_reports USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON intermediary_payment_reports FOR EACH ROW EXECUTE FUNCTION audit_row();

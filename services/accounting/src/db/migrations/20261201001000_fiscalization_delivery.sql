-- Croatian fiscalization delivered by the service itself (CONTRACT D5, issue 28;
-- docs/accounting/fiscalization-hr.md), and the e-invoice states on the invoice list.

-- Every message the organization owes the Tax Administration, queued like sef_documents: the
-- intent (request id, what the message reports) is committed before the call; the call runs
-- outside any transaction; failures are tried again by the job (next_attempt_at, attempts; the
-- claim moves next_attempt_at ahead, a lease). Messages:
--   eracun       EvidentirajERacunZahtjev I for the issued invoice (on send)
--   credit-note  EvidentirajERacunZahtjev I for its credit note (on cancel of a sent invoice)
--   payment      EvidentirajNaplatuZahtjev (on mark-paid)
--   received     EvidentirajERacunZahtjev U for a received e-invoice (purchase invoice)
--   rejection    EvidentirajOdbijanjeZahtjev (a received e-invoice rejected)
-- The first three belong to an invoice, the last two to a purchase invoice.
ALTER TABLE fiscal_records ALTER COLUMN invoice_id DROP NOT NULL;
ALTER TABLE fiscal_records ADD COLUMN purchase_invoice_id uuid REFERENCES purchase_invoices(id) ON DELETE CASCADE;
ALTER TABLE fiscal_records ADD COLUMN payload jsonb NOT NULL DEFAULT '{}';
ALTER TABLE fiscal_records ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE fiscal_records ADD COLUMN next_attempt_at timestamptz;
ALTER TABLE fiscal_records DROP CONSTRAINT fiscal_records_message_check;
ALTER TABLE fiscal_records ADD CONSTRAINT fiscal_records_message_check
  CHECK (message IN ('eracun', 'credit-note', 'payment', 'received', 'rejection'));
ALTER TABLE fiscal_records ADD CONSTRAINT fiscal_records_subject CHECK (
  CASE WHEN message IN ('received', 'rejection')
    THEN invoice_id IS NULL AND purchase_invoice_id IS NOT NULL
    ELSE invoice_id IS NOT NULL AND purchase_invoice_id IS NULL END);
CREATE UNIQUE INDEX fiscal_records_purchase ON fiscal_records (organization_id, purchase_invoice_id, message)
  WHERE purchase_invoice_id IS NOT NULL;
CREATE INDEX fiscal_records_due ON fiscal_records (next_attempt_at) WHERE status = 'Pending';

-- GET /invoices shows each item's SEF and fiscalization status (a LEFT JOIN of the page's rows).
-- The kept list pages (migration 20261125000100) must see those states change: a change of status
-- raises the organization's list version like a change of the invoice itself. Only the status is
-- listed, so only a new row, a deleted one or a changed status raises it (a retry's lease or error
-- text does not).
CREATE CONSTRAINT TRIGGER invoice_list_version AFTER INSERT OR DELETE ON sef_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_invoice_list_version();
CREATE CONSTRAINT TRIGGER invoice_list_version_status AFTER UPDATE ON sef_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION bump_invoice_list_version();
CREATE CONSTRAINT TRIGGER invoice_list_version AFTER INSERT OR DELETE ON fiscal_records
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_invoice_list_version();
CREATE CONSTRAINT TRIGGER invoice_list_version_status AFTER UPDATE ON fiscal_records
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION bump_invoice_list_version();

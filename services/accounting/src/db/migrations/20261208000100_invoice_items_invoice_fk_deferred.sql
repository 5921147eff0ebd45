-- Issue 31: invoice creation writes the items first and the numbered invoice last, in one round trip
-- (invoices.sql.ts). The items' triggers (their audit rows, the VAT report's check) then run before
-- the organization's number counter is locked, not while it is: the counter is held for the
-- invoice row, its audit row and the commit only. Items written before their invoice need the
-- reference to the invoice checked at COMMIT. It is still checked for every item (an item whose
-- invoice does not exist by then fails the commit, 23503), and ON DELETE CASCADE still acts at once:
-- PostgreSQL defers only the check, never a referential action.
ALTER TABLE invoice_items ALTER CONSTRAINT invoice_items_organization_id_invoice_id_fkey DEFERRABLE INITIALLY DEFERRED;

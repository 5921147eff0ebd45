-- Issue 31: foreign keys that check nothing another key does not already check. Each ran an RI
-- trigger (a queued event and a SELECT ... FOR KEY SHARE on organizations) for every row written:
-- once per posting, once per invoice and once per invoice line. As with bank_transactions
-- (20261123005000), a composite key on NOT NULL columns already implies the organization:
--   ledger_transactions (organization_id, debit_account_id) -> accounts (organization_id, id),
--   invoices (organization_id, customer_id)                 -> contacts (organization_id, id),
--   invoice_items (organization_id, invoice_id)             -> invoices (organization_id, id),
-- and accounts and contacts keep their own key to organizations, so an invoice line reaches it through
-- its invoice and the invoice through its customer (no organization is ever deleted; one that rows
-- still reference cannot be). The posting statement and the invoice's customer look-up lock the
-- organization row themselves (FOR KEY SHARE), so no lock is lost either.
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_organization_id_fkey;
ALTER TABLE invoices DROP CONSTRAINT invoices_organization_id_fkey;
ALTER TABLE invoice_items DROP CONSTRAINT invoice_items_organization_id_fkey;

-- GET /invoices (issue 9): a page of the list is kept in the serving instance's memory and sent again
-- while the organization's invoices have not changed since. This table says whether they have: one
-- counter per organization, raised in every transaction that inserts, updates or deletes one of its
-- invoices, by a trigger (no code path can forget it). The list reads the counter in the statement
-- that computes the page and computes the page only when the counter is not the one its kept page was
-- computed at (invoices.repository.ts listInvoicesJson). Derived bookkeeping, like account_balances:
-- not audited (the invoice writes that move it are). A missing row is counter 0: no write since this
-- migration.
CREATE TABLE invoice_list_versions (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id),
  version bigint NOT NULL
);
ALTER TABLE invoice_list_versions ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON invoice_list_versions USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id());
GRANT SELECT ON invoice_list_versions TO accounting_app;

-- Deferred to commit: the counter row is locked only while the transaction commits, after its last
-- statement, so two transactions cannot wait for each other through it (one that raised it early
-- and then waited for an invoice row the other holds). A reader sees the new counter exactly when it
-- sees the new invoices (both become visible at commit). Runs as the owner (SECURITY DEFINER, like
-- the audit trigger), so the app role needs no write grant.
CREATE FUNCTION bump_invoice_list_version() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE org uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.organization_id ELSE NEW.organization_id END;
BEGIN
  INSERT INTO invoice_list_versions AS v (organization_id, version) VALUES (org, 1)
  ON CONFLICT (organization_id) DO UPDATE SET version = v.version + 1;
  -- An invoice moved to another organization (never done by the API) changes both lists.
  IF TG_OP = 'UPDATE' AND OLD.organization_id IS DISTINCT FROM NEW.organization_id THEN
    INSERT INTO invoice_list_versions AS v (organization_id, version) VALUES (OLD.organization_id, 1)
    ON CONFLICT (organization_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER invoice_list_version AFTER INSERT OR UPDATE OR DELETE ON invoices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_invoice_list_version();

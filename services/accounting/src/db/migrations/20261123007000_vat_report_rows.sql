-- VAT report (issue 12 follow-up): the report's rows, precomputed when a document changes.
--
-- The report (reports.repository.ts vatReportPieces) lists every reportable invoice per tax rate
-- and every reportable expense of the period: 35,000 rows and 5.4 MB of JSON for 2.5 years on the
-- bench. Computing them per request (group the items per invoice and rate, a window giving each
-- invoice's rounding difference to its largest-VAT row, the JSON text of each row, sorts) cost
-- about 250 ms. Here the database computes them whenever a document changes, in two layers:
--  - vat_report_rows: one row per output VAT row (kind 'invoice': an invoice sent, viewed, overdue
--    or paid, one row per tax rate of its items) or input VAT row (kind 'expense': an expense
--    approved or paid with tax_amount > 0), exactly as the on-the-fly statement computed it
--    (reports.repository.ts vatReportJsonFromDocuments, docs/accounting/reports.md "VAT"): amounts converted
--    and rounded to the organization's base-currency decimals, the invoice's rounding difference
--    (posted VAT less its rows' sum) added to its row ranked first by VAT (descending) and rate,
--    `fragment` the row's JSON object text. A document that is not reportable has no rows.
--    Written by the document triggers below, in the statement that changes the document.
--  - vat_report_days: per organization, day and kind, the day's row texts joined in the report's
--    order, their VAT sum and whether every invoice row is paid. A request reads the period's days
--    (2 per day at most) and concatenates their text: no per-row work, no sort, and PostgreSQL
--    never builds one value of several MB (see docs/accounting/reports.md for what was measured). Kept by a
--    deferred trigger on vat_report_rows, at commit (see there).
CREATE TABLE vat_report_rows (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('invoice', 'expense')),
  document_date date NOT NULL,
  -- invoice_number or expense_number.
  document_number text NOT NULL,
  document_id uuid NOT NULL,
  -- The items' rate (invoices); 0 for an expense (one row per expense).
  tax_rate numeric NOT NULL,
  base numeric NOT NULL,
  vat numeric NOT NULL,
  paid boolean,
  decimals smallint NOT NULL,
  fragment text NOT NULL,
  -- A period is one range of this index. Within a kind it is the report's order: date, number,
  -- id, rate (expense numbers are unique, so for expenses date and number).
  PRIMARY KEY (organization_id, document_date, kind, document_number, document_id, tax_rate)
);
-- A document's rows, for the triggers that replace them.
CREATE INDEX vat_report_rows_document ON vat_report_rows (document_id);

CREATE TABLE vat_report_days (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  document_date date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('invoice', 'expense')),
  -- The fragments of the day's rows of this kind, joined by ',' in the report's order (number, id,
  -- rate); a day without rows has no row here.
  list text NOT NULL,
  vat numeric NOT NULL,
  -- Invoices: every row paid; NULL for expenses.
  paid boolean,
  -- The rows' decimals; NULL if they differ.
  decimals smallint,
  PRIMARY KEY (organization_id, document_date, kind)
);

-- Derived from invoices and expenses (which are audited): not audited, visible only to their
-- organization, written only by the triggers below (which run as the owner).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['vat_report_rows', 'vat_report_days']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (organization_id = current_org_id()) WITH CHECK (organization_id = current_org_id())', t);
    EXECUTE format('REVOKE INSERT, UPDATE, DELETE ON %I FROM accounting_app', t);
    EXECUTE format('GRANT SELECT ON %I TO accounting_app', t);
  END LOOP;
END $$;

-- Replaces the rows of the given invoices: those in a reportable status get theirs, the others none.
-- Amounts are rounded as currencyDecimals(baseCurrency) (modules/currencies/currencies.ts) gives
-- the decimals: the currency's decimal places (the currencies table, which the service's table
-- mirrors, tested), 2 for a code it does not know.
CREATE FUNCTION vat_report_rows_refresh_invoices(ids uuid[]) RETURNS void LANGUAGE plpgsql
  SET search_path = public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  DELETE FROM vat_report_rows WHERE kind = 'invoice' AND document_id = ANY (ids);
  INSERT INTO vat_report_rows (organization_id, kind, document_date, document_number, document_id, tax_rate, base, vat, paid, decimals, fragment)
  SELECT organization_id, 'invoice', invoice_date, invoice_number, id, tax_rate, base, vat, status = 'paid', decimals,
         concat(
           '{"invoiceNumber":', to_json(invoice_number), ',"customerName":', to_json(customer_name),
           ',"invoiceDate":"', to_char(invoice_date, 'YYYY-MM-DD'), '","baseAmount":"', base, '","vatAmount":"', vat,
           '","vatRate":"', CASE WHEN scale(trim_scale(tax_rate)) <= 2 THEN round(tax_rate, 2) ELSE trim_scale(tax_rate) END, '"}')
  FROM (
    SELECT organization_id, invoice_date, invoice_number, id, tax_rate, status, customer_name, decimals, base,
           vat + CASE WHEN row_number() OVER by_vat = 1 THEN posted - sum(vat) OVER invoice ELSE 0 END AS vat
    FROM (
      SELECT i.organization_id, i.id, i.invoice_number, i.customer_name, i.invoice_date, i.status, it.tax_rate, d.decimals,
             round(sum(it.line_total) * i.exchange_rate, d.decimals) AS base,
             round(sum(it.line_tax) * i.exchange_rate, d.decimals) AS vat,
             round(greatest(0, least(i.tax_amount, i.total_amount)) * i.exchange_rate, d.decimals) AS posted
      FROM invoices i
      JOIN invoice_items it ON it.invoice_id = i.id AND it.organization_id = i.organization_id
      JOIN organizations org ON org.id = i.organization_id
      LEFT JOIN currencies cur ON cur.code = org.base_currency
      CROSS JOIN LATERAL (SELECT coalesce(cur.decimal_places, 2) AS decimals) d
      WHERE i.id = ANY (ids) AND i.status IN ('sent', 'viewed', 'overdue', 'paid')
      GROUP BY i.id, it.tax_rate, d.decimals
    ) c
    WINDOW invoice AS (PARTITION BY id),
           by_vat AS (invoice ORDER BY vat DESC, tax_rate)
  ) o
  -- The key's order, so that a backfill lays the rows out on disk as a period reads them.
  ORDER BY organization_id, invoice_date, invoice_number, id, tax_rate;
END $$;

-- Replaces the rows of the given expenses: approved or paid with VAT get theirs, the others none
-- (decimals as for invoices).
CREATE FUNCTION vat_report_rows_refresh_expenses(ids uuid[]) RETURNS void LANGUAGE plpgsql
  SET search_path = public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  DELETE FROM vat_report_rows WHERE kind = 'expense' AND document_id = ANY (ids);
  INSERT INTO vat_report_rows (organization_id, kind, document_date, document_number, document_id, tax_rate, base, vat, paid, decimals, fragment)
  SELECT organization_id, 'expense', expense_date, expense_number, id, 0, base, vat, NULL, decimals,
         concat(
           '{"expenseNumber":', to_json(expense_number), ',"vendorName":', coalesce(to_json(vendor_name)::text, 'null'),
           ',"expenseDate":"', to_char(expense_date, 'YYYY-MM-DD'), '","baseAmount":"', base, '","vatAmount":"', vat,
           '","vatRate":"', rate, '"}')
  FROM (
    SELECT e.organization_id, e.expense_date, e.expense_number, e.id, e.vendor_name, d.decimals,
           round((e.amount - e.tax_amount) * e.exchange_rate, d.decimals) AS base,
           round(e.tax_amount * e.exchange_rate, d.decimals) AS vat,
           CASE WHEN e.amount = e.tax_amount THEN '0.00'
                ELSE round((e.tax_amount * 100)::numeric(1000, 30) / (e.amount - e.tax_amount), 2)::text END AS rate
    FROM expenses e
    JOIN organizations org ON org.id = e.organization_id
    LEFT JOIN currencies cur ON cur.code = org.base_currency
    CROSS JOIN LATERAL (SELECT coalesce(cur.decimal_places, 2) AS decimals) d
    WHERE e.id = ANY (ids) AND e.status IN ('approved', 'paid') AND e.tax_amount > 0
  ) x
  ORDER BY organization_id, expense_date, expense_number;
END $$;
REVOKE EXECUTE ON FUNCTION vat_report_rows_refresh_invoices(uuid[]), vat_report_rows_refresh_expenses(uuid[]) FROM PUBLIC;

-- Triggers: whatever writes a document (the API, a job, SQL by hand), its rows follow in the same
-- transaction. They run as the owner (SECURITY DEFINER, like the audit trigger), so the rows are
-- written whatever the caller's row-level security, and the application role cannot write them.
--
-- Invoices: a row trigger that fires only when something the rows show changes (WHEN), so drafts
-- (every invoice's creation and edits), sends of the e-mail claim, notes, views (sent -> viewed)
-- and the overdue job (sent/viewed -> overdue) never run it. Between two reportable statuses only
-- `paid` can change (sent -> paid): those rows are updated in place.
CREATE FUNCTION vat_report_rows_invoice() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status IN ('sent', 'viewed', 'overdue', 'paid') AND NEW.status IN ('sent', 'viewed', 'overdue', 'paid')
     AND (OLD.id, OLD.organization_id, OLD.invoice_number, OLD.customer_name, OLD.invoice_date, OLD.exchange_rate, OLD.tax_amount, OLD.total_amount)
         IS NOT DISTINCT FROM (NEW.id, NEW.organization_id, NEW.invoice_number, NEW.customer_name, NEW.invoice_date, NEW.exchange_rate, NEW.tax_amount, NEW.total_amount) THEN
    UPDATE vat_report_rows SET paid = (NEW.status = 'paid') WHERE kind = 'invoice' AND document_id = NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM vat_report_rows_refresh_invoices(ARRAY[OLD.id]);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM vat_report_rows_refresh_invoices(ARRAY[OLD.id, NEW.id]);
  ELSE
    PERFORM vat_report_rows_refresh_invoices(ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER vat_report_rows_insert AFTER INSERT ON invoices FOR EACH ROW
  WHEN (NEW.status IN ('sent', 'viewed', 'overdue', 'paid'))
  EXECUTE FUNCTION vat_report_rows_invoice();
CREATE TRIGGER vat_report_rows_update AFTER UPDATE ON invoices FOR EACH ROW
  WHEN ((OLD.status IN ('sent', 'viewed', 'overdue', 'paid') OR NEW.status IN ('sent', 'viewed', 'overdue', 'paid'))
        AND (OLD.status IN ('sent', 'viewed', 'overdue', 'paid'), OLD.status = 'paid', OLD.id, OLD.organization_id, OLD.invoice_number,
             OLD.customer_name, OLD.invoice_date, OLD.exchange_rate, OLD.tax_amount, OLD.total_amount)
            IS DISTINCT FROM (NEW.status IN ('sent', 'viewed', 'overdue', 'paid'), NEW.status = 'paid', NEW.id, NEW.organization_id, NEW.invoice_number,
             NEW.customer_name, NEW.invoice_date, NEW.exchange_rate, NEW.tax_amount, NEW.total_amount))
  EXECUTE FUNCTION vat_report_rows_invoice();
CREATE TRIGGER vat_report_rows_delete AFTER DELETE ON invoices FOR EACH ROW
  WHEN (OLD.status IN ('sent', 'viewed', 'overdue', 'paid'))
  EXECUTE FUNCTION vat_report_rows_invoice();

-- Invoice items: a statement trigger per event (one call per statement, however many lines),
-- which recomputes the invoices whose lines changed when they are reportable. The API writes
-- lines only with a draft (creation, edit), where it finds nothing to do; an invoice cancelled or
-- deleted with its lines loses its rows through the invoice trigger.
CREATE FUNCTION vat_report_rows_invoice_items() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT i.id) INTO ids FROM new_rows n JOIN invoices i ON i.id = n.invoice_id
    WHERE i.status IN ('sent', 'viewed', 'overdue', 'paid');
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT i.id) INTO ids
    FROM (SELECT invoice_id FROM new_rows UNION SELECT invoice_id FROM old_rows) n JOIN invoices i ON i.id = n.invoice_id
    WHERE i.status IN ('sent', 'viewed', 'overdue', 'paid');
  ELSE
    SELECT array_agg(DISTINCT i.id) INTO ids FROM old_rows o JOIN invoices i ON i.id = o.invoice_id
    WHERE i.status IN ('sent', 'viewed', 'overdue', 'paid');
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM vat_report_rows_refresh_invoices(ids);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER vat_report_rows_insert AFTER INSERT ON invoice_items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION vat_report_rows_invoice_items();
CREATE TRIGGER vat_report_rows_update AFTER UPDATE ON invoice_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION vat_report_rows_invoice_items();
CREATE TRIGGER vat_report_rows_delete AFTER DELETE ON invoice_items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION vat_report_rows_invoice_items();

-- Expenses: a row trigger, when something the row shows changes (creation as pending, edits of
-- pending expenses, rejections and approved -> paid never run it).
CREATE FUNCTION vat_report_rows_expense() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM vat_report_rows_refresh_expenses(ARRAY[OLD.id]);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM vat_report_rows_refresh_expenses(ARRAY[OLD.id, NEW.id]);
  ELSE
    PERFORM vat_report_rows_refresh_expenses(ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER vat_report_rows_insert AFTER INSERT ON expenses FOR EACH ROW
  WHEN (NEW.status IN ('approved', 'paid') AND NEW.tax_amount > 0)
  EXECUTE FUNCTION vat_report_rows_expense();
CREATE TRIGGER vat_report_rows_update AFTER UPDATE ON expenses FOR EACH ROW
  WHEN (((OLD.status IN ('approved', 'paid') AND OLD.tax_amount > 0) OR (NEW.status IN ('approved', 'paid') AND NEW.tax_amount > 0))
        AND (OLD.status IN ('approved', 'paid') AND OLD.tax_amount > 0, OLD.id, OLD.organization_id, OLD.expense_number, OLD.vendor_name,
             OLD.expense_date, OLD.amount, OLD.tax_amount, OLD.exchange_rate)
            IS DISTINCT FROM (NEW.status IN ('approved', 'paid') AND NEW.tax_amount > 0, NEW.id, NEW.organization_id, NEW.expense_number, NEW.vendor_name,
             NEW.expense_date, NEW.amount, NEW.tax_amount, NEW.exchange_rate))
  EXECUTE FUNCTION vat_report_rows_expense();
CREATE TRIGGER vat_report_rows_delete AFTER DELETE ON expenses FOR EACH ROW
  WHEN (OLD.status IN ('approved', 'paid') AND OLD.tax_amount > 0)
  EXECUTE FUNCTION vat_report_rows_expense();

-- A change of the base currency (allowed only before the first posting) changes the decimals the
-- amounts are rounded to: the organization's rows are recomputed.
CREATE FUNCTION vat_report_rows_organization() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM vat_report_rows_refresh_invoices(ARRAY(SELECT id FROM invoices WHERE organization_id = NEW.id));
  PERFORM vat_report_rows_refresh_expenses(ARRAY(SELECT id FROM expenses WHERE organization_id = NEW.id));
  RETURN NULL;
END $$;

CREATE TRIGGER vat_report_rows_base_currency AFTER UPDATE OF base_currency ON organizations FOR EACH ROW
  WHEN (OLD.base_currency IS DISTINCT FROM NEW.base_currency)
  EXECUTE FUNCTION vat_report_rows_organization();

-- Backfill: the rows of the documents that exist already, then their days.
SELECT vat_report_rows_refresh_invoices(ARRAY(SELECT id FROM invoices WHERE status IN ('sent', 'viewed', 'overdue', 'paid')));
SELECT vat_report_rows_refresh_expenses(ARRAY(SELECT id FROM expenses WHERE status IN ('approved', 'paid') AND tax_amount > 0));
INSERT INTO vat_report_days (organization_id, document_date, kind, list, vat, paid, decimals)
SELECT organization_id, document_date, kind, string_agg(fragment, ',' ORDER BY document_number, document_id, tax_rate), sum(vat), bool_and(paid),
       CASE WHEN min(decimals) = max(decimals) THEN min(decimals) END
FROM vat_report_rows
GROUP BY organization_id, document_date, kind
ORDER BY organization_id, document_date, kind;

-- The days follow the rows at commit: a deferred trigger recomputes the day of each changed row
-- (its old day too when a document's date changed). Deferred, because a day is shared by the
-- organization's documents of that date and two transactions must not write it from their own
-- snapshots: the recomputation takes a transaction-level advisory lock per organization and then
-- reads the rows with a new snapshot, which includes what a transaction that held the lock before
-- committed. Taken at commit, after every other lock of the transaction (balances, sums, the
-- document), so no transaction waits for another one's lock while holding this one: no deadlock
-- with the ledger's row locks (a send locks the invoice and then the balances, a payment the
-- balances and then the invoice). Until its commit a transaction sees its own days unchanged; the
-- report is read in its own transaction.
CREATE FUNCTION vat_report_day_refresh(org uuid, day date, k text) RETURNS void LANGUAGE plpgsql
  SET search_path = public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('vat_report_days ' || org::text, 0));
  DELETE FROM vat_report_days WHERE organization_id = org AND document_date = day AND kind = k;
  INSERT INTO vat_report_days (organization_id, document_date, kind, list, vat, paid, decimals)
  SELECT org, day, k, string_agg(fragment, ',' ORDER BY document_number, document_id, tax_rate), sum(vat), bool_and(paid),
         CASE WHEN min(decimals) = max(decimals) THEN min(decimals) END
  FROM vat_report_rows
  WHERE organization_id = org AND document_date = day AND kind = k
  HAVING count(*) > 0;
END $$;
REVOKE EXECUTE ON FUNCTION vat_report_day_refresh(uuid, date, text) FROM PUBLIC;

CREATE FUNCTION vat_report_rows_days() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM vat_report_day_refresh(OLD.organization_id, OLD.document_date, OLD.kind);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (OLD.organization_id, OLD.document_date, OLD.kind) IS DISTINCT FROM (NEW.organization_id, NEW.document_date, NEW.kind)) THEN
    PERFORM vat_report_day_refresh(NEW.organization_id, NEW.document_date, NEW.kind);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER vat_report_days AFTER INSERT OR UPDATE OR DELETE ON vat_report_rows
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vat_report_rows_days();

ANALYZE vat_report_rows;
ANALYZE vat_report_days;

-- E-invoices (issue 14, CONTRACT E1): the seller's address and payment account, the operator's
-- OIB (CIUS-HR HR-BT-5), the line codes an e-invoice needs and the date of supply.

ALTER TABLE organizations
  ADD COLUMN address_line1 text,
  ADD COLUMN city text,
  ADD COLUMN postal_code text,
  -- The default payment account shown on invoices and in payment codes (IBAN or, in Serbia,
  -- the 18-digit domestic account number).
  ADD COLUMN iban text;

ALTER TABLE users ADD COLUMN operator_oib text CHECK (operator_oib ~ '^[0-9]{11}$');

ALTER TABLE invoice_items
  -- UN/ECE Recommendation 20 unit code; H87 = piece.
  ADD COLUMN unit_code text NOT NULL DEFAULT 'H87' CHECK (unit_code ~ '^[A-Z0-9]{1,3}$'),
  -- HR: the KPD 2025 code of the line (CIUS-HR requires one per line).
  ADD COLUMN classification_code text,
  -- Required when tax_rate is 0: PDV-RS-... (Serbia) or a VATEX code (EN 16931).
  ADD COLUMN vat_exemption_code text;

-- NULL on invoices written before this migration: the date of supply is then the invoice date.
-- The payment reference is not stored: it is derived from the invoice number and the
-- organization's country, neither of which can change (docs/accounting/e-invoices.md).
ALTER TABLE invoices ADD COLUMN supply_date date;

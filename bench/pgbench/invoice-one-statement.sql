BEGIN;
SELECT set_config('app.user_id', '00000000-0000-0000-0000-000000000002', true), set_config('app.request_id', 'r1', true);
WITH n AS (
    INSERT INTO invoice_counters (organization_id, year, last_number) VALUES ('00000000-0000-0000-0000-000000000001', 2026, 1)
    ON CONFLICT (organization_id, year) DO UPDATE SET last_number = invoice_counters.last_number + 1
    RETURNING last_number
  ), inv AS (
    INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, supply_date, currency_code,
      exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, notes, terms, created_by)
    SELECT '00000000-0000-0000-0000-000000000001', 'INV-2026-' || lpad(n.last_number::text, 6, '0'),
      '00000000-0000-0000-0000-000000000003', 'Kupac', '2026-11-28'::date, '2026-12-28'::date, NULL::date, 'RSD', 1::numeric, 300::numeric, 60::numeric, 0::numeric, 360::numeric, 360::numeric, NULL, NULL, '00000000-0000-0000-0000-000000000002'::uuid
    FROM n
    RETURNING *
  ), items AS (
    INSERT INTO invoice_items (id, organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax, account_id,
      unit_code, classification_code, vat_exemption_code)
    SELECT gen_random_uuid(), inv.organization_id, inv.id, x.line_number, x.description, x.quantity, x.unit_price, x.tax_rate, x.line_total, x.line_tax, x.account_id,
      x.unit_code, x.classification_code, x.vat_exemption_code
    FROM inv CROSS JOIN jsonb_to_recordset('[{"line_number":1,"description":"Consulting","quantity":1,"unit_price":100,"tax_rate":20,"line_total":100,"line_tax":20,"unit_code":"H87"},{"line_number":2,"description":"Consulting","quantity":1,"unit_price":100,"tax_rate":20,"line_total":100,"line_tax":20,"unit_code":"H87"},{"line_number":3,"description":"Consulting","quantity":1,"unit_price":100,"tax_rate":20,"line_total":100,"line_tax":20,"unit_code":"H87"}]'::jsonb) AS x(
      id uuid, line_number integer, description text, quantity numeric, unit_price numeric, tax_rate numeric,
      line_total numeric, line_tax numeric, account_id uuid, unit_code text, classification_code text, vat_exemption_code text)
  )
  SELECT * FROM inv;
COMMIT;

INSERT INTO organizations (id, name, base_currency, country, language, fiscal_year_start) VALUES ('00000000-0000-0000-0000-000000000001', 'Bench', 'RSD', 'RS', 'sr', '2026-01-01');
INSERT INTO users (id, organization_id, email, full_name, role) VALUES ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001', 'a@b.rs', 'A', 'admin');
INSERT INTO contacts (id, organization_id, type, name, currency_code) VALUES ('00000000-0000-0000-0000-000000000003', '00000000-0000-0000-0000-000000000001', 'customer', 'Kupac', 'RSD');

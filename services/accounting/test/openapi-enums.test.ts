import { checkLists, type Exposure, enumOf, enumProblems, responseFields } from '@app/shared/test/openapi-enums';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

// Issue 25 item 6: enum-like fields are enums. Every column with a CHECK (... IN (...)) list, read
// back from the migrated database, is either shown in the answers (the pattern names its fields as
// `METHOD /path .field`) or internal (the reason given). Each field it names must be an OpenAPI
// enum with exactly the CHECK's values: a free string, a stale list or a new CHECK column left
// unclassified fails here.
const EXPOSURE: Record<string, Exposure> = {
  'account_period_sums.grain': { internal: 'running totals by day or month, never returned' },
  'account_types.normal_balance': { fields: / \S*\.normalBalance$/ },
  'contacts.type': { fields: /^\w+ \/api\/v1\/contacts\S* (\.data\[\])?\.type$/ },
  'exchange_rates.source': { fields: /^\w+ \/api\/v1\/exchange-rates\S* (\.data\[\])?\.source$/ },
  'expenses.status': {
    fields: /^\w+ \/api\/v1\/(expenses|purchase-invoices\/\{id\}\/expense)\S* (\.data\[\])?\.status$/,
  },
  'fiscal_records.message': { internal: 'which message (e-invoice or payment) a record is for; not returned' },
  'fiscal_records.status': { fields: / \S*\.fiscalization\.status$/ },
  'fiscalization_settings.environment': { fields: /^\w+ \/api\/v1\/organization\/fiscalization \.environment$/ },
  'intermediary_documents.kind': {
    internal: 'an invoice and its credit note are answered as `intermediary` and `creditNoteIntermediary`',
  },
  'intermediary_documents.status': { fields: / \S*\.(intermediary|creditNoteIntermediary)\.status$/ },
  'intermediary_payment_reports.payment_method': { fields: / \S*\.intermediary\.paymentReport\.paymentMethod$/ },
  'intermediary_payment_reports.status': { fields: / \S*\.intermediary\.paymentReport\.status$/ },
  'intermediary_settings.fiscalization_by': {
    fields: /^\w+ \/api\/v1\/organization\/intermediary \.fiscalizationBy$/,
  },
  'intermediary_settings.environment': { fields: /^\w+ \/api\/v1\/organization\/intermediary \.environment$/ },
  'intermediary_settings.provider': { fields: /^\w+ \/api\/v1\/organization\/intermediary \.provider$/ },
  'invoices.status': { fields: /^\w+ \/api\/v1\/(invoices|public\/invoices)\S* (\.data\[\])?\.status$/ },
  'ledger_transactions.reference_type': {
    fields: /^\w+ \/api\/v1\/(transactions|bank-accounts)\S* \S*\.referenceType$/,
  },
  // Read through the logged_actions view (migration 20261204000100).
  'audit_rows.action': { fields: /^GET \/api\/v1\/audit-log \.data\[\]\.action$/ },
  'organizations.country': {
    fields: /^\w+ \/api\/v1\/(auth\/\S+ \.organization|organization |settings\/tax-rates |reports\/vat )\.country$/,
  },
  'organizations.language': { fields: /^\w+ \/api\/v1\/(auth\/\S+ \.organization|organization )\.language$/ },
  'purchase_invoices.source': { fields: /^\w+ \/api\/v1\/purchase-invoices\S* (\.data\[\])?\.source$/ },
  'sef_documents.kind': { internal: 'an invoice and its credit note are answered as `sef` and `creditNoteSef`' },
  'sef_settings.environment': { fields: /^\w+ \/api\/v1\/organization\/sef \.environment$/ },
  'users.role': { fields: / \S*\.role$/ },
  'vat_report_days.kind': { internal: 'VAT report rows by day, never returned' },
  'vat_report_rows.kind': { internal: 'VAT report rows, never returned as such' },
};

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

describe('CHECK-listed columns in the OpenAPI document', () => {
  it('are enums with the CHECK values wherever an answer shows them', async () => {
    const checks = await checkLists(h.t.db.system);
    expect(checks.get('expenses.status')).toEqual(['pending', 'approved', 'paid', 'rejected']);
    expect(enumProblems(h.app.swagger(), checks, EXPOSURE)).toEqual([]);
  });

  it('the walk sees a free string as one (the test can fail)', () => {
    const doc = {
      paths: {
        '/api/v1/expenses': {
          get: {
            responses: {
              200: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        data: { type: 'array', items: { type: 'object', properties: { status: { type: 'string' } } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    expect(responseFields(doc).map((f) => [f.where, enumOf(f.schema)])).toContainEqual([
      'GET /api/v1/expenses .data[].status',
      undefined,
    ]);
    const problems = enumProblems(doc, new Map([['expenses.status', ['pending', 'paid']]]), {
      'expenses.status': EXPOSURE['expenses.status'],
    });
    expect(problems).toEqual(['GET /api/v1/expenses .data[].status (expenses.status): free string, not an enum']);
  });
});

import { sql } from 'kysely';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCustomerLocked } from '../src/modules/invoices/invoices.repository.js';
import { INVOICE_SORTS, Invoice, InvoiceList } from '../src/modules/invoices/invoices.schemas.js';
import { Transaction } from '../src/modules/ledger/ledger.schemas.js';
import { Vat } from '../src/modules/reports/reports.schemas.js';
import { vatReportJsonFromDocuments } from '../src/modules/reports/reports.sql.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, invoiceBody, patchStatus } from './invoices-fixtures.js';

/**
 * The hand-written statements of the modules' `*.sql.ts` files, run on a migrated database, their
 * output held to the response schema of the route that serves it (Value.Check: every required key
 * present with its type, so a column or key renamed in the SQL fails here, not in a client).
 * The list page and the VAT report are sent as the JSON text PostgreSQL builds, never serialized
 * against the schema on the way out, so this is the only place the schema meets them.
 */
let t: TestApp;
let owner: Session;
let customerId: string;

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject(authed(owner.token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) }));

function expectSchema(schema: TSchema, value: unknown, what: string) {
  const errors = [...Value.Errors(schema, value)].map((e) => `${e.instancePath} ${e.message}`);
  expect(errors, what).toEqual([]);
}

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, { baseCurrency: 'RSD', country: 'RS', language: 'sr' });
  customerId = (await createCustomer(t.app, owner, { name: 'Kupac "Hot" \\ SQL' })).id;
  for (const [i, date] of ['2026-03-02', '2026-03-15', '2026-04-01'].entries()) {
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: date, dueDate: '2026-04-30' }),
    );
    if (i < 2) expect((await patchStatus(t.app, owner, inv.id, { action: 'send' })).statusCode).toBe(200);
    // The list's LEFT JOINs (issue 28) met with a row too: an SEF document, a fiscalization record.
    if (i === 0)
      await sql`INSERT INTO sef_documents (organization_id, invoice_id, kind, request_id, status)
        VALUES (${owner.orgId}, ${inv.id}, 'invoice', gen_random_uuid(), 'Sent')`.execute(t.t.db.system);
    if (i === 1)
      await sql`INSERT INTO fiscal_records (organization_id, invoice_id, message, request_id, status)
        VALUES (${owner.orgId}, ${inv.id}, 'eracun', gen_random_uuid(), 'Fiscalized')`.execute(t.t.db.system);
  }
  const vendorId = (await createCustomer(t.app, owner, { type: 'vendor', name: 'Dobavljač' })).id;
  const expense = await api('POST', '/expenses', {
    vendorId,
    expenseDate: '2026-03-10',
    category: 'Office',
    amount: 1200,
    taxAmount: 200,
    paymentMethod: 'bank_transfer',
    description: 'Papir',
  });
  expect(expense.statusCode).toBe(201);
  expect((await api('PATCH', `/expenses/${expense.json().id}/approve`)).statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe('invoices.sql.ts', () => {
  it('INSERT_NUMBERED_SQL: the created invoice matches Invoice', async () => {
    const res = await api('POST', '/invoices', invoiceBody(customerId, { invoiceDate: '2026-03-20' }));
    expect(res.statusCode).toBe(201);
    expectSchema(Invoice, res.json(), 'POST /invoices');
  });

  it("CUSTOMER_LOCKED_SQL: the contact as stored with the organization's rates in their order, only for its organization and user", async () => {
    const db = t.t.db.system;
    const stored = await db.selectFrom('contacts').selectAll().where('id', '=', customerId).executeTakeFirstOrThrow();
    const rates = (
      await db
        .selectFrom('tax_rates')
        .select('rate')
        .where('organization_id', '=', owner.orgId)
        .orderBy('position')
        .execute()
    ).map((r) => String(r.rate));
    expect(rates.length).toBeGreaterThan(1);
    const found = await db
      .transaction()
      .execute((trx) => findCustomerLocked(trx, owner.orgId, customerId, owner.userId));
    expect(found).toEqual({ ...stored, organization_tax_rates: rates });
    const other = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    for (const [org, user] of [
      [other.orgId, owner.userId],
      [owner.orgId, other.userId],
    ])
      expect(await db.transaction().execute((trx) => findCustomerLocked(trx, org, customerId, user))).toBeUndefined();
  });

  it('listInvoicesSql: every filter combination, sort and order gives an InvoiceList', async () => {
    const filters: Array<[string, string]> = [
      // Sent and past due: the effective status (a CASE in the statement) is overdue.
      ['status', 'overdue'],
      ['customerId', customerId],
      ['fromDate', '2026-03-01'],
      ['toDate', '2026-03-31'],
      // Part of the customer's name, in another case, with its quote and backslash (LIKE's escape character).
      ['search', 'hot" \\ sq'],
    ];
    let checked = 0;
    let combinations = 0;
    for (let mask = 0; mask < 1 << filters.length; mask++) {
      const present = filters.filter((_, i) => mask & (1 << i));
      for (const sort of INVOICE_SORTS) {
        for (const order of ['asc', 'desc']) {
          const query = new URLSearchParams([...present, ['sort', sort], ['order', order]]);
          combinations++;
          const res = await api('GET', `/invoices?${query}`);
          expect(res.statusCode, res.body).toBe(200);
          const body = JSON.parse(res.body);
          expectSchema(InvoiceList, body, `GET /invoices?${query}`);
          checked += body.data.length > 0 ? 1 : 0;
        }
      }
    }
    // Every combination lists invoices: no schema is met by an empty page alone.
    expect(checked).toBe(combinations);
    const all = JSON.parse((await api('GET', '/invoices?perPage=100')).body).data;
    expect(all.filter((i: { sef: unknown }) => i.sef !== null)).toHaveLength(1);
    expect(all.filter((i: { fiscalization: unknown }) => i.fiscalization !== null)).toHaveLength(1);
    expect(combinations).toBe(32 * INVOICE_SORTS.length * 2);
  });
});

describe('ledger.sql.ts', () => {
  it('MANUAL_POSTING_SQL: the posting matches Transaction', async () => {
    const accounts = (await api('GET', '/accounts')).json().data as Array<{ code: string; id: string }>;
    const id = (code: string) => accounts.find((a) => a.code === code)!.id;
    const res = await api('POST', '/transactions', {
      transactionDate: '2026-03-05',
      description: 'Uplata osnivača',
      debitAccountId: id('1100'),
      creditAccountId: id('3000'),
      amount: 1500.5,
    });
    expect(res.statusCode, res.body).toBe(201);
    expectSchema(Transaction, res.json(), 'POST /transactions');
  });
});

describe('reports.sql.ts', () => {
  it('the VAT report from its precomputed rows matches Vat, with and without the lists', async () => {
    for (const detail of ['documents', 'totals']) {
      const res = await api('GET', `/reports/vat?from=2026-03-01&to=2026-03-31&detail=${detail}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = JSON.parse(res.body);
      expectSchema(Vat, body, `GET /reports/vat detail=${detail}`);
      if (detail === 'documents') {
        // One row per invoice and rate: the two sent invoices carry two rates each.
        expect(body.outputVAT.invoices.length).toBe(4);
        expect(body.inputVAT.expenses.length).toBe(1);
      }
    }
  });

  it('vatReportJsonFromDocuments matches Vat, with and without the lists', async () => {
    const org = { id: owner.orgId, country: 'RS', baseCurrency: 'RSD' };
    for (const withLists of [true, false]) {
      const text = await t.t.db.withContext({ kind: 'tenant', orgId: owner.orgId }, (db) =>
        vatReportJsonFromDocuments(db, org, '2026-03-01', '2026-03-31', 2, withLists),
      );
      expectSchema(Vat, JSON.parse(text), `from the documents, lists: ${withLists}`);
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vatReportJsonFromDocuments } from '../src/modules/reports/reports.sql.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, patchStatus } from './invoices-fixtures.js';

/**
 * The VAT report is read from rows the database precomputes when a document changes
 * (vat_report_rows and vat_report_days, migration 20261123007000). Its text must be, byte for
 * byte, what the statement that computed it from the documents on every request answered: that
 * statement is kept as the report's definition (vatReportJsonFromDocuments) and every report is compared with it, after
 * the book is written through the API, after status changes of documents whose rows exist
 * already, and after writes past the API (SQL on invoices, items and expenses).
 */

// The report computed from the documents by one statement (reports.repository.ts
// vatReportJsonFromDocuments: the statement every request ran before the rows were precomputed,
// kept as the report's definition, whose figures reports-book.test.ts asserts one by one), run as
// the table owner, so row-level security plays no part in the reference.
const reference = (
  t: TestApp,
  org: { id: string; country: string; baseCurrency: string },
  from: string,
  to: string,
  withLists: boolean,
) => vatReportJsonFromDocuments(t.t.db.system, org, from, to, 2, withLists);

const PERIODS = [
  ['2026-06-01', '2026-06-30'],
  ['2026-06-03', '2026-06-03'],
  ['2026-06-01', '2026-08-31'],
  ['2026-07-01', '2026-07-31'],
  ['2026-08-01', '2026-08-31'],
  ['2026-01-01', '2026-12-31'],
  ['2026-10-15', '2026-11-10'],
  ['2025-01-01', '2025-01-31'],
] as const;

let t: TestApp;
let s: Session;
let org: { id: string; country: string; baseCurrency: string };
const ids: Record<string, string> = {};

const vat = (query: string) => t.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/reports/vat?${query}` }));

/** Every period, with and without the lists: the response is the reference statement's text. */
async function expectReference() {
  for (const [from, to] of PERIODS) {
    for (const withLists of [true, false]) {
      const res = await vat(`from=${from}&to=${to}${withLists ? '' : '&detail=totals'}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body, `${from}..${to}${withLists ? '' : ' totals'}`).toBe(
        await reference(t, org, from, to, withLists),
      );
    }
  }
}

async function call(method: string, url: string, payload?: object, status = 200) {
  const res = await t.app.inject(authed(s.token, { method, url: `/api/v1/${url}`, payload }));
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json();
}

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off', ACCESS_TOKEN_TTL: '20d' });
  s = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
  org = { id: s.orgId, country: 'HR', baseCurrency: 'EUR' };
  const eur = await createCustomer(t.app, s, {
    name: 'Kupac "Zvijezda" \\ d.o.o.',
    currencyCode: 'EUR',
    country: 'HR',
  });
  const usd = await createCustomer(t.app, s, { name: 'Acme Inc.', currencyCode: 'USD', country: 'DE' });
  const invoice = async (key: string, customerId: string, invoiceDate: string, items: object[], extra: object = {}) => {
    const inv = await createInvoice(t.app, s, { customerId, invoiceDate, dueDate: '2026-12-31', items, ...extra });
    ids[key] = inv.id;
    return inv;
  };
  const status = async (key: string, payload: Record<string, unknown>) =>
    expect((await patchStatus(t.app, s, ids[key], payload)).statusCode).toBe(200);

  // Several rates, one of them on two lines, and 0 %.
  await invoice('rates', eur.id, '2026-06-03', [
    { description: 'a', quantity: 3, unitPrice: 33.33, taxRate: 25 },
    { description: 'b', quantity: 1, unitPrice: 10.01, taxRate: 25 },
    { description: 'c', quantity: 2, unitPrice: 7.77, taxRate: 13 },
    { description: 'd', quantity: 1, unitPrice: 19.99, taxRate: 5 },
    { description: 'e', quantity: 1, unitPrice: 50, taxRate: 0, vatExemptionCode: 'VATEX-EU-O' },
  ]);
  // USD at the seeded rate: 0.25 and 0.52 of VAT convert to 0.24 + 0.50, the sale posts 0.75, so
  // the 13 % row carries the cent (rounding difference to the largest row).
  await invoice('usd', usd.id, '2026-06-03', [
    { description: 'a', quantity: 1, unitPrice: 1, taxRate: 25 },
    { description: 'b', quantity: 1, unitPrice: 4, taxRate: 13 },
  ]);
  // A discount beyond the net: the rows give back VAT (rounding difference, lower rate on a tie).
  await invoice(
    'discount',
    eur.id,
    '2026-06-10',
    [
      { description: 'a', quantity: 1, unitPrice: 100, taxRate: 20 },
      { description: 'b', quantity: 1, unitPrice: 200, taxRate: 10 },
    ],
    { discountAmount: 310 },
  );
  await invoice('cancelled', eur.id, '2026-06-10', [{ description: 'x', quantity: 1, unitPrice: 70, taxRate: 25 }]);
  await invoice('draft', eur.id, '2026-06-10', [{ description: 'x', quantity: 1, unitPrice: 80, taxRate: 25 }]);
  await invoice('paid', eur.id, '2026-08-10', [{ description: 'x', quantity: 1, unitPrice: 90, taxRate: 25 }]);
  await invoice('laterPaid', usd.id, '2026-08-10', [{ description: 'x', quantity: 2, unitPrice: 45.55, taxRate: 25 }]);
  await invoice('paidCancelled', usd.id, '2026-07-20', [
    { description: 'x', quantity: 1, unitPrice: 12.34, taxRate: 13 },
  ]);
  for (const key of ['rates', 'usd', 'discount', 'cancelled', 'paid', 'laterPaid', 'paidCancelled'])
    await status(key, { action: 'send' });
  await status('cancelled', { action: 'cancel' });
  await status('paid', { action: 'mark-paid', paidAt: '2026-08-12' });
  await status('paidCancelled', { action: 'mark-paid', paidAt: '2026-07-21' });
  await status('paidCancelled', { action: 'cancel' });

  const vendor = await createCustomer(t.app, s, { type: 'vendor', name: 'Dobavljač Šipka' });
  const expense = async (key: string, body: object) => {
    ids[key] = (await call('POST', 'expenses', { category: 'c', ...body }, 201)).id;
  };
  await expense('approved', { vendorId: vendor.id, expenseDate: '2026-06-03', amount: 125, taxAmount: 25 });
  await expense('paidExpense', { expenseDate: '2026-06-03', amount: 113.33, taxAmount: 13.04, currencyCode: 'USD' });
  await expense('rejected', { expenseDate: '2026-06-15', amount: 50, taxAmount: 10 });
  await expense('pending', { expenseDate: '2026-07-15', amount: 60, taxAmount: 12 });
  await expense('noVat', { expenseDate: '2026-06-15', amount: 40 });
  await expense('allVat', { expenseDate: '2026-08-20', amount: 5, taxAmount: 5 });
  for (const key of ['approved', 'paidExpense', 'noVat', 'allVat']) await call('PATCH', `expenses/${ids[key]}/approve`);
  await call('PATCH', `expenses/${ids.paidExpense}/pay`, { paidAt: '2026-06-20' });
  await call('PATCH', `expenses/${ids.rejected}/reject`, { reason: 'no' });

  // Another organization's documents on the same days never show.
  const other = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
  const otherCustomer = await createCustomer(t.app, other, { currencyCode: 'EUR', country: 'HR' });
  const otherInvoice = await createInvoice(t.app, other, {
    customerId: otherCustomer.id,
    invoiceDate: '2026-06-03',
    dueDate: '2026-07-03',
    items: [{ description: 'o', quantity: 1, unitPrice: 5, taxRate: 25 }],
  });
  expect((await patchStatus(t.app, other, otherInvoice.id, { action: 'send' })).statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe('VAT report from the precomputed rows', () => {
  it("is the reference statement's text for every period, with and without the lists", async () => {
    await expectReference();
    const june = (await vat('from=2026-06-01&to=2026-06-30')).json();
    // The book has what it is meant to test: the USD invoice's cent on its 13 % row, the discount's
    // VAT given back by the 10 % row, four rates on one invoice, an expense at 0.00 %.
    const rows = (n: number) =>
      june.outputVAT.invoices.filter(
        (r: { invoiceNumber: string }) => r.invoiceNumber === june.outputVAT.invoices[n].invoiceNumber,
      );
    expect(june.outputVAT.invoices.map((r: { vatRate: string }) => r.vatRate)).toEqual([
      '0.00',
      '5.00',
      '13.00',
      '25.00',
      '13.00',
      '25.00',
      '10.00',
      '20.00',
    ]);
    expect(rows(4).map((r: { vatAmount: string }) => r.vatAmount)).toEqual(['0.51', '0.24']);
    expect(rows(6).map((r: { vatAmount: string }) => r.vatAmount)).toEqual(['10.00', '20.00']);
    expect(june.inputVAT.expenses).toHaveLength(2);
    expect((await vat('from=2026-08-01&to=2026-08-31')).json().inputVAT.expenses[0].vatRate).toBe('0.00');
  });

  it('follows status changes of documents whose rows exist: paid later, cancelled after payment', async () => {
    const august = async () => (await vat('from=2026-08-01&to=2026-08-31')).json().reconciliationStatus.allInvoicesPaid;
    expect(await august()).toBe(false);
    expect((await patchStatus(t.app, s, ids.laterPaid, { action: 'mark-paid', paidAt: '2026-08-30' })).statusCode).toBe(
      200,
    );
    expect(await august()).toBe(true);
    await expectReference();
    expect((await patchStatus(t.app, s, ids.paid, { action: 'cancel' })).statusCode).toBe(200);
    expect((await vat('from=2026-08-01&to=2026-08-31')).json().outputVAT.invoices).toHaveLength(1);
    // The pending expense approved: July's allExpensesApproved turns true and the expense is listed.
    await call('PATCH', `expenses/${ids.pending}/approve`);
    expect((await vat('from=2026-07-01&to=2026-07-31')).json().reconciliationStatus.allExpensesApproved).toBe(true);
    await expectReference();
  });

  it('follows writes past the API: SQL on invoices, their items and expenses', async () => {
    const db = t.t.db.system;
    await sql`UPDATE invoices SET customer_name = ${'Novo "ime" \\ d.o.o.'}, updated_at = now() WHERE id = ${ids.rates}`.execute(
      db,
    );
    await sql`DELETE FROM invoice_items WHERE invoice_id = ${ids.rates} AND tax_rate = 5`.execute(db);
    await sql`INSERT INTO invoice_items (organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax)
              VALUES (${s.orgId}, ${ids.usd}, 9, 'added', 1, 10, 12.5, 10, 1.25)`.execute(db);
    await sql`UPDATE invoice_items SET tax_rate = 13.000, line_tax = 1.3 WHERE invoice_id = ${ids.usd} AND line_number = 9`.execute(
      db,
    );
    await sql`UPDATE invoices SET invoice_date = '2026-07-01' WHERE id = ${ids.discount}`.execute(db);
    await sql`UPDATE invoices SET status = 'overdue' WHERE id = ${ids.usd}`.execute(db);
    await sql`UPDATE expenses SET expense_date = '2026-08-01', vendor_name = NULL WHERE id = ${ids.approved}`.execute(
      db,
    );
    await sql`UPDATE expenses SET tax_amount = 0 WHERE id = ${ids.allVat}`.execute(db);
    await expectReference();
    // Several statements in one transaction: the days are brought up to date at its commit.
    await db.transaction().execute(async (trx) => {
      await sql`UPDATE invoices SET status = 'sent' WHERE id = ${ids.draft}`.execute(trx);
      await sql`UPDATE invoices SET status = 'paid' WHERE id = ${ids.draft}`.execute(trx);
      await sql`UPDATE expenses SET status = 'approved' WHERE id = ${ids.rejected}`.execute(trx);
      await sql`DELETE FROM invoices WHERE id = ${ids.rates}`.execute(trx);
    });
    await expectReference();
  });

  it('follows documents written in bulk by SQL, and sends a long report in pieces with its length', async () => {
    const db = t.t.db.system;
    const customer = (
      await sql<{
        id: string;
      }>`SELECT id FROM contacts WHERE organization_id = ${s.orgId} AND type = 'customer' LIMIT 1`.execute(db)
    ).rows[0].id;
    // Like the bench's generator: the invoices (already sent or paid) in one statement, their lines in
    // another (the lines' statement trigger computes them all), expenses already approved.
    await sql`
      INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code,
        exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, status)
      SELECT ${s.orgId}, 'BULK-' || lpad(i::text, 4, '0'), ${customer}, 'Kupac ' || (i % 7), date '2026-10-01' + i % 61, date '2026-12-31',
             CASE WHEN i % 3 = 0 THEN 'USD' ELSE 'EUR' END, CASE WHEN i % 3 = 0 THEN 0.968898 ELSE 1 END,
             (i % 50) + 1.11 + 2.22, round(((i % 50) + 1.11) * 0.25, 2) + round(2.22 * 0.13, 2), 0,
             (i % 50) + 3.33 + round(((i % 50) + 1.11) * 0.25, 2) + round(2.22 * 0.13, 2), 0,
             (ARRAY['sent', 'viewed', 'overdue', 'paid', 'draft', 'cancelled'])[1 + i % 6]
      FROM generate_series(1, 300) AS i`.execute(db);
    await sql`
      INSERT INTO invoice_items (organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax)
      SELECT v.organization_id, v.id, l.n, 'x', 1, l.price, l.rate, l.price, round(l.price * l.rate / 100, 2)
      FROM invoices v, LATERAL (VALUES (1, v.subtotal - 2.22, 25), (2, 2.22, 13)) AS l (n, price, rate)
      WHERE v.organization_id = ${s.orgId} AND v.invoice_number LIKE 'BULK-%'`.execute(db);
    await sql`
      INSERT INTO expenses (organization_id, expense_number, vendor_name, expense_date, category, amount, tax_amount, currency_code, exchange_rate, base_amount, status)
      SELECT ${s.orgId}, 'BULK-EXP-' || i, 'Dobavljač ' || i, date '2026-10-01' + i % 61, 'c', 100 + i, round((100 + i) / 6.0, 2), 'EUR', 1, 100 + i,
             CASE WHEN i % 4 = 0 THEN 'pending' ELSE 'approved' END
      FROM generate_series(1, 80) AS i`.execute(db);
    const res = await vat('from=2026-10-01&to=2026-11-30');
    expect(res.body.length).toBeGreaterThan(40_000);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(res.json().outputVAT.invoices).toHaveLength(200 * 2);
    expect(res.json().inputVAT.expenses).toHaveLength(60);
    expect(res.body).toBe(await reference(t, org, '2026-10-01', '2026-11-30', true));
    await expectReference();
  });

  it('computes the report from the documents when the rows were rounded to other decimals', async () => {
    await sql`UPDATE vat_report_days SET decimals = 3 WHERE organization_id = ${s.orgId} AND document_date = '2026-06-03'`.execute(
      t.t.db.system,
    );
    await expectReference();
    // Those days (invoices and expenses of 2026-06-03) stay until the rows are recomputed: a change of
    // the base currency does that.
    await sql`UPDATE organizations SET base_currency = 'EUR' WHERE id = ${s.orgId}`.execute(t.t.db.system);
    expect(
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM vat_report_days WHERE organization_id = ${s.orgId} AND decimals = 3`.execute(
          t.t.db.system,
        )
      ).rows[0].n,
    ).toBe(2);
    await sql`UPDATE organizations SET base_currency = 'USD' WHERE id = ${s.orgId}`.execute(t.t.db.system);
    await sql`UPDATE organizations SET base_currency = 'EUR' WHERE id = ${s.orgId}`.execute(t.t.db.system);
    expect(
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM vat_report_days WHERE organization_id = ${s.orgId} AND decimals = 3`.execute(
          t.t.db.system,
        )
      ).rows[0].n,
    ).toBe(0);
    await expectReference();
  });

  it("lets the service role read its organization's rows only, and write none", async () => {
    const asTenant = (q: ReturnType<typeof sql>) =>
      t.t.db.withContext({ kind: 'tenant', orgId: s.orgId }, (db) => q.execute(db));
    const seen = await asTenant(
      sql`SELECT DISTINCT organization_id FROM vat_report_rows UNION SELECT DISTINCT organization_id FROM vat_report_days`,
    );
    expect(seen.rows).toEqual([{ organization_id: s.orgId }]);
    await expect(asTenant(sql`DELETE FROM vat_report_days`)).rejects.toThrow(/permission denied/);
    await expect(asTenant(sql`UPDATE vat_report_rows SET fragment = '{}'`)).rejects.toThrow(/permission denied/);
  });
});

/**
 * The days are shared by the documents of a date: concurrent sends, payments and approvals of one
 * day must neither lose a row nor deadlock with the ledger's row locks (a send locks the invoice,
 * then the balances; a payment the balances, then the invoice). Needs real concurrent connections
 * (TEST_DATABASE_URL); PGlite runs one statement at a time.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
describe.skipIf(!onPostgres)('VAT report rows under concurrent writes on real PostgreSQL', () => {
  it('equal the reference after concurrent sends, payments and approvals of one day', async () => {
    const c = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const customer = await createCustomer(t.app, c, { currencyCode: 'EUR', country: 'HR' });
    const day = '2026-09-15';
    const invoices = [];
    for (let i = 0; i < 24; i++) {
      invoices.push(
        await createInvoice(t.app, c, {
          customerId: customer.id,
          invoiceDate: day,
          dueDate: '2026-10-15',
          items: [
            { description: 'a', quantity: 1, unitPrice: 10 + i, taxRate: 25 },
            { description: 'b', quantity: 1, unitPrice: (333 * (i + 1)) / 100, taxRate: 13 },
          ],
        }),
      );
    }
    for (const inv of invoices.slice(0, 12))
      expect((await patchStatus(t.app, c, inv.id, { action: 'send' })).statusCode).toBe(200);
    const expenses = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject(
        authed(c.token, {
          method: 'POST',
          url: '/api/v1/expenses',
          payload: { category: 'c', expenseDate: day, amount: 12.5 + i, taxAmount: 2.5 },
        }),
      );
      expect(res.statusCode).toBe(201);
      expenses.push(res.json().id as string);
    }
    const results = await Promise.all([
      ...invoices.slice(12).map((inv) => patchStatus(t.app, c, inv.id, { action: 'send' })),
      ...invoices.slice(0, 12).map((inv) => patchStatus(t.app, c, inv.id, { action: 'mark-paid', paidAt: day })),
      ...expenses.map((id) =>
        t.app.inject(authed(c.token, { method: 'PATCH', url: `/api/v1/expenses/${id}/approve` })),
      ),
    ]);
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    const res = await t.app.inject(
      authed(c.token, { method: 'GET', url: `/api/v1/reports/vat?from=${day}&to=${day}` }),
    );
    expect(res.json().outputVAT.invoices).toHaveLength(48);
    expect(res.json().inputVAT.expenses).toHaveLength(10);
    expect(res.body).toBe(await reference(t, { id: c.orgId, country: 'HR', baseCurrency: 'EUR' }, day, day, true));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Vat } from '../src/modules/reports/reports.schemas.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { addTaxRates, createCustomer, createInvoice, patchStatus } from './invoices-fixtures.js';

/**
 * The VAT report's JSON is built as text by PostgreSQL and sent as it is (reports.repository.ts
 * vatReportJson); these pin what serialising the report object used to guarantee.
 */
let t: TestApp;
let owner: Session;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off', ACCESS_TOKEN_TTL: '20d' });
  owner = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
});
afterAll(async () => t?.close());

const vat = (s: Session, query: string) =>
  t.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/reports/vat?${query}` }));

describe('VAT report as JSON text', () => {
  it("is compact JSON in the schema's key order, with names escaped as JSON strings", async () => {
    const name = 'Kupac "Zvijezda" \\ Čačić / d.o.o.';
    const customer = await createCustomer(t.app, owner, { name });
    const inv = await createInvoice(t.app, owner, {
      customerId: customer.id,
      invoiceDate: '2026-06-03',
      dueDate: '2026-07-03',
      items: [{ description: 'Usluga', quantity: 1, unitPrice: 100, taxRate: 25 }],
    });
    expect((await patchStatus(t.app, owner, inv.id, { action: 'send' })).statusCode).toBe(200);

    const res = await vat(owner, 'from=2026-06-01&to=2026-06-30');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(res.body).toBe(JSON.stringify(body));
    expect(Object.keys(body)).toEqual(Object.keys(Vat.properties));
    expect(Object.keys(body.reconciliationStatus)).toEqual([
      'allInvoicesPaid',
      'allExpensesApproved',
      'unmatchedTransactions',
    ]);
    expect(body.outputVAT).toEqual({
      total: '25.00',
      invoices: [
        {
          invoiceNumber: inv.invoiceNumber,
          customerName: name,
          invoiceDate: '2026-06-03',
          baseAmount: '100.00',
          vatAmount: '25.00',
          vatRate: '25.00',
        },
      ],
    });
    expect(Object.keys(body.outputVAT.invoices[0])).toEqual([
      'invoiceNumber',
      'customerName',
      'invoiceDate',
      'baseAmount',
      'vatAmount',
      'vatRate',
    ]);
    expect(body.reconciliationStatus).toEqual({
      allInvoicesPaid: false,
      allExpensesApproved: true,
      unmatchedTransactions: 0,
    });
  });

  it("gives an invoice's rounding difference to its row with the largest VAT, the lower rate on a tie", async () => {
    const s = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    await addTaxRates(t.app, s, [20, 10]);
    const customer = await createCustomer(t.app, s, { name: 'Kupac' });
    // Both rates carry 20.00 VAT; the discount beyond the net (310 of 300) leaves 30.00 posted to
    // 2300 (A8), so the rows must give back 10.00, from the lower rate, listed first.
    const inv = await createInvoice(t.app, s, {
      customerId: customer.id,
      invoiceDate: '2026-06-10',
      dueDate: '2026-07-10',
      discountAmount: 310,
      items: [
        { description: 'A', quantity: 1, unitPrice: 100, taxRate: 20 },
        { description: 'B', quantity: 1, unitPrice: 200, taxRate: 10 },
      ],
    });
    expect((await patchStatus(t.app, s, inv.id, { action: 'send' })).statusCode).toBe(200);
    const body = (await vat(s, 'from=2026-06-01&to=2026-06-30')).json();
    expect(
      body.outputVAT.invoices.map((r: { vatRate: string; baseAmount: string; vatAmount: string }) => [
        r.vatRate,
        r.baseAmount,
        r.vatAmount,
      ]),
    ).toEqual([
      ['10.00', '200.00', '10.00'],
      ['20.00', '100.00', '20.00'],
    ]);
    expect(body.outputVAT.total).toBe('30.00');
    expect(body.netVAT).toBe('30.00');
    // detail=totals sums what each invoice posted instead of the rows: the same figure.
    expect((await vat(s, 'from=2026-06-01&to=2026-06-30&detail=totals')).json().outputVAT).toEqual({ total: '30.00' });
  });

  it('detail=totals answers the same figures without the two lists; detail=documents is the default', async () => {
    const query = 'from=2026-06-01&to=2026-06-30';
    const full = (await vat(owner, query)).json();
    expect((await vat(owner, `${query}&detail=documents`)).json()).toEqual(full);
    const res = await vat(owner, `${query}&detail=totals`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      JSON.stringify({
        ...full,
        outputVAT: { total: full.outputVAT.total },
        inputVAT: { total: full.inputVAT.total },
      }),
    );
    expect(full.outputVAT.invoices.length).toBeGreaterThan(0);
    const bad = await vat(owner, `${query}&detail=summary`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('SVC-9003');
  });

  it('answers an empty period with empty lists and zero totals', async () => {
    const s = await registerOrg(t.app, { baseCurrency: 'BAM', country: 'BA', language: 'bs' });
    const res = await vat(s, 'from=2026-01-01&to=2026-01-31');
    expect(res.body).toBe(
      JSON.stringify({
        period: { from: '2026-01-01', to: '2026-01-31' },
        country: 'BA',
        baseCurrency: 'BAM',
        outputVAT: { total: '0.00', invoices: [] },
        inputVAT: { total: '0.00', expenses: [] },
        netVAT: '0.00',
        reconciliationStatus: { allInvoicesPaid: true, allExpensesApproved: true, unmatchedTransactions: 0 },
      }),
    );
  });
});

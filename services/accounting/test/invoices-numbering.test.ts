import { describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg } from './helpers.js';
import { createCustomer, createInvoice, invoiceBody } from './invoices-fixtures.js';

/**
 * A4 invoice numbers as production assigns them: through the API, from invoice_counters and the
 * numbered insert's SQL. In a file of its own so that the pure arithmetic of invoices-totals.test.ts
 * runs without a database (the mutation runs of invoice-totals and invoice-numbering, docs/testing.md).
 */
describe('invoice numbering as production assigns it (the counter and the SQL that formats it)', () => {
  it('numbers INV-<year of the invoice date>-<4 digits>, one sequence per organization and year, past 9999 unpadded', async () => {
    const h = await buildTestApp({ RATE_LIMITS: 'off' });
    try {
      const s = await registerOrg(h.app);
      const other = await registerOrg(h.app);
      const customer = (await createCustomer(h.app, s)).id;
      const number = async (invoiceDate: string, who = s, customerId = customer) =>
        (await createInvoice(h.app, who, invoiceBody(customerId, { invoiceDate, dueDate: invoiceDate }))).invoiceNumber;
      expect(await number('2026-03-10')).toBe('INV-2026-0001');
      expect(await number('2026-12-31')).toBe('INV-2026-0002');
      expect(await number('2027-01-01')).toBe('INV-2027-0001');
      expect(await number('2026-05-01', other, (await createCustomer(h.app, other)).id)).toBe('INV-2026-0001');
      await h.t.db.system
        .updateTable('invoice_counters')
        .set({ last_number: 9998 })
        .where('organization_id', '=', s.orgId)
        .where('year', '=', 2026)
        .execute();
      expect(await number('2026-06-01')).toBe('INV-2026-9999');
      expect(await number('2026-06-02')).toBe('INV-2026-10000');
      // Stored as answered.
      const list = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/invoices?perPage=100' }));
      expect(
        list
          .json()
          .data.map((i: { invoiceNumber: string }) => i.invoiceNumber)
          .sort(),
      ).toEqual(['INV-2026-0001', 'INV-2026-0002', 'INV-2026-10000', 'INV-2026-9999', 'INV-2027-0001']);
    } finally {
      await h.close();
    }
  });

  it('stores what the numbered insert is given: supply date, notes, terms and the creating user', async () => {
    const h = await buildTestApp({ RATE_LIMITS: 'off' });
    try {
      const s = await registerOrg(h.app);
      const customer = (await createCustomer(h.app, s)).id;
      const made = await createInvoice(
        h.app,
        s,
        invoiceBody(customer, { supplyDate: '2026-03-08', notes: 'Hvala!', terms: '30 dana' }),
      );
      const read = (await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${made.id}` }))).json();
      expect({
        supplyDate: read.supplyDate,
        notes: read.notes,
        terms: read.terms,
        createdBy: read.createdBy,
        customerId: read.customerId,
        invoiceDate: read.invoiceDate,
        dueDate: read.dueDate,
        totalAmount: read.totalAmount,
      }).toEqual({
        supplyDate: '2026-03-08',
        notes: 'Hvala!',
        terms: '30 dana',
        createdBy: s.userId,
        customerId: customer,
        invoiceDate: '2026-03-10',
        dueDate: '2026-04-09',
        totalAmount: made.totalAmount,
      });
      const row = await h.t.db.system
        .selectFrom('invoices')
        .select(['supply_date', 'notes', 'terms', 'created_by'])
        .where('id', '=', made.id)
        .executeTakeFirstOrThrow();
      expect([row.notes, row.terms, row.created_by]).toEqual(['Hvala!', '30 dana', s.userId]);
      expect(String(row.supply_date)).toContain('2026-03-08');
    } finally {
      await h.close();
    }
  });
});

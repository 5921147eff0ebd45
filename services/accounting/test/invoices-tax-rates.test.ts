import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice } from './invoices-fixtures.js';

// Issue 32: a line's taxRate is 0 or one of the organization's own rates (GET /settings/tax-rates).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
});
afterAll(async () => t?.close());

const COUNTRIES = {
  RS: { baseCurrency: 'RSD', language: 'sr', rates: [20, 10, 0], foreign: [25, 13, 5, 17, 8] },
  HR: { baseCurrency: 'EUR', language: 'hr', rates: [25, 13, 5, 0], foreign: [20, 10, 17, 22] },
  BA: { baseCurrency: 'BAM', language: 'bs', rates: [17, 0], foreign: [20, 10, 25, 13, 5] },
} as const;
type Country = keyof typeof COUNTRIES;

async function organization(country: Country) {
  const { baseCurrency, language } = COUNTRIES[country];
  const s = await registerOrg(t.app, { country, baseCurrency, language });
  const customer = await createCustomer(t.app, s, { country });
  return { s, customerId: customer.id };
}

const line = (taxRate: unknown, description = 'Usluga') => ({ description, quantity: 1, unitPrice: 100, taxRate });

function body(customerId: string, rates: unknown[]) {
  return {
    customerId,
    invoiceDate: '2026-03-10',
    dueDate: '2026-04-09',
    items: rates.map((r, i) => line(r, `Stavka ${i + 1}`)),
  };
}

/** POST or PUT with the JSON text as written, so 20.0 and 20.00 reach the server as typed. */
function send(s: Session, method: 'POST' | 'PUT', url: string, json: string) {
  return t.app.inject(authed(s.token, { method, url, payload: json, headers: { 'content-type': 'application/json' } }));
}

const invoiceCount = async (orgId: string) =>
  Number(
    (
      await sql<{ n: string }>`SELECT count(*)::text AS n FROM invoices WHERE organization_id = ${orgId}`.execute(
        t.t.db.system,
      )
    ).rows[0].n,
  );

describe("each country's default rates", () => {
  for (const country of Object.keys(COUNTRIES) as Country[]) {
    const c = COUNTRIES[country];

    it(`${country}: registration gives the legal rates and an invoice may carry each of them and 0`, async () => {
      const { s, customerId } = await organization(country);
      const settings = await t.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/settings/tax-rates' }));
      expect(settings.json().rates.map((r: { rate: number }) => r.rate)).toEqual([...c.rates]);
      const inv = await createInvoice(t.app, s, body(customerId, [...c.rates]));
      expect(inv.items.map((i: { taxRate: string }) => i.taxRate)).toEqual(c.rates.map(String));
    });

    it(`${country}: refuses another country's rate with 422 SVC-3008 naming each line and listing the allowed rates`, async () => {
      const { s, customerId } = await organization(country);
      const res = await t.app.inject(
        authed(s.token, {
          method: 'POST',
          url: '/api/v1/invoices',
          payload: body(customerId, [c.rates[0], ...c.foreign]),
        }),
      );
      expect(res.statusCode).toBe(422);
      const error = res.json().error;
      expect(error.code).toBe('SVC-3008');
      const named = c.foreign.map((_, i) => `items[${i + 1}].taxRate`);
      expect(Object.keys(error.details).sort()).toEqual(named.sort());
      for (const field of named) {
        const message: string = error.details[field][0];
        const listed = message
          .slice(message.lastIndexOf(':') + 1)
          .split(',')
          .map((x) => Number(x.trim()));
        expect(listed.sort()).toEqual([...c.rates].sort());
      }
      expect(await invoiceCount(s.orgId)).toBe(0);
    });
  }
});

describe('updating a draft', () => {
  it('refuses a rate the organization does not have, naming the line, and leaves the draft as it was', async () => {
    const { s, customerId } = await organization('RS');
    const inv = await createInvoice(t.app, s, body(customerId, [20, 10]));
    const res = await t.app.inject(
      authed(s.token, { method: 'PUT', url: `/api/v1/invoices/${inv.id}`, payload: body(customerId, [20, 17]) }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-3008');
    expect(Object.keys(res.json().error.details)).toEqual(['items[1].taxRate']);
    const { rows } = await sql<{ tax_rate: string }>`
      SELECT tax_rate::text FROM invoice_items WHERE invoice_id = ${inv.id} ORDER BY line_number`.execute(
      t.t.db.system,
    );
    expect(rows.map((r) => Number(r.tax_rate))).toEqual([20, 10]);
  });

  it('accepts an update to another of its rates', async () => {
    const { s, customerId } = await organization('HR');
    const inv = await createInvoice(t.app, s, body(customerId, [25]));
    const res = await t.app.inject(
      authed(s.token, { method: 'PUT', url: `/api/v1/invoices/${inv.id}`, payload: body(customerId, [13, 5, 0]) }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { taxRate: string }) => i.taxRate)).toEqual(['13', '5', '0']);
  });
});

describe('a rate removed from the settings', () => {
  it('leaves the invoices that carry it unchanged, but a draft saved again with it is refused', async () => {
    const { s, customerId } = await organization('HR');
    const draft = await createInvoice(t.app, s, body(customerId, [5, 25]));
    const sent = await createInvoice(t.app, s, body(customerId, [5]));
    const send = await t.app.inject(
      authed(s.token, { method: 'PATCH', url: `/api/v1/invoices/${sent.id}/status`, payload: { action: 'send' } }),
    );
    expect(send.statusCode).toBe(200);
    const before = await Promise.all(
      [draft.id, sent.id].map(async (id) =>
        (await t.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${id}` }))).json(),
      ),
    );

    const put = await t.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/settings/tax-rates',
        payload: {
          defaultVATRate: 25,
          rates: [
            { name: 'Standard', rate: 25 },
            { name: 'Reduced', rate: 13 },
          ],
        },
      }),
    );
    expect(put.statusCode).toBe(200);

    for (const [i, id] of [draft.id, sent.id].entries()) {
      const now = (await t.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${id}` }))).json();
      expect(now).toEqual(before[i]);
    }
    const again = await t.app.inject(
      authed(s.token, { method: 'PUT', url: `/api/v1/invoices/${draft.id}`, payload: body(customerId, [5, 25]) }),
    );
    expect(again.statusCode).toBe(422);
    expect(again.json().error.details).toEqual({
      'items[0].taxRate': [expect.stringMatching(/: 25, 13, 0$/)],
    });
    const fresh = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(customerId, [5]) }),
    );
    expect(fresh.statusCode).toBe(422);
    expect(Object.keys(fresh.json().error.details)).toEqual(['items[0].taxRate']);
  });

  it('always allows 0, even when the settings no longer list it', async () => {
    const { s, customerId } = await organization('RS');
    const put = await t.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/settings/tax-rates',
        payload: { defaultVATRate: 20, rates: [{ name: 'Standard', rate: 20 }] },
      }),
    );
    expect(put.statusCode).toBe(200);
    const inv = await createInvoice(t.app, s, body(customerId, [20, 0]));
    expect(inv.items.map((i: { taxRate: string }) => i.taxRate)).toEqual(['20', '0']);
    const refused = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(customerId, [10]) }),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details['items[0].taxRate'][0]).toMatch(/: 20, 0$/);
  });
});

describe('rates compared as numbers', () => {
  it('takes 20, 20.0, 20.00, "20" and "20.00" as the rate 20', async () => {
    const { s, customerId } = await organization('RS');
    const json = `{"customerId":"${customerId}","invoiceDate":"2026-03-10","dueDate":"2026-04-09","items":[
      {"description":"a","quantity":1,"unitPrice":100,"taxRate":20},
      {"description":"b","quantity":1,"unitPrice":100,"taxRate":20.0},
      {"description":"c","quantity":1,"unitPrice":100,"taxRate":20.00},
      {"description":"d","quantity":1,"unitPrice":100,"taxRate":"20"},
      {"description":"e","quantity":1,"unitPrice":100,"taxRate":"20.00"},
      {"description":"f","quantity":1,"unitPrice":100,"taxRate":"0.000"}]}`;
    const created = await send(s, 'POST', '/api/v1/invoices', json);
    expect(created.statusCode).toBe(201);
    expect(created.json().items.map((i: { taxRate: string }) => i.taxRate)).toEqual([
      '20',
      '20',
      '20',
      '20',
      '20',
      '0',
    ]);
    expect(created.json().taxAmount).toBe('100.00');
    const updated = await send(s, 'PUT', `/api/v1/invoices/${created.json().id}`, json.replaceAll('"20.00"', '"10.0"'));
    expect(updated.statusCode).toBe(200);
    expect(updated.json().items[4].taxRate).toBe('10');
  });

  it('matches a fractional rate of the settings whatever its trailing zeros, and refuses a near miss', async () => {
    const { s, customerId } = await organization('BA');
    const put = await t.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/settings/tax-rates',
        payload: {
          defaultVATRate: 17,
          rates: [
            { name: 'Standard', rate: 17 },
            { name: 'Correction', rate: 9.5 },
          ],
        },
      }),
    );
    expect(put.statusCode).toBe(200);
    const ok = await send(
      s,
      'POST',
      '/api/v1/invoices',
      JSON.stringify(body(customerId, [9.5, '9.50', '9.5000', 17])).replace('"taxRate":17}', '"taxRate":17.000}'),
    );
    expect(ok.statusCode).toBe(201);
    const miss = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(customerId, [17, 9.51]) }),
    );
    expect(miss.statusCode).toBe(422);
    expect(miss.json().error.details['items[1].taxRate'][0]).toMatch(/: 17, 9\.5, 0$/);
  });

  it('still answers a malformed rate text with 422 SVC-9003 and an out-of-range one with SVC-3008', async () => {
    const { s, customerId } = await organization('RS');
    const bad = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(customerId, ['20%']) }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('SVC-9003');
    const range = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(customerId, ['120']) }),
    );
    expect(range.statusCode).toBe(422);
    expect(range.json().error).toMatchObject({
      code: 'SVC-3008',
      details: { 'items[0].taxRate': ['mora biti između 0 i 100'] },
    });
  });
});

// The rates arrive with the customer row (one round trip); without a customer they are read on their own.
describe('rates and the customer', () => {
  const post = (s: Session, payload: ReturnType<typeof body>) =>
    t.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload }));

  it("names a foreign rate before an unknown, a vendor-only or another organization's customer", async () => {
    const { s } = await organization('BA');
    const other = await organization('BA');
    const vendor = await createCustomer(t.app, s, { type: 'vendor', country: 'BA' });
    for (const customerId of ['00000000-0000-4000-8000-000000000000', vendor.id, other.customerId]) {
      const refused = await post(s, body(customerId, [17, 20]));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('SVC-3008');
      expect(refused.json().error.details['items[1].taxRate'][0]).toMatch(/: 17, 0$/);
      const allowed = await post(s, body(customerId, [17, 0]));
      expect(allowed.json().error.code).toBe('SVC-3002');
    }
    expect(await invoiceCount(s.orgId)).toBe(0);
  });
});

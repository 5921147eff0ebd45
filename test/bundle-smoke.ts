import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { buyer, getUbl, seller, sentInvoice } from '../services/accounting/test/einvoice-fixtures.js';
import { authed } from '../services/accounting/test/helpers.js';
import { form } from '../services/accounting/test/multipart.js';
import { bearer, linkSandboxBank, signInMobile, type TestApp } from '../services/remittance/test/helpers.js';

/**
 * The services as `npm start` runs them are bundles (scripts/build.ts), and what a bundle can get
 * wrong is what the test suites, which run the sources, cannot see: a file a package finds next to
 * its code, a module loaded on first use (a chunk, or an external package), a path found through
 * `import.meta`. These walks take each such part once through HTTP against the running bundles,
 * with the suites' own fixtures: `overHttp` gives them an `inject` that sends real requests.
 */
export function overHttp(base: string): FastifyInstance & TestApp {
  const inject = async (opts: InjectOptions) => {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    if (opts.cookies)
      headers.cookie = Object.entries(opts.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ');
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (opts.payload !== undefined) {
      if (typeof opts.payload === 'string') body = opts.payload;
      else if (Buffer.isBuffer(opts.payload)) body = new Uint8Array(opts.payload);
      else {
        body = JSON.stringify(opts.payload);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(new URL(opts.url as string, base), {
      method: opts.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
    });
    const raw = Buffer.from(await res.arrayBuffer());
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      rawPayload: raw,
      body: raw.toString('utf8'),
      json: () => JSON.parse(raw.toString('utf8')),
      cookies: res.headers.getSetCookie().map((c) => {
        const [pair] = c.split(';');
        const eq = pair.indexOf('=');
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
      }),
    };
  };
  return { inject } as unknown as FastifyInstance & TestApp;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The API reference page and one of swagger-ui's files, which it serves from its package. */
async function servesReference(app: FastifyInstance): Promise<void> {
  const page = await app.inject({ method: 'GET', url: '/docs/' });
  expect([page.statusCode, page.headers['content-type']]).toEqual([200, expect.stringContaining('text/html')]);
  const script = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
  expect([script.statusCode, script.rawPayload.length > 100_000]).toEqual([200, true]);
}

export async function walkAccounting(base: string): Promise<void> {
  const app = overHttp(base);
  // The API reference (swagger-ui's files) and the OpenAPI document.
  await servesReference(app);
  expect((await app.inject({ method: 'GET', url: '/openapi.json' })).json().openapi).toBe('3.1.0');
  const s = await seller(app, 'RS');
  const c = await buyer(app, s, 'RS');
  const item = { description: 'Usluga', quantity: 2, unitPrice: 1000, taxRate: 20, classificationCode: '62.10.11' };
  const inv = await sentInvoice(app, s, {
    customerId: c.id,
    invoiceDate: '2026-03-10',
    dueDate: '2026-04-09',
    items: [item],
  });
  // PDF (pdfkit and the DejaVu fonts, found through the package), the payment code (qrcode, loaded
  // on first use) and the e-invoice (a chunk loaded on first use).
  const pdf = await app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}/pdf` }));
  expect([pdf.statusCode, pdf.rawPayload.subarray(0, 5).toString()]).toEqual([200, '%PDF-']);
  const code = await app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}/payment-code` }));
  expect([code.statusCode, code.headers['content-type']]).toEqual([200, 'image/png']);
  const ubl = await getUbl(app, s, inv.id);
  expect(ubl.statusCode).toBe(200);
  expect(ubl.body).toContain(inv.invoiceNumber);
  // A receipt (multipart, the type by content) and a statement import (csv-parse).
  const expense = await app.inject(
    authed(s.token, {
      method: 'POST',
      url: '/api/v1/expenses',
      ...form(
        { expenseDate: '2026-05-04', category: 'Travel', amount: '118.80', taxAmount: '19.80', description: 'Taxi' },
        { filename: 'r.txt', type: 'text/plain', data: PNG },
      ),
    }),
  );
  expect(expense.statusCode).toBe(201);
  const receipt = await app.inject(authed(s.token, { method: 'GET', url: expense.json().receiptUrl }));
  expect([receipt.statusCode, receipt.headers['content-type']]).toEqual([200, 'image/png']);
  const accounts = (await app.inject(authed(s.token, { method: 'GET', url: '/api/v1/accounts' }))).json()
    .data as Array<{ code: string; id: string }>;
  const bank = await app.inject(
    authed(s.token, {
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: {
        accountId: accounts.find((a) => a.code === '1100')!.id,
        bankName: 'Banka Intesa',
        iban: 'RS35 1050 0812 3123 1231',
        currencyCode: 'RSD',
      },
    }),
  );
  expect(bank.statusCode).toBe(201);
  const imported = await app.inject(
    authed(s.token, {
      method: 'POST',
      url: `/api/v1/bank-accounts/${bank.json().id}/import`,
      ...form(
        {},
        {
          field: 'file',
          filename: 's.csv',
          type: 'text/csv',
          data: Buffer.from('Date;Description;Amount\n2026-03-11;"Uplata; kupac";2.400,00\n'),
        },
      ),
    }),
  );
  expect([imported.statusCode, imported.json()]).toEqual([200, { imported: 1, duplicates: 0, errors: [] }]);
}

export async function walkRemittance(base: string): Promise<void> {
  const app = overHttp(base);
  await servesReference(app);
  const rates = await app.inject({ method: 'GET', url: '/api/rates' });
  expect(rates.statusCode).toBe(200);
  // Sign-in through the eID mock (openid-client's pieces, jose) and the sandbox bank.
  const { token } = await signInMobile(app);
  await linkSandboxBank(app, bearer(token), '/v1');
  const me = await app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(token) });
  expect(me.statusCode).toBe(200);
  expect(me.json().data.bankAccounts).toHaveLength(2);
}

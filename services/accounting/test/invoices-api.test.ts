import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dec, sum } from '@app/shared/money';
import { sql } from 'kysely';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewToken } from '../src/modules/invoices/invoice-delivery.js';
import { runOverdueJob } from '../src/modules/invoices/overdue-job.js';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import {
  accountNets,
  createCustomer,
  createInvoice,
  invoiceBody,
  patchStatus,
  postingsOf,
  trialBalance,
} from './invoices-fixtures.js';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const TODAY = day(0);
const YEAR = TODAY.slice(0, 4);
// A window that keeps the invoice in today's year and not yet due.
const DATES = { invoiceDate: `${YEAR}-01-15` < TODAY ? `${YEAR}-01-15` : TODAY, dueDate: day(30) };

let t: TestApp;
let owner: Session;
let customerId: string;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, {
    baseCurrency: 'RSD',
    language: 'sr',
    organizationName: 'Đurđević i sinovi d.o.o.',
  });
  customerId = (await createCustomer(t.app, owner)).id;
});
afterAll(async () => t?.close());

const inject = (s: Session, method: string, url: string, payload?: unknown) =>
  t.app.inject(
    authed(s.token, { method: method as 'GET', url, ...(payload === undefined ? {} : { payload: payload as object }) }),
  );

async function pdfText(buf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false, isEvalSupported: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    text += `${content.items.map((it) => ('str' in it ? it.str : '')).join(' ')}\n`;
  }
  return text;
}

describe('creating invoices', () => {
  it('creates a draft with A3 totals, a generated number and the items echoed', async () => {
    const res = await inject(
      owner,
      'POST',
      '/api/v1/invoices',
      invoiceBody(customerId, { ...DATES, discountAmount: 100 }),
    );
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv.status).toBe('draft');
    expect(inv.invoiceNumber).toMatch(new RegExp(`^INV-${YEAR}-\\d{4}$`));
    expect(inv.currencyCode).toBe('RSD');
    expect(inv.exchangeRate).toBe('1.000000');
    // 2 x 1500 = 3000.00 (tax 600.00); 1 x 499.99 (tax 10% = 49.999 -> 50.00)
    expect(inv.subtotal).toBe('3499.99');
    expect(inv.taxAmount).toBe('650.00');
    expect(inv.discountAmount).toBe('100.00');
    expect(inv.totalAmount).toBe('4049.99');
    expect(inv.baseAmount).toBe('4049.99');
    expect(inv.items.map((i: any) => [i.lineNumber, i.quantity, i.unitPrice, i.taxRate, i.lineTotal])).toEqual([
      [1, '2', '1500', '20', '3000.00'],
      [2, '1', '499.99', '10', '499.99'],
    ]);
    expect(inv.pdfUrl).toBeNull();
    expect(inv.customerName).toBe('Kupac Čačić d.o.o.');
    expect(inv.createdBy).toBe(owner.userId);
    const audit = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM logged_actions WHERE table_name = 'invoices' AND record_id = ${inv.id}`.execute(
      t.t.db.system,
    );
    expect(Number(audit.rows[0].n)).toBe(1);
  });

  it('numbers invoices consecutively per organization and year of the invoice date', async () => {
    const a = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: '2031-02-01', dueDate: '2031-03-01' }),
    );
    const b = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: '2031-05-01', dueDate: '2031-06-01' }),
    );
    const c = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: '2032-01-01', dueDate: '2032-02-01' }),
    );
    expect([a.invoiceNumber, b.invoiceNumber, c.invoiceNumber]).toEqual([
      'INV-2031-0001',
      'INV-2031-0002',
      'INV-2032-0001',
    ]);
    const other = await registerOrg(t.app);
    const cust = await createCustomer(t.app, other);
    const d = await createInvoice(
      t.app,
      other,
      invoiceBody(cust.id, { invoiceDate: '2031-02-01', dueDate: '2031-03-01' }),
    );
    expect(d.invoiceNumber).toBe('INV-2031-0001');
  });

  it('converts a foreign-currency invoice at the rate in force on the invoice date and rounds baseAmount half-up', async () => {
    const rate = await inject(owner, 'POST', '/api/v1/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 117.123456,
      effectiveDate: '2030-06-01',
    });
    expect(rate.statusCode).toBe(201);
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, {
        invoiceDate: '2030-06-02',
        dueDate: '2030-07-02',
        currencyCode: 'EUR',
        items: [{ description: 'Usluga', quantity: 3, unitPrice: 33.335, taxRate: 20 }],
      }),
    );
    // 3 x 33.335 = 100.005 -> 100.01; tax 20.002 -> 20.00; total 120.01; x 117.123456 = 14055.98595... -> 14055.99
    expect([inv.subtotal, inv.taxAmount, inv.totalAmount, inv.exchangeRate, inv.baseAmount]).toEqual([
      '100.01',
      '20.00',
      '120.01',
      '117.123456',
      '14055.99',
    ]);
  });

  it('recomputes the rate of a draft on PUT (A5)', async () => {
    const rate = (r: number) =>
      inject(owner, 'POST', '/api/v1/exchange-rates', {
        baseCurrency: 'USD',
        targetCurrency: 'RSD',
        rate: r,
        effectiveDate: '2030-08-01',
      });
    expect((await rate(100)).statusCode).toBe(201);
    const body = invoiceBody(customerId, {
      invoiceDate: '2030-08-05',
      dueDate: '2030-09-05',
      currencyCode: 'USD',
      items: [{ description: 'X', quantity: 1, unitPrice: 10, taxRate: 0 }],
    });
    const inv = await createInvoice(t.app, owner, body);
    expect([inv.exchangeRate, inv.baseAmount]).toEqual(['100.000000', '1000.00']);
    await rate(110);
    const put = await inject(owner, 'PUT', `/api/v1/invoices/${inv.id}`, body);
    expect([put.json().exchangeRate, put.json().baseAmount]).toEqual(['110.000000', '1100.00']);
  });

  it('answers 422 SVC-9003 with details.currencyCode when no rate exists on or before the date', async () => {
    const res = await inject(
      owner,
      'POST',
      '/api/v1/invoices',
      invoiceBody(customerId, { invoiceDate: '1990-01-01', dueDate: '1990-02-01', currencyCode: 'CHF' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(res.json().error.details.currencyCode).toBeDefined();
  });

  it.each([
    ['no items', { items: [] }, 'SVC-3006', 'items'],
    [
      'a zero unit price',
      { items: [{ description: 'x', quantity: 1, unitPrice: 0, taxRate: 20 }] },
      'SVC-3007',
      'items[0].unitPrice',
    ],
    [
      'a negative quantity',
      {
        items: [
          { description: 'x', quantity: 1, unitPrice: 1, taxRate: 20 },
          { description: 'y', quantity: -2, unitPrice: 1, taxRate: 0 },
        ],
      },
      'SVC-3007',
      'items[1].quantity',
    ],
    [
      'a tax rate above 100',
      { items: [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: 100.5 }] },
      'SVC-3008',
      'items[0].taxRate',
    ],
    [
      'a negative tax rate',
      { items: [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: -1 }] },
      'SVC-3008',
      'items[0].taxRate',
    ],
    ['a due date before the invoice date', { invoiceDate: '2026-05-02', dueDate: '2026-05-01' }, 'SVC-3009', 'dueDate'],
    ['a discount above subtotal + tax', { discountAmount: 1_000_000 }, 'SVC-9003', 'discountAmount'],
    ['a negative discount', { discountAmount: -1 }, 'SVC-9003', 'discountAmount'],
    [
      'a huge exponent (Infinity after JSON.parse)',
      { items: [{ description: 'x', quantity: 1, unitPrice: '1e400', taxRate: 0 }] },
      'SVC-9003',
      'items[0].unitPrice',
    ],
    [
      'a unit price as a string',
      { items: [{ description: 'x', quantity: 1, unitPrice: 'Infinity', taxRate: 0 }] },
      'SVC-9003',
      'items[0].unitPrice',
    ],
  ])('refuses %s', async (_name, overrides, code, field) => {
    const res = await inject(owner, 'POST', '/api/v1/invoices', invoiceBody(customerId, overrides));
    expect(res.json().error.code).toBe(code);
    expect(res.statusCode).toBe(code === 'SVC-9003' || code.startsWith('SVC-30') ? 422 : 400);
    expect(Object.keys(res.json().error.details)).toContain(field);
  });

  it('refuses a JSON number that overflows to Infinity', async () => {
    const payload = JSON.stringify(invoiceBody(customerId)).replace('"unitPrice":1500', '"unitPrice":1e400');
    const res = await t.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: '/api/v1/invoices',
        payload,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details['items[0].unitPrice']).toBeDefined();
  });

  it('answers 404 SVC-3002 for a customer of another organization or a vendor', async () => {
    const other = await registerOrg(t.app);
    const foreign = await createCustomer(t.app, other);
    const vendor = await createCustomer(t.app, owner, { type: 'vendor', name: 'Dobavljač' });
    for (const id of [foreign.id, vendor.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await inject(owner, 'POST', '/api/v1/invoices', invoiceBody(id));
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('SVC-3002');
    }
  });

  it('accepts a revenue account on an item and refuses any other account', async () => {
    const accounts = await inject(owner, 'GET', '/api/v1/accounts');
    const byCode = Object.fromEntries(accounts.json().data.map((a: any) => [a.code, a.id]));
    const ok = await inject(
      owner,
      'POST',
      '/api/v1/invoices',
      invoiceBody(customerId, {
        items: [{ description: 'x', quantity: 1, unitPrice: 10, taxRate: 0, accountId: byCode['4900'] }],
      }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json().items[0].accountId).toBe(byCode['4900']);
    const bad = await inject(
      owner,
      'POST',
      '/api/v1/invoices',
      invoiceBody(customerId, {
        items: [
          { description: 'x', quantity: 1, unitPrice: 10, taxRate: 0 },
          { description: 'y', quantity: 1, unitPrice: 10, taxRate: 0, accountId: byCode['1200'] },
        ],
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details['items[1].accountId']).toBeDefined();
  });

  it('ignores fields the route does not name (no mass assignment)', async () => {
    const res = await inject(owner, 'POST', '/api/v1/invoices', {
      ...invoiceBody(customerId),
      status: 'paid',
      invoiceNumber: 'X',
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('draft');
    expect(res.json().invoiceNumber).not.toBe('X');
  });
});

describe('reading, listing and updating', () => {
  it('lists with every filter, pagination and sorting', async () => {
    const cust2 = await createCustomer(t.app, owner, { name: 'Drugi kupac' });
    const a = await createInvoice(
      t.app,
      owner,
      invoiceBody(cust2.id, { invoiceDate: '2029-01-10', dueDate: '2029-02-10' }),
    );
    const b = await createInvoice(
      t.app,
      owner,
      invoiceBody(cust2.id, { invoiceDate: '2029-01-20', dueDate: '2029-02-20' }),
    );
    const list = await inject(owner, 'GET', `/api/v1/invoices?customerId=${cust2.id}&sort=invoiceDate&order=asc`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: any) => i.id)).toEqual([a.id, b.id]);
    expect(list.json().meta).toEqual({ total: 2, page: 1, perPage: 20, totalPages: 1 });
    expect(Object.keys(list.json().data[0]).sort()).toEqual([
      'createdAt',
      'currencyCode',
      'customerId',
      'customerName',
      'dueDate',
      'fiscalization',
      'id',
      'intermediary',
      'invoiceDate',
      'invoiceNumber',
      'sef',
      'status',
      'totalAmount',
    ]);
    // Issue 28: the e-invoice delivery states, null for an invoice never queued or fiscalized.
    expect(list.json().data[0]).toMatchObject({ sef: null, fiscalization: null, intermediary: null });
    // The list writes createdAt in SQL; it must read exactly as the invoice itself does.
    const one = await inject(owner, 'GET', `/api/v1/invoices/${a.id}`);
    expect(list.json().data[0].createdAt).toBe(one.json().createdAt);
    expect(list.json().data[0].totalAmount).toBe(one.json().totalAmount);
    const ranged = await inject(
      owner,
      'GET',
      `/api/v1/invoices?customerId=${cust2.id}&fromDate=2029-01-15&toDate=2029-01-31`,
    );
    expect(ranged.json().data.map((i: any) => i.id)).toEqual([b.id]);
    const paged = await inject(
      owner,
      'GET',
      `/api/v1/invoices?customerId=${cust2.id}&perPage=1&page=2&sort=invoiceNumber&order=desc`,
    );
    expect(paged.json().data.map((i: any) => i.id)).toEqual([a.id]);
    expect(paged.json().meta.totalPages).toBe(2);
    const drafts = await inject(owner, 'GET', `/api/v1/invoices?customerId=${cust2.id}&status=draft`);
    expect(drafts.json().meta.total).toBe(2);
    const badSort = await inject(owner, 'GET', '/api/v1/invoices?sort=organization_id');
    expect(badSort.statusCode).toBe(400);
    const badStatus = await inject(owner, 'GET', '/api/v1/invoices?status=lost');
    expect(badStatus.statusCode).toBe(422);
  });

  it('reads an invoice; another organization gets 404 SVC-3001', async () => {
    const inv = await createInvoice(t.app, owner, invoiceBody(customerId));
    const read = await inject(owner, 'GET', `/api/v1/invoices/${inv.id}`);
    expect(read.statusCode).toBe(200);
    // GET also shows the invoice's SEF state (CONTRACT D2): null until it is queued.
    expect(read.json()).toEqual({ ...inv, sef: null, fiscalization: null, intermediary: null });
    const other = await registerOrg(t.app);
    const res = await inject(other, 'GET', `/api/v1/invoices/${inv.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('SVC-3001');
    const list = await inject(other, 'GET', '/api/v1/invoices');
    expect(list.json().meta.total).toBe(0);
  });

  it('updates a draft and recomputes it; a viewer may read but not write', async () => {
    const inv = await createInvoice(t.app, owner, invoiceBody(customerId));
    const res = await inject(
      owner,
      'PUT',
      `/api/v1/invoices/${inv.id}`,
      invoiceBody(customerId, {
        items: [{ description: 'Nova', quantity: 1, unitPrice: 0.005, taxRate: 20 }],
        notes: null,
      }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.invoiceNumber).toBe(inv.invoiceNumber);
    expect([body.subtotal, body.taxAmount, body.totalAmount]).toEqual(['0.01', '0.00', '0.01']);
    expect(body.items).toHaveLength(1);
    expect(body.notes).toBeNull();
    const viewer = await addMember(t.app, owner, 'viewer');
    expect((await inject(viewer, 'GET', `/api/v1/invoices/${inv.id}`)).statusCode).toBe(200);
    const denied = await inject(viewer, 'PUT', `/api/v1/invoices/${inv.id}`, invoiceBody(customerId));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('SVC-9001');
  });

  it('refuses to move a draft into another year (its number carries the year)', async () => {
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: '2031-02-01', dueDate: '2031-03-01' }),
    );
    const res = await inject(
      owner,
      'PUT',
      `/api/v1/invoices/${inv.id}`,
      invoiceBody(customerId, { invoiceDate: '2032-02-01', dueDate: '2032-03-01' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.invoiceDate).toBeDefined();
  });
});

describe('status machine and ledger postings (A8, A10)', () => {
  it('send posts Dr 1200 / Cr revenue per account (discount from the largest) and Dr 1200 / Cr 2300 for tax', async () => {
    const accounts = await inject(owner, 'GET', '/api/v1/accounts');
    const other = accounts.json().data.find((a: any) => a.code === '4900').id;
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, {
        ...DATES,
        discountAmount: 50,
        items: [
          { description: 'A', quantity: 1, unitPrice: 1000, taxRate: 20 },
          { description: 'B', quantity: 1, unitPrice: 300, taxRate: 10, accountId: other },
          { description: 'C', quantity: 2, unitPrice: 100, taxRate: 0 },
        ],
      }),
    );
    expect(inv.totalAmount).toBe('1680.00'); // 1500 + 230 - 50
    const res = await patchStatus(t.app, owner, inv.id, { action: 'send' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('sent');
    expect(res.json().sentAt).toBeTruthy();
    expect(res.json().pdfUrl).toBe(`/api/v1/invoices/${inv.id}/pdf`);
    const postings = await postingsOf(t.t.db, owner.orgId, inv.id);
    expect(postings.map((p) => [p.debit, p.credit, dec(p.amount).toFixed(2), p.reference_type, p.locked])).toEqual(
      expect.arrayContaining([
        ['1200', '4000', '1150.00', 'invoice', true],
        ['1200', '4900', '300.00', 'invoice', true],
        ['1200', '2300', '230.00', 'invoice', true],
      ]),
    );
    expect(postings).toHaveLength(3);
    expect(sum(postings.map((p) => p.amount)).toFixed(2)).toBe(inv.totalAmount);
  });

  it('walks draft -> sent -> viewed -> paid -> cancelled, with payment and reversals, and the trial balance stays balanced', async () => {
    const inv = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    expect((await patchStatus(t.app, owner, inv.id, { action: 'send' })).json().status).toBe('sent');

    // The public link (unguessable, no sign-in) returns the PDF and moves sent to viewed.
    const token = viewToken(t.config.jwtSecret, inv.id);
    const view = await t.app.inject({ method: 'GET', url: `/api/v1/public/invoices/${token}` });
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toBe('application/pdf');
    expect((await inject(owner, 'GET', `/api/v1/invoices/${inv.id}`)).json().status).toBe('viewed');
    const wrong = await t.app.inject({ method: 'GET', url: `/api/v1/public/invoices/${'A'.repeat(43)}` });
    expect(wrong.statusCode).toBe(404);

    const noDate = await patchStatus(t.app, owner, inv.id, { action: 'mark-paid' });
    expect(noDate.statusCode).toBe(422);
    expect(noDate.json().error.details.paidAt).toBeDefined();
    const paid = await patchStatus(t.app, owner, inv.id, { action: 'mark-paid', paidAt: TODAY, bankAccountId: null });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().status).toBe('paid');
    expect(paid.json().paidAt).toBe(TODAY);
    let postings = await postingsOf(t.t.db, owner.orgId, inv.id);
    const payment = postings.filter((p) => p.reference_type === 'payment');
    expect(payment.map((p) => [p.debit, p.credit, dec(p.amount).toFixed(2)])).toEqual([
      ['1100', '1200', inv.totalAmount],
    ]);

    const cancelled = await patchStatus(t.app, owner, inv.id, { action: 'cancel' });
    expect(cancelled.json().status).toBe('cancelled');
    postings = await postingsOf(t.t.db, owner.orgId, inv.id);
    const reversals = postings.filter((p) => p.description.startsWith('Reversal: '));
    expect(reversals).toHaveLength(postings.length / 2);
    // Every account the invoice touched nets to zero again.
    const nets = await accountNets(t.t.db, owner.orgId);
    const tb = await trialBalance(t.t.db, owner.orgId);
    expect(dec(tb.ledgerDebit).eq(tb.ledgerCredit)).toBe(true);
    expect(dec(tb.balanceDebit).eq(tb.balanceCredit)).toBe(true);
    expect(sum(Object.values(nets)).isZero()).toBe(true);
  });

  it('posts a foreign-currency sale with the frozen rate and base amounts', async () => {
    await inject(owner, 'POST', '/api/v1/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 117.5,
      effectiveDate: DATES.invoiceDate,
    });
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, {
        ...DATES,
        currencyCode: 'EUR',
        items: [{ description: 'X', quantity: 1, unitPrice: 100, taxRate: 20 }],
      }),
    );
    expect(inv.exchangeRate).toBe('117.500000');
    await patchStatus(t.app, owner, inv.id, { action: 'send' });
    // A later rate never changes a sent invoice.
    await inject(owner, 'POST', '/api/v1/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 200,
      effectiveDate: DATES.invoiceDate,
    });
    const read = (await inject(owner, 'GET', `/api/v1/invoices/${inv.id}`)).json();
    expect([read.exchangeRate, read.baseAmount]).toEqual(['117.500000', '14100.00']);
    const postings = await postingsOf(t.t.db, owner.orgId, inv.id);
    expect(
      postings.map((p) => [
        p.credit,
        dec(p.amount).toFixed(2),
        dec(p.base_amount).toFixed(2),
        dec(p.exchange_rate).toFixed(6),
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['4000', '100.00', '11750.00', '117.500000'],
        ['2300', '20.00', '2350.00', '117.500000'],
      ]),
    );
  });

  it('answers an unknown action with 422 SVC-9003 listing the allowed actions (issue 25 item 6)', async () => {
    const draft = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    for (const action of ['mark_paid', 'view', '']) {
      const res = await patchStatus(t.app, owner, draft.id, { action });
      expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-9003']);
      expect(res.json().error.details.action).toEqual(['mora biti jedno od: send, mark-paid, cancel']);
    }
  });

  it('answers mark-paid without paidAt (required when action is mark-paid) with 422 SVC-9003 naming paidAt', async () => {
    const sent = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    await patchStatus(t.app, owner, sent.id, { action: 'send' });
    const res = await patchStatus(t.app, owner, sent.id, { action: 'mark-paid' });
    expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-9003']);
    expect(Object.keys(res.json().error.details)).toEqual(['paidAt']);
  });

  it('accepts an action without a body: POST /send with no body, or an empty JSON body (issue 25 item 6)', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const draft = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
      const res = await t.app.inject(
        authed(owner.token, { method: 'POST', url: `/api/v1/invoices/${draft.id}/send`, headers }),
      );
      expect([res.statusCode, res.json().sentTo]).toEqual([200, 'kupac@example.test']);
      const after = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${draft.id}` }));
      expect(after.json().status).toBe('sent');
    }
  });

  it('refuses every other action/status combination with 400 SVC-3004 and details.action', async () => {
    const draft = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    const sent = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    await patchStatus(t.app, owner, sent.id, { action: 'send' });
    const paid = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    await patchStatus(t.app, owner, paid.id, { action: 'send' });
    await patchStatus(t.app, owner, paid.id, { action: 'mark-paid', paidAt: TODAY });
    const cancelled = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    await patchStatus(t.app, owner, cancelled.id, { action: 'cancel' });
    const refused: Array<[string, Record<string, unknown>]> = [
      [draft.id, { action: 'mark-paid', paidAt: TODAY }],
      [sent.id, { action: 'send' }],
      [paid.id, { action: 'send' }],
      [paid.id, { action: 'mark-paid', paidAt: TODAY }],
      [cancelled.id, { action: 'cancel' }],
      [cancelled.id, { action: 'send' }],
      [cancelled.id, { action: 'mark-paid', paidAt: TODAY }],
    ];
    for (const [id, body] of refused) {
      const res = await patchStatus(t.app, owner, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('SVC-3004');
      expect(res.json().error.details.action).toBeDefined();
    }
    // POST /send: paid or cancelled refused.
    for (const id of [paid.id, cancelled.id]) {
      const res = await inject(owner, 'POST', `/api/v1/invoices/${id}/send`, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('SVC-3004');
    }
    // Non-draft edits: 400 SVC-3003 with details.status.
    const edit = await inject(owner, 'PUT', `/api/v1/invoices/${sent.id}`, invoiceBody(customerId, DATES));
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error).toMatchObject({ code: 'SVC-3003', details: { status: ['sent'] } });
    // A cancelled draft has no postings.
    expect(await postingsOf(t.t.db, owner.orgId, cancelled.id)).toHaveLength(0);
  });

  it('shows a sent invoice past its due date as overdue at once, and the job persists it', async () => {
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: day(-40), dueDate: day(-10) }),
    );
    await patchStatus(t.app, owner, inv.id, { action: 'send' });
    expect((await inject(owner, 'GET', `/api/v1/invoices/${inv.id}`)).json().status).toBe('overdue');
    const overdue = await inject(owner, 'GET', '/api/v1/invoices?status=overdue&perPage=100');
    expect(overdue.json().data.map((i: any) => i.id)).toContain(inv.id);
    const sent = await inject(owner, 'GET', '/api/v1/invoices?status=sent&perPage=100');
    expect(sent.json().data.map((i: any) => i.id)).not.toContain(inv.id);
    expect(await runOverdueJob(t.t.db)).toBeGreaterThanOrEqual(1);
    const stored = await sql<{ status: string }>`SELECT status FROM invoices WHERE id = ${inv.id}`.execute(
      t.t.db.system,
    );
    expect(stored.rows[0].status).toBe('overdue');
    expect(await runOverdueJob(t.t.db)).toBe(0);
    // The public link leaves an overdue invoice overdue; mark-paid is accepted from overdue.
    await t.app.inject({ method: 'GET', url: `/api/v1/public/invoices/${viewToken(t.config.jwtSecret, inv.id)}` });
    expect((await inject(owner, 'GET', `/api/v1/invoices/${inv.id}`)).json().status).toBe('overdue');
    const paid = await patchStatus(t.app, owner, inv.id, { action: 'mark-paid', paidAt: TODAY });
    expect(paid.json().status).toBe('paid');
  });

  it('leaves an invoice due today sent, in the job and in reads; the day after it is overdue', async () => {
    const dueToday = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: day(-20), dueDate: TODAY }),
    );
    const dueYesterday = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: day(-20), dueDate: day(-1) }),
    );
    for (const inv of [dueToday, dueYesterday]) await patchStatus(t.app, owner, inv.id, { action: 'send' });
    const statusOf = async (id: string) =>
      (await sql<{ status: string }>`SELECT status FROM invoices WHERE id = ${id}`.execute(t.t.db.system)).rows[0]
        .status;
    await runOverdueJob(t.t.db, TODAY);
    expect(await statusOf(dueToday.id)).toBe('sent');
    expect(await statusOf(dueYesterday.id)).toBe('overdue');
    // The status derived on read agrees: due today is not yet overdue.
    expect((await inject(owner, 'GET', `/api/v1/invoices/${dueToday.id}`)).json().status).toBe('sent');
    const listed = await inject(owner, 'GET', '/api/v1/invoices?status=overdue&perPage=100');
    expect(listed.json().data.map((i: any) => i.id)).not.toContain(dueToday.id);
    // Tomorrow's run moves it.
    await runOverdueJob(t.t.db, day(1));
    expect(await statusOf(dueToday.id)).toBe('overdue');
  });

  it('cancels sent, viewed and overdue invoices with their sale reversed; mark-paid refuses an unknown bankAccountId (404 SVC-5001) and books on 1100 when the organization has no bank account', async () => {
    const sent = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    const viewed = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    const overdue = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerId, { invoiceDate: day(-40), dueDate: day(-5) }),
    );
    for (const inv of [sent, viewed, overdue]) await patchStatus(t.app, owner, inv.id, { action: 'send' });
    await t.app.inject({ method: 'GET', url: `/api/v1/public/invoices/${viewToken(t.config.jwtSecret, viewed.id)}` });
    expect((await inject(owner, 'GET', `/api/v1/invoices/${viewed.id}`)).json().status).toBe('viewed');
    for (const inv of [sent, viewed, overdue]) {
      const res = await patchStatus(t.app, owner, inv.id, { action: 'cancel' });
      expect(res.json().status).toBe('cancelled');
      const postings = await postingsOf(t.t.db, owner.orgId, inv.id);
      const byCode: Record<string, ReturnType<typeof dec>> = {};
      for (const p of postings) {
        byCode[p.debit] = (byCode[p.debit] ?? dec(0)).plus(p.amount);
        byCode[p.credit] = (byCode[p.credit] ?? dec(0)).minus(p.amount);
      }
      expect(Object.values(byCode).every((v) => v.isZero())).toBe(true);
      expect(postings.filter((p) => p.description.startsWith('Reversal: '))).toHaveLength(postings.length / 2);
    }
    const toPay = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    await patchStatus(t.app, owner, toPay.id, { action: 'send' });
    const unknown = await patchStatus(t.app, owner, toPay.id, {
      action: 'mark-paid',
      paidAt: `${TODAY}T10:00:00Z`,
      bankAccountId: '00000000-0000-4000-8000-000000000001',
    });
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'SVC-5001']);
    const paid = await patchStatus(t.app, owner, toPay.id, { action: 'mark-paid', paidAt: `${TODAY}T10:00:00Z` });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().paidAt).toBe(TODAY);
    const payment = (await postingsOf(t.t.db, owner.orgId, toPay.id)).filter((p) => p.reference_type === 'payment');
    expect(payment.map((p) => [p.debit, p.credit])).toEqual([['1100', '1200']]);
  });

  it('answers 400 SVC-3005 when the customer has no e-mail and no "to" is given', async () => {
    const noMail = await createCustomer(t.app, owner, { name: 'Bez adrese', email: null });
    const inv = await createInvoice(t.app, owner, invoiceBody(noMail.id, DATES));
    for (const res of [
      await patchStatus(t.app, owner, inv.id, { action: 'send' }),
      await inject(owner, 'POST', `/api/v1/invoices/${inv.id}/send`, {}),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('SVC-3005');
    }
    const ok = await inject(owner, 'POST', `/api/v1/invoices/${inv.id}/send`, { to: 'drugi@example.test' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ sentTo: 'drugi@example.test' });
    expect(ok.json().emailId).toMatch(/^<.+@.+>$/);
  });
});

describe('PDF and outbox (A11, A19)', () => {
  it('404 SVC-3010 for a draft; the sent PDF carries the number, totals and diacritics, and the outbox holds the e-mail', async () => {
    const inv = await createInvoice(t.app, owner, invoiceBody(customerId, DATES));
    const before = await inject(owner, 'GET', `/api/v1/invoices/${inv.id}/pdf`);
    expect(before.statusCode).toBe(404);
    expect(before.json().error.code).toBe('SVC-3010');
    await patchStatus(t.app, owner, inv.id, { action: 'send' });
    const res = await inject(owner, 'GET', `/api/v1/invoices/${inv.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${inv.invoiceNumber}.pdf"`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(inv.invoiceNumber);
    expect(text).toContain('4.149,99'); // totalAmount 4149.99 in the organization's (sr) format
    expect(text).toContain('Datum dospeća');
    expect(text).toContain('Kupac Čačić d.o.o.');
    expect(text).toContain('Đurđević i sinovi d.o.o.');
    const outbox = join(t.config.dataDir, 'outbox');
    const eml = readdirSync(outbox)
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .find((m) => m.includes(inv.invoiceNumber));
    expect(eml).toBeDefined();
    expect(eml).toContain('To: kupac@example.test');
    expect(eml).toContain(`filename=${inv.invoiceNumber}.pdf`);
    // The text part is quoted-printable: undo its soft line breaks before looking for the link.
    expect(eml!.replace(/=\r?\n/g, '')).toContain(`/api/v1/public/invoices/${viewToken(t.config.jwtSecret, inv.id)}`);
  });
});

describe('contacts with invoices (SVC-7002)', () => {
  it('refuses to delete a contact with invoices that are not cancelled, and allows it once they are', async () => {
    const c = await createCustomer(t.app, owner, { name: 'Privremeni' });
    const inv = await createInvoice(t.app, owner, invoiceBody(c.id, DATES));
    const refused = await inject(owner, 'DELETE', `/api/v1/contacts/${c.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('SVC-7002');
    await patchStatus(t.app, owner, inv.id, { action: 'cancel' });
    expect((await inject(owner, 'DELETE', `/api/v1/contacts/${c.id}`)).statusCode).toBe(204);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../src/lib/secret-box.js';
import { todayIso } from '../src/modules/invoices/invoice-status.js';
import type { InvoiceDeps } from '../src/modules/invoices/invoice-transitions.js';
import { deliverDue, runSefSync, type SefDeps } from '../src/modules/sef/sef.service.js';
import { buyer, seller, sentInvoice } from './einvoice-fixtures.js';
import { addMember, authed, buildTestApp, type Session, type TestApp } from './helpers.js';
import { SefMock } from './sef-mock.js';

const KEY = 'mock-api-key-0001';
const BUYER_PIB = '100000090';

let h: TestApp;
let mock: SefMock;
let deps: SefDeps;
let s: Session;
let customerId: string;

const inject = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  h.app.inject(authed(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) }));

const line = { description: 'Usluga', quantity: 1, unitPrice: 1000, taxRate: 20 };
async function newInvoice(session = s, customer = customerId) {
  return sentInvoice(h.app, session, {
    customerId: customer,
    invoiceDate: todayIso(),
    dueDate: todayIso(),
    items: [line],
  });
}
const sefOf = async (id: string) => (await inject(s.token, 'GET', `/api/v1/invoices/${id}/sef`)).json();
/** Makes the invoice's queued attempts due now (what waiting out the backoff would do). */
const dueNow = (invoiceId: string) =>
  sql`UPDATE sef_documents SET next_attempt_at = now() WHERE invoice_id = ${invoiceId}`.execute(h.t.db.system);
const uploadsOf = (requestId: string) =>
  mock.calls.filter((c) => c.path === 'sales-invoice/ubl' && c.query.get('requestId') === requestId);

beforeAll(async () => {
  mock = await new SefMock().start();
  mock.registeredPibs.add(BUYER_PIB);
  // The suite sends more than the 10 invoices per minute a user may send; limits have their own tests.
  h = await buildTestApp({
    RATE_LIMITS: 'off',
    SEF_BASE_URL: mock.url,
    SEF_DELIVERY_INTERVAL: '0s',
    SEF_SYNC_INTERVAL: '0s',
  });
  deps = {
    config: h.config,
    db: h.t.db,
    invoices: { config: h.config, db: h.t.db, log: h.app.log } as InvoiceDeps,
    box: new SecretBox(h.config.sef.keyEncryptionKey!),
    log: h.app.log,
  };
  s = await seller(h.app, 'RS');
  customerId = (await buyer(h.app, s, 'RS')).id;
}, 120_000);

afterAll(async () => {
  await h?.close();
  await mock?.stop();
});

describe('SEF settings (D1)', { timeout: 120_000 }, () => {
  it('keeps the key encrypted, never returns it, and lets only owners and admins change it', async () => {
    const before = await inject(s.token, 'GET', '/api/v1/organization/sef');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ environment: 'demo', enabled: false, apiKeySet: false, lastSyncAt: null });

    const accountant = await addMember(h.app, s, 'accountant');
    expect((await inject(accountant.token, 'PUT', '/api/v1/organization/sef', { enabled: false })).statusCode).toBe(
      403,
    );
    const noKey = await inject(s.token, 'PUT', '/api/v1/organization/sef', { enabled: true });
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json().error.details.apiKey).toBeDefined();

    const put = await inject(s.token, 'PUT', '/api/v1/organization/sef', {
      apiKey: KEY,
      enabled: true,
      environment: 'demo',
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ enabled: true, apiKeySet: true, environment: 'demo' });
    expect(put.body).not.toContain(KEY);
    expect(put.json().webhookUrl).toMatch(/\/api\/v1\/sef\/webhook\/[\w-]{16,}$/);
    const shown = await inject(accountant.token, 'GET', '/api/v1/organization/sef');
    expect(shown.json()).toMatchObject({ apiKeySet: true });
    expect(shown.json().webhookUrl).toBeUndefined();

    const row = await h.t.db.system
      .selectFrom('sef_settings')
      .select('api_key_ciphertext')
      .where('organization_id', '=', s.orgId)
      .executeTakeFirstOrThrow();
    expect(row.api_key_ciphertext).not.toContain(KEY);
    expect(deps.box!.open(row.api_key_ciphertext!, 'sef.api_key').toString()).toBe(KEY);
  });

  it('is for Serbian organizations only', async () => {
    const hr = await seller(h.app, 'HR');
    const res = await inject(hr.token, 'PUT', '/api/v1/organization/sef', { apiKey: KEY, enabled: true });
    expect(res.statusCode).toBe(422);
  });
});

describe('sending to SEF (D2, D3)', { timeout: 120_000 }, () => {
  it('registers the invoice on send, with a requestId fixed before the call, and queueing again changes nothing', async () => {
    const inv = await newInvoice();
    const out = await sefOf(inv.id);
    expect(out.sef).toMatchObject({ status: 'Sent', lastError: null });
    expect(mock.sales.get(out.sef.salesInvoiceId)?.requestId).toBe(out.sef.requestId);
    // What SEF received passed the official rules (empty when ../shared/einvoice is absent).
    expect(mock.validations.find((v) => v.requestId === out.sef.requestId)?.failures).toEqual([]);

    const shown = await inject(s.token, 'GET', `/api/v1/invoices/${inv.id}`);
    expect(shown.json().sef).toEqual(out.sef);

    const again = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/sef`);
    expect(again.statusCode).toBe(202);
    expect(again.json().sef).toEqual(out.sef);
    expect(uploadsOf(out.sef.requestId)).toHaveLength(1);
  });

  it('a crash between SEF registering and our recording the answer: the retry reuses the requestId, one registration', async () => {
    mock.inject('sales-invoice/ubl', { kind: 'register-then-drop' });
    const inv = await newInvoice();
    const first = (await sefOf(inv.id)).sef;
    expect(first.status).toBe('Pending');
    expect(first.lastError).toMatch(/unreachable|cut off/);
    expect(first.salesInvoiceId).toBeNull();
    const registered = [...mock.sales.values()].filter((x) => x.requestId === first.requestId);
    expect(registered).toHaveLength(1);

    await dueNow(inv.id);
    await deliverDue(deps);
    const after = (await sefOf(inv.id)).sef;
    expect(after).toMatchObject({
      status: 'Sent',
      requestId: first.requestId,
      salesInvoiceId: registered[0].salesInvoiceId,
    });
    expect(uploadsOf(first.requestId)).toHaveLength(2);
    expect([...mock.sales.values()].filter((x) => x.requestId === first.requestId)).toHaveLength(1);
  });

  it('429 and 5xx are retried with backoff (first retry within 30 s), then delivered', async () => {
    mock.inject(
      'sales-invoice/ubl',
      { kind: 'status', status: 429, body: { Message: 'Too many requests' }, headers: { 'retry-after': '3' } },
      { kind: 'status', status: 503, body: { Message: 'Service unavailable' } },
    );
    const inv = await newInvoice();
    const pending = (await sefOf(inv.id)).sef;
    expect(pending).toMatchObject({ status: 'Pending' });
    expect(pending.lastError).toContain('429');
    const doc = await h.t.db.system
      .selectFrom('sef_documents')
      .selectAll()
      .where('invoice_id', '=', inv.id)
      .executeTakeFirstOrThrow();
    const wait = new Date(doc.next_attempt_at!).getTime() - new Date(doc.updated_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(3000);
    expect(wait).toBeLessThanOrEqual(30_000);

    // Not due yet: the job leaves it alone.
    await deliverDue(deps);
    expect(uploadsOf(pending.requestId)).toHaveLength(1);

    await dueNow(inv.id);
    await deliverDue(deps);
    const second = (await sefOf(inv.id)).sef;
    expect(second.status).toBe('Pending');
    expect(second.lastError).toContain('503');
    const doc2 = await h.t.db.system
      .selectFrom('sef_documents')
      .selectAll()
      .where('invoice_id', '=', inv.id)
      .executeTakeFirstOrThrow();
    expect(doc2.attempts).toBe(2);
    expect(new Date(doc2.next_attempt_at!).getTime() - new Date(doc2.updated_at).getTime()).toBeGreaterThan(
      wait - 1000,
    );

    await dueNow(inv.id);
    await deliverDue(deps);
    expect((await sefOf(inv.id)).sef).toMatchObject({ status: 'Sent', requestId: pending.requestId, lastError: null });
  });

  it("SEF's validation refusal is final and shown with SEF's message; queueing again uses a new requestId", async () => {
    mock.inject('sales-invoice/ubl', {
      kind: 'status',
      status: 400,
      body: {
        Message: 'Validation failed.',
        FieldErrors: [{ FieldName: 'InvoiceLine', ErrorMessage: 'Jedinica mere nije validna' }],
      },
    });
    const inv = await newInvoice();
    const failed = (await sefOf(inv.id)).sef;
    expect(failed.status).toBe('Failed');
    expect(failed.lastError).toContain('Jedinica mere nije validna');
    expect(failed.lastError).toContain('Validation failed.');

    const again = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/sef`);
    expect(again.statusCode).toBe(202);
    expect(again.json().sef.status).toBe('Sent');
    expect(again.json().sef.requestId).not.toBe(failed.requestId);
  });

  it('checks that the buyer is registered in SEF before sending', async () => {
    const other = await buyer(h.app, s, 'RS', { vatNumber: '100000112', name: 'Bez SEF naloga d.o.o.' });
    const inv = await newInvoice(s, other.id);
    const sef = (await sefOf(inv.id)).sef;
    expect(sef.status).toBe('Failed');
    expect(sef.lastError).toContain('not registered in SEF');
    expect(uploadsOf(sef.requestId)).toHaveLength(0);
  });

  it('POST /invoices/:id/sef: a draft is 400, a viewer 403', async () => {
    const draft = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/invoices',
        payload: { customerId, invoiceDate: todayIso(), dueDate: todayIso(), items: [line] },
      }),
    );
    expect((await inject(s.token, 'POST', `/api/v1/invoices/${draft.json().id}/sef`)).statusCode).toBe(400);
    const viewer = await addMember(h.app, s, 'viewer');
    expect((await inject(viewer.token, 'POST', `/api/v1/invoices/${draft.json().id}/sef`)).statusCode).toBe(403);
  });
});

describe('status sync, webhook, cancel and storno', { timeout: 120_000 }, () => {
  it("the sync job applies SEF's changes of the day and records when it ran", async () => {
    const inv = await newInvoice();
    const { sef } = await sefOf(inv.id);
    mock.setStatus(sef.salesInvoiceId, 'Approved', todayIso());
    expect(await runSefSync(deps)).toBeGreaterThanOrEqual(1);
    expect((await sefOf(inv.id)).sef.status).toBe('Approved');
    expect(mock.calls.some((c) => c.path === 'sales-invoice/changes' && c.query.get('date') === todayIso())).toBe(true);
    const settings = await inject(s.token, 'GET', '/api/v1/organization/sef');
    expect(settings.json().lastSyncAt).not.toBeNull();
  });

  it("the webhook applies SEF's notification for the organization whose URL it is", async () => {
    const inv = await newInvoice();
    const { sef } = await sefOf(inv.id);
    const url = new URL((await inject(s.token, 'GET', '/api/v1/organization/sef')).json().webhookUrl).pathname;
    const res = await h.app.inject({
      method: 'POST',
      url,
      payload: { SalesInvoiceId: sef.salesInvoiceId, NewInvoiceStatus: 'Rejected', Comment: 'Pogrešna cena' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ applied: 1 });
    expect((await sefOf(inv.id)).sef.status).toBe('Rejected');
    const unknown = await h.app.inject({
      method: 'POST',
      url: '/api/v1/sef/webhook/AAAAAAAAAAAAAAAAAAAAAAAA',
      payload: { SalesInvoiceId: sef.salesInvoiceId, NewInvoiceStatus: 'Approved' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await sefOf(inv.id)).sef.status).toBe('Rejected');
  });

  it('cancel before the buyer acts; storno after approval; SEF refusing says why', async () => {
    const a = await newInvoice();
    const cancel = await inject(s.token, 'POST', `/api/v1/invoices/${a.id}/sef/cancel`, { reason: 'Pogrešan kupac' });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().sef.status).toBe('Cancelled');
    expect(mock.sales.get(cancel.json().sef.salesInvoiceId)?.comment).toBe('Pogrešan kupac');

    const b = await newInvoice();
    const { sef } = await sefOf(b.id);
    mock.setStatus(sef.salesInvoiceId, 'Approved', todayIso());
    await runSefSync(deps);
    const refused = await inject(s.token, 'POST', `/api/v1/invoices/${b.id}/sef/cancel`, { reason: 'kasno' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.sef[0]).toContain('cannot be cancelled');
    const storno = await inject(s.token, 'POST', `/api/v1/invoices/${b.id}/sef/storno`, {
      reason: 'Povrat robe',
      stornoNumber: 'ST-1',
    });
    expect(storno.statusCode).toBe(200);
    expect(storno.json().sef.status).toBe('Storno');
  });

  it('a credit note of a cancelled invoice goes to SEF too', async () => {
    const inv = await newInvoice();
    const cancel = await h.app.inject(
      authed(s.token, { method: 'PATCH', url: `/api/v1/invoices/${inv.id}/status`, payload: { action: 'cancel' } }),
    );
    expect(cancel.statusCode).toBe(200);
    const res = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/credit-note/sef`);
    expect(res.statusCode).toBe(202);
    const cn = res.json().creditNoteSef;
    expect(cn.status).toBe('Sent');
    expect(mock.sales.get(cn.salesInvoiceId)?.xml).toContain('<CreditNote');
    expect(mock.validations.find((v) => v.requestId === cn.requestId)?.failures).toEqual([]);
  });
});

describe('purchase invoices from SEF (D4)', { timeout: 120_000 }, () => {
  let supplierXml: string;
  beforeAll(async () => {
    // The supplier: another Serbian organization whose invoice to our seller is a real srbdt UBL.
    const supplier = await seller(h.app, 'RS');
    const toUs = await buyer(h.app, supplier, 'RS', { vatNumber: 'RS101134702', registrationNumber: '17555555' });
    const inv = await sentInvoice(h.app, supplier, {
      customerId: toUs.id,
      invoiceDate: todayIso(),
      dueDate: todayIso(),
      items: [line, { ...line, description: 'Druga usluga', unitPrice: 500, taxRate: 10 }],
    });
    supplierXml = (await inject(supplier.token, 'GET', `/api/v1/invoices/${inv.id}/ubl`)).body;
  }, 120_000);

  it('fetches ids then the UBL, parses it, and accepts with a comment', async () => {
    const sefId = mock.addPurchase(supplierXml, todayIso());
    await runSefSync(deps);
    const list = await inject(s.token, 'GET', '/api/v1/purchase-invoices');
    expect(list.statusCode).toBe(200);
    const item = list.json().data.find((p: { externalId: string }) => p.externalId === String(sefId));
    expect(item).toMatchObject({
      status: 'New',
      supplierVatNumber: '101134702',
      currencyCode: 'RSD',
      totalAmount: '1750.00',
      taxAmount: '250.00',
    });
    const one = await inject(s.token, 'GET', `/api/v1/purchase-invoices/${item.id}`);
    expect(one.json().lines).toHaveLength(2);
    const ubl = await inject(s.token, 'GET', `/api/v1/purchase-invoices/${item.id}/ubl`);
    expect(ubl.headers['content-type']).toMatch(/^application\/xml/);
    expect(ubl.body).toBe(supplierXml);

    // A second sync does not fetch it again.
    const xmlCalls = mock.calls.filter((c) => c.path === 'purchase-invoice/xml').length;
    await runSefSync(deps);
    expect(mock.calls.filter((c) => c.path === 'purchase-invoice/xml').length).toBe(xmlCalls);

    expect((await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/accept`, {})).statusCode).toBe(422);
    const accepted = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/accept`, {
      comment: 'U redu',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'Approved', comment: 'U redu' });
    expect(mock.purchases.get(sefId)).toMatchObject({ status: 'Approved', comment: 'U redu' });
    const twice = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/reject`, { comment: 'ne' });
    expect(twice.statusCode).toBe(422);

    // The expense: the vendor is created from the supplier (PIB), then matched the next time.
    const exp = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/expense`, {});
    expect(exp.statusCode).toBe(201);
    expect(exp.json()).toMatchObject({ amount: '1750.00', taxAmount: '250.00', status: 'pending' });
    const vendor = await h.t.db.system
      .selectFrom('contacts')
      .selectAll()
      .where('id', '=', exp.json().vendorId)
      .executeTakeFirstOrThrow();
    expect(vendor.vat_number).toBe('101134702');
    expect((await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/expense`, {})).statusCode).toBe(422);

    const sefId2 = mock.addPurchase(supplierXml.replace(/<cbc:ID>INV-/, '<cbc:ID>INV2-'), todayIso());
    await runSefSync(deps);
    const second = (await inject(s.token, 'GET', '/api/v1/purchase-invoices?perPage=100'))
      .json()
      .data.find((p: { externalId: string }) => p.externalId === String(sefId2));
    // Two requests at once: one expense, linked; the other is refused (the link commits with the expense).
    const [a, b] = await Promise.all([
      inject(s.token, 'POST', `/api/v1/purchase-invoices/${second.id}/expense`, {}),
      inject(s.token, 'POST', `/api/v1/purchase-invoices/${second.id}/expense`, {}),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    const exp2 = a.statusCode === 201 ? a : b;
    expect(exp2.json().vendorId).toBe(exp.json().vendorId);
    const made = await h.t.db.system
      .selectFrom('expenses')
      .select('id')
      .where('organization_id', '=', s.orgId)
      .where('description', 'like', '%INV2-%')
      .execute();
    expect(made.map((e) => e.id)).toEqual([exp2.json().id]);
  });

  it('rejects with a comment; SEF down is 503 and changes nothing', async () => {
    const sefId = mock.addPurchase(supplierXml.replace(/<cbc:ID>INV-/, '<cbc:ID>INV3-'), todayIso());
    await runSefSync(deps);
    const item = (await inject(s.token, 'GET', '/api/v1/purchase-invoices?perPage=100'))
      .json()
      .data.find((p: { externalId: string }) => p.externalId === String(sefId));
    mock.inject('purchase-invoice/acceptRejectPurchaseInvoice', { kind: 'status', status: 502, body: 'Bad gateway' });
    const down = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/reject`, {
      comment: 'Pogrešan iznos',
    });
    expect(down.statusCode).toBe(503);
    expect(mock.purchases.get(sefId)?.status).toBe('New');
    const rejected = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/reject`, {
      comment: 'Pogrešan iznos',
    });
    expect(rejected.json()).toMatchObject({ status: 'Rejected', comment: 'Pogrešan iznos' });
    expect(mock.purchases.get(sefId)?.status).toBe('Rejected');
    const list = await inject(s.token, 'GET', '/api/v1/purchase-invoices?status=Rejected');
    expect(list.json().data.map((p: { id: string }) => p.id)).toContain(item.id);
  });
});

describe("SEF's code lists", { timeout: 120_000 }, () => {
  it('are fetched once a day and shown', async () => {
    await runSefSync(deps);
    const calls = () => mock.calls.filter((c) => c.path === 'get-unit-measures').length;
    const n = calls();
    expect(n).toBeGreaterThanOrEqual(1);
    await runSefSync(deps);
    expect(calls()).toBe(n);
    const lists = await inject(s.token, 'GET', '/api/v1/sef/code-lists');
    expect(
      lists
        .json()
        .map((l: { name: string }) => l.name)
        .sort(),
    ).toEqual(['unit-measures', 'vat-exemption-reasons']);
  });

  it('are used before sending: a unit SEF does not list is named, nothing uploaded', async () => {
    const inv = await sentInvoice(h.app, s, {
      customerId,
      invoiceDate: todayIso(),
      dueDate: todayIso(),
      items: [{ ...line, unitCode: 'HUR' }],
    });
    const sef = (await sefOf(inv.id)).sef;
    expect(sef.status).toBe('Failed');
    expect(sef.lastError).toContain("unit HUR is not in SEF's list");
    expect(uploadsOf(sef.requestId)).toHaveLength(0);
  });
});

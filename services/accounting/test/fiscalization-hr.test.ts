import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { partPresent } from '@app/shared/test/parts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { localStorage } from '../src/infra/storage/storage.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { deliverFiscalDue, runFiscalDelivery } from '../src/modules/fiscalization-hr/fiscalization.service.js';
import {
  eRacunRequest,
  fiscalDataFromUbl,
  naplataRequest,
  odbijanjeRequest,
} from '../src/modules/fiscalization-hr/messages.js';
import { signRequest, verifyRequest } from '../src/modules/fiscalization-hr/sign.js';
import { callService } from '../src/modules/fiscalization-hr/soap-client.js';
import type { InvoiceDeps } from '../src/modules/invoices/invoice-transitions.js';
import type { SefDeps } from '../src/modules/sef/sef.service.js';
import { buyer, getUbl, seller, sentInvoice } from './einvoice-fixtures.js';
import { EINVOICE_DIR } from './einvoice-validation.js';
import { buildTestApp, type Session, type TestApp } from './helpers.js';
import { HrFiscalMock, p12Of, testCertificate } from './hr-fiscal-mock.js';

const HR_DIR = `${EINVOICE_DIR}hr-fiscalization/`;
function hasOpenssl() {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const HAVE_HR = partPresent(
  'the Croatian fiscalization schemas (../shared/einvoice/hr-fiscalization) and openssl',
  !existsSync(`${HR_DIR}eFiskalizacijaSchema/eFiskalizacijaSchema.xsd`)
    ? `not at ${HR_DIR}: a clone on its own; CI provides ../shared/einvoice`
    : hasOpenssl()
      ? null
      : 'openssl is not installed (it makes the test certificate)',
  'Croatian fiscalization tests',
);

async function xsdErrors(xml: string, schema: 'eFiskalizacijaSchema' | 'eIzvjestavanjeSchema') {
  const dir = `${HR_DIR}${schema}/`;
  const r = await validateXML({
    xml: [{ fileName: 'message.xml', contents: xml }],
    schema: [{ fileName: `${schema}.xsd`, contents: readFileSync(`${dir}${schema}.xsd`, 'utf8') }],
    preload: [{ fileName: 'xmldsig-core-schema.xsd', contents: readFileSync(`${dir}xmldsig-core-schema.xsd`, 'utf8') }],
  });
  return r.errors.map((e) => e.rawMessage);
}

const KPD = '62.10.11';
const line = (o: Record<string, unknown>) => ({
  description: 'Usluga — čćđšž',
  quantity: 2,
  unitPrice: 100,
  classificationCode: KPD,
  ...o,
});
const CASES: Array<[string, Array<Record<string, unknown>>]> = [
  ['25 %', [line({ taxRate: 25 })]],
  ['13 %', [line({ taxRate: 13 })]],
  ['5 %', [line({ taxRate: 5 })]],
  ['0 % intra-community supply (K)', [line({ taxRate: 0, vatExemptionCode: 'VATEX-EU-IC' })]],
  ['exempt (E)', [line({ taxRate: 0, vatExemptionCode: 'VATEX-EU-132-1A' })]],
  [
    'mixed 25/13/5 and exempt',
    [
      line({ taxRate: 25 }),
      line({ taxRate: 13 }),
      line({ taxRate: 5 }),
      line({ taxRate: 0, vatExemptionCode: 'VATEX-EU-132-1A' }),
    ],
  ],
];

let h: TestApp;
let s: Session;
let customerId: string;
let cert: { key: string; cert: string };

beforeAll(async () => {
  if (!HAVE_HR) return;
  cert = testCertificate();
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  s = await seller(h.app, 'HR');
  customerId = (await buyer(h.app, s, 'HR')).id;
}, 120_000);
afterAll(async () => h?.close());

describe.skipIf(!HAVE_HR)('Croatian fiscalization messages (D5)', { timeout: 120_000 }, () => {
  it.each(CASES)(
    'EvidentirajERacunZahtjev, issued and received, %s: valid to the XSD and signed',
    async (_name, items) => {
      const today = new Date().toISOString().slice(0, 10);
      const inv = await sentInvoice(h.app, s, { customerId, invoiceDate: today, dueDate: today, items });
      const ubl = await getUbl(h.app, s, inv.id);
      expect(ubl.statusCode).toBe(200);
      const data = fiscalDataFromUbl(ubl.body);
      expect(data.iznosi.zaPlatiti).toBe(inv.totalAmount);
      expect(data.izdavatelj.oibOperatera).toBe('33392005961');
      for (const direction of ['I', 'U'] as const) {
        const { xml, id } = eRacunRequest(data, direction);
        const signed = signRequest(xml, cert.key, cert.cert);
        expect(await xsdErrors(signed, 'eFiskalizacijaSchema')).toEqual([]);
        expect(signed).toContain(`fis:id="${id}"`);
        expect(verifyRequest(signed, cert.cert)).toBe(true);
        // Any change to the signed data breaks the signature.
        expect(verifyRequest(signed.replace(data.iznosi.zaPlatiti, '0.01'), cert.cert)).toBe(false);
      }
    },
  );

  it('a credit note refers to the invoice it corrects (PrethodniERacun)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const inv = await sentInvoice(h.app, s, {
      customerId,
      invoiceDate: today,
      dueDate: today,
      items: [line({ taxRate: 25 })],
    });
    const cancel = await h.app.inject({
      method: 'PATCH',
      url: `/api/v1/invoices/${inv.id}/status`,
      headers: { authorization: `Bearer ${s.token}` },
      payload: { action: 'cancel' },
    });
    expect(cancel.statusCode).toBe(200);
    const ubl = await getUbl(h.app, s, inv.id, 'credit-note/ubl');
    const data = fiscalDataFromUbl(ubl.body);
    expect(data.vrstaDokumenta).toBe('381');
    expect(data.prethodni).toEqual([{ broj: inv.invoiceNumber, datum: inv.invoiceDate }]);
    const signed = signRequest(eRacunRequest(data, 'I').xml, cert.key, cert.cert);
    expect(await xsdErrors(signed, 'eFiskalizacijaSchema')).toEqual([]);
  });

  it('e-reporting: payment (EvidentirajNaplatuZahtjev) and rejection (EvidentirajOdbijanjeZahtjev) pass their XSD', async () => {
    const doc = {
      brojDokumenta: 'INV-2026-0001',
      datumIzdavanja: '2026-02-01',
      oibIzdavatelja: '33392005961',
      oibPrimatelja: '10000000000',
    };
    const pay = signRequest(
      naplataRequest({ ...doc, datumNaplate: '2026-02-10', iznos: '125', nacinPlacanja: 'T' }).xml,
      cert.key,
      cert.cert,
    );
    expect(await xsdErrors(pay, 'eIzvjestavanjeSchema')).toEqual([]);
    expect(verifyRequest(pay, cert.cert)).toBe(true);
    const rej = signRequest(
      odbijanjeRequest({ ...doc, datumOdbijanja: '2026-02-03', vrstaRazloga: 'N', razlog: 'Neispravan iznos' }).xml,
      cert.key,
      cert.cert,
    );
    expect(await xsdErrors(rej, 'eIzvjestavanjeSchema')).toEqual([]);
    // A message the XSD refuses is told apart (the oracle can fail): a date before 2026.
    const old = signRequest(
      naplataRequest({
        ...doc,
        datumIzdavanja: '2025-12-31',
        datumNaplate: '2026-01-02',
        iznos: '1',
        nacinPlacanja: 'T',
      }).xml,
      cert.key,
      cert.cert,
    );
    expect((await xsdErrors(old, 'eIzvjestavanjeSchema')).length).toBeGreaterThan(0);
  });

  it("the SOAP client records the service's success and its official failure answer", async () => {
    const samples = `${HR_DIR}Primjeri_poruka_eIzvjestavanja/`;
    const answers = [
      readFileSync(`${samples}Odgovor_EvidentirajNaplatu.xml`, 'utf8'),
      readFileSync(`${samples}Neuspjesan_Odgovor_EvidentirajNaplatu.xml`, 'utf8'),
    ];
    const received: string[] = [];
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(answers[received.length - 1] ?? '');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eIzvjestavanje`;
    try {
      const doc = {
        brojDokumenta: 'INV-2026-0001',
        datumIzdavanja: '2026-02-01',
        oibIzdavatelja: '33392005961',
        oibPrimatelja: '10000000000',
      };
      const signed = signRequest(
        naplataRequest({ ...doc, datumNaplate: '2026-02-10', iznos: '125', nacinPlacanja: 'T' }).xml,
        cert.key,
        cert.cert,
      );
      const ok = await callService(url, signed, { timeoutMs: 5000 });
      expect(ok).toMatchObject({ ok: true, accepted: true, requestId: '3ac87da8-8056-40ec-9e68-2a0cfcc086b3' });
      const failed = await callService(url, signed, { timeoutMs: 5000 });
      expect(failed).toMatchObject({
        ok: true,
        accepted: false,
        errors: [{ code: 'S009', message: 'Ne postoji evidentirana fiskalizacija eRačuna.' }],
      });
      // What reached the service: the signed request in a SOAP body, still verifying.
      expect(received[0]).toContain('<soapenv:Body><eiz:EvidentirajNaplatuZahtjev');
      const inner = /<soapenv:Body>([\s\S]*)<\/soapenv:Body>/.exec(received[0])?.[1] ?? '';
      expect(verifyRequest(inner, cert.cert)).toBe(true);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    // Nobody answering: a retry, not an outcome.
    expect(await callService(url, 'x', { timeoutMs: 2000 })).toMatchObject({ ok: false, retry: true });
  });
});

describe.skipIf(!HAVE_HR)('fiscalization done by the service (D5, issue 28)', { timeout: 180_000 }, () => {
  let app: TestApp;
  let owner: Session;
  let customer: string;
  let deps: SefDeps;
  let mock: HrFiscalMock;
  const samples = `${HR_DIR}Primjeri_poruka_eIzvjestavanja/`;
  const sample = (name: string) => readFileSync(`${samples}${name}.xml`, 'utf8');

  beforeAll(async () => {
    mock = await new HrFiscalMock(cert.cert, HR_DIR).start();
    app = await buildTestApp({
      RATE_LIMITS: 'off',
      FISCALIZATION_BASE_URL: mock.url,
      FISCALIZATION_DELIVERY_INTERVAL: '0s',
      FISCALIZATION_TIMEOUT: '5s',
    });
    deps = {
      config: app.config,
      db: app.t.db,
      invoices: {
        config: app.config,
        db: app.t.db,
        log: app.app.log,
        storage: localStorage(join(app.config.dataDir, 'files')),
      } as InvoiceDeps,
      box: new SecretBox(app.config.sef.keyEncryptionKey!),
      log: app.app.log,
    };
    owner = await seller(app.app, 'HR');
    customer = (await buyer(app.app, owner, 'HR')).id;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await mock?.stop();
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object, token = owner.token) =>
    app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const today = () => new Date().toISOString().slice(0, 10);
  const newInvoice = (rate = 25) =>
    sentInvoice(app.app, owner, {
      customerId: customer,
      invoiceDate: today(),
      dueDate: today(),
      items: [line({ taxRate: rate })],
    });
  const fiscalOf = async (id: string) => (await call('GET', `/api/v1/invoices/${id}/fiscalization`)).json();
  const dueNow = (where: { invoiceId?: string; purchaseInvoiceId?: string }) =>
    app.t.db.system
      .updateTable('fiscal_records')
      .set({ next_attempt_at: new Date() })
      .where('status', '=', 'Pending')
      .where(where.invoiceId ? 'invoice_id' : 'purchase_invoice_id', '=', (where.invoiceId ?? where.purchaseInvoiceId)!)
      .execute();

  it('nothing is recorded before fiscalization is enabled; the certificate upload enables it', async () => {
    const before = await newInvoice();
    expect((await fiscalOf(before.id)).fiscalization).toBeNull();
    expect(mock.received).toHaveLength(0);
    const wrong = await call('PUT', '/api/v1/organization/fiscalization', {
      certificate: p12Of(cert, 'Tajna-123'),
      password: 'kriva',
      environment: 'test',
      enabled: true,
    });
    expect(wrong.statusCode).toBe(422);
    const put = await call('PUT', '/api/v1/organization/fiscalization', {
      certificate: p12Of(cert, 'Tajna-123'),
      password: 'Tajna-123',
      environment: 'test',
      enabled: true,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      enabled: true,
      certificateSet: true,
      certificateSubject: expect.stringContaining('FISKAL 1'),
    });
    expect(put.body).not.toContain('PRIVATE');
  });

  it('send fiscalizes the e-invoice after commit; the invoice, its list item and the route show it', async () => {
    const inv = await newInvoice();
    const f = (await fiscalOf(inv.id)).fiscalization;
    expect(f).toMatchObject({ status: 'Fiscalized', errors: [], lastError: null, attempts: 1, nextAttemptAt: null });
    const got = mock.received.filter((r) => r.requestId === f.requestId);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ root: 'EvidentirajERacunZahtjev', xsd: [], verified: true });
    expect(got[0].body).toContain('<fis:vrstaERacuna>I</fis:vrstaERacuna>');
    const shown = await call('GET', `/api/v1/invoices/${inv.id}`);
    expect(shown.json().fiscalization).toEqual(f);
    const list = await call('GET', '/api/v1/invoices?perPage=100');
    const item = list.json().data.find((i: { id: string }) => i.id === inv.id);
    expect(item.fiscalization).toEqual({ status: 'Fiscalized' });
    expect(item.sef).toBeNull();
    // Fiscalized once: asking again sends nothing.
    const n = mock.received.length;
    const again = await call('POST', `/api/v1/invoices/${inv.id}/fiscalization`);
    expect(again.statusCode).toBe(200);
    expect(again.json().fiscalization.status).toBe('Fiscalized');
    expect(mock.received.length).toBe(n);
  });

  it("the official failure answer is recorded with the service's codes; asking again sends it with a new request id", async () => {
    mock.answers.push({ xml: sample('Neuspjesan_Odgovor_EvidentirajNaplatu') });
    const inv = await newInvoice(13);
    const failed = (await fiscalOf(inv.id)).fiscalization;
    expect(failed).toMatchObject({
      status: 'Failed',
      errors: [{ code: 'S009', message: 'Ne postoji evidentirana fiskalizacija eRačuna.' }],
      lastError: 'S009: Ne postoji evidentirana fiskalizacija eRačuna.',
    });
    const list = await call('GET', '/api/v1/invoices?perPage=100');
    expect(list.json().data.find((i: { id: string }) => i.id === inv.id).fiscalization).toEqual({ status: 'Failed' });
    // Nothing retries a refusal by itself.
    await runFiscalDelivery(deps);
    expect(mock.received.filter((r) => r.requestId === failed.requestId)).toHaveLength(1);
    const again = await call('POST', `/api/v1/invoices/${inv.id}/fiscalization`);
    expect(again.json().fiscalization).toMatchObject({ status: 'Fiscalized', errors: [] });
    expect(again.json().fiscalization.requestId).not.toBe(failed.requestId);
  });

  it('service down (5xx, cut connection): Pending with the error, retried with backoff by the job with the same request id', async () => {
    mock.answers.push({ status: 503 }, { drop: true });
    const inv = await newInvoice(5);
    const first = (await fiscalOf(inv.id)).fiscalization;
    expect(first.status).toBe('Pending');
    expect(first.lastError).toContain('503');
    const wait = new Date(first.nextAttemptAt).getTime() - new Date(first.updatedAt).getTime();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30_000);
    // Not due yet: the job leaves it alone.
    await runFiscalDelivery(deps);
    expect(mock.received.filter((r) => r.requestId === first.requestId)).toHaveLength(1);
    await dueNow({ invoiceId: inv.id });
    await runFiscalDelivery(deps);
    const second = (await fiscalOf(inv.id)).fiscalization;
    expect(second).toMatchObject({ status: 'Pending', attempts: 2, requestId: first.requestId });
    expect(second.lastError).toMatch(/unreachable|unreadable|fetch failed|socket/i);
    expect(new Date(second.nextAttemptAt).getTime() - new Date(second.updatedAt).getTime()).toBeGreaterThan(
      wait - 1000,
    );
    await dueNow({ invoiceId: inv.id });
    await runFiscalDelivery(deps);
    expect((await fiscalOf(inv.id)).fiscalization).toMatchObject({
      status: 'Fiscalized',
      requestId: first.requestId,
      attempts: 3,
    });
    expect(mock.received.filter((r) => r.requestId === first.requestId)).toHaveLength(3);
  });

  it('a crash during the attempt: the lease it held runs out, then the job sends it with the same request id', async () => {
    mock.answers.push({ drop: true });
    const inv = await newInvoice();
    const f = (await fiscalOf(inv.id)).fiscalization;
    expect(f.status).toBe('Pending');
    // What a process that died during its call leaves: the claim's lease (two minutes ahead), no outcome.
    await app.t.db.system
      .updateTable('fiscal_records')
      .set({ next_attempt_at: new Date(Date.now() + 120_000), last_error: null })
      .where('invoice_id', '=', inv.id)
      .execute();
    await runFiscalDelivery(deps);
    expect(mock.received.filter((r) => r.requestId === f.requestId)).toHaveLength(1);
    await dueNow({ invoiceId: inv.id }); // the lease ran out
    expect(await runFiscalDelivery(deps)).toBeGreaterThanOrEqual(1);
    expect((await fiscalOf(inv.id)).fiscalization).toMatchObject({ status: 'Fiscalized', requestId: f.requestId });
    expect(mock.received.filter((r) => r.requestId === f.requestId)).toHaveLength(2);
  });

  it('mark-paid reports the payment (EvidentirajNaplatu) in the same way; the official failure is recorded', async () => {
    const inv = await newInvoice();
    const paid = await call('PATCH', `/api/v1/invoices/${inv.id}/status`, { action: 'mark-paid', paidAt: today() });
    expect(paid.statusCode).toBe(200);
    const pay = (await fiscalOf(inv.id)).payment;
    expect(pay).toMatchObject({ status: 'Fiscalized', errors: [] });
    const got = mock.received.find((r) => r.requestId === pay.requestId)!;
    expect(got).toMatchObject({ root: 'EvidentirajNaplatuZahtjev', xsd: [], verified: true });
    expect(got.body).toContain(`<eiz:brojDokumenta>${inv.invoiceNumber}</eiz:brojDokumenta>`);
    expect(got.body).toContain(`<eiz:datumNaplate>${today()}</eiz:datumNaplate>`);
    expect(got.body).toContain(`<eiz:naplaceniIznos>${inv.totalAmount}</eiz:naplaceniIznos>`);

    const inv2 = await newInvoice(13);
    mock.answers.push({ xml: sample('Neuspjesan_Odgovor_EvidentirajNaplatu') });
    await call('PATCH', `/api/v1/invoices/${inv2.id}/status`, { action: 'mark-paid', paidAt: today() });
    expect((await fiscalOf(inv2.id)).payment).toMatchObject({
      status: 'Failed',
      errors: [{ code: 'S009', message: 'Ne postoji evidentirana fiskalizacija eRačuna.' }],
    });
    const again = await call('POST', `/api/v1/invoices/${inv2.id}/fiscalization`, { message: 'payment' });
    expect(again.statusCode).toBe(200);
    expect(again.json().payment.status).toBe('Fiscalized');
  });

  it('a payment waits for its e-invoice: the job sends the e-invoice first, then the payment', async () => {
    mock.answers.push({ status: 500 });
    const inv = await newInvoice();
    expect((await fiscalOf(inv.id)).fiscalization.status).toBe('Pending');
    await call('PATCH', `/api/v1/invoices/${inv.id}/status`, { action: 'mark-paid', paidAt: today() });
    const waiting = (await fiscalOf(inv.id)).payment;
    expect(waiting.status).toBe('Pending');
    expect(waiting.lastError).toContain("waiting for the e-invoice's fiscalization");
    expect(mock.received.some((r) => r.requestId === waiting.requestId)).toBe(false);
    await dueNow({ invoiceId: inv.id });
    await runFiscalDelivery(deps);
    const after = await fiscalOf(inv.id);
    expect(after.fiscalization.status).toBe('Fiscalized');
    expect(after.payment.status).toBe('Fiscalized');
    const order = mock.received.map((r) => r.requestId);
    expect(order.lastIndexOf(after.fiscalization.requestId)).toBeLessThan(order.indexOf(after.payment.requestId));
  });

  it('cancelling a sent e-invoice fiscalizes its credit note (381, referring to the invoice)', async () => {
    const inv = await newInvoice();
    const cancel = await call('PATCH', `/api/v1/invoices/${inv.id}/status`, { action: 'cancel' });
    expect(cancel.statusCode).toBe(200);
    const cn = (await fiscalOf(inv.id)).creditNote;
    expect(cn).toMatchObject({ status: 'Fiscalized' });
    const got = mock.received.find((r) => r.requestId === cn.requestId)!;
    expect(got).toMatchObject({ root: 'EvidentirajERacunZahtjev', xsd: [], verified: true });
    expect(got.body).toContain('<fis:vrstaDokumenta>381</fis:vrstaDokumenta>');
    expect(got.body).toContain(`<fis:brojDokumenta>${inv.invoiceNumber}</fis:brojDokumenta>`);
    // A draft cancelled owes nothing.
    const draft = await call('POST', '/api/v1/invoices', {
      customerId: customer,
      invoiceDate: today(),
      dueDate: today(),
      items: [line({ taxRate: 25 })],
    });
    await call('PATCH', `/api/v1/invoices/${draft.json().id}/status`, { action: 'cancel' });
    expect(await fiscalOf(draft.json().id)).toMatchObject({ fiscalization: null, creditNote: null, payment: null });
  });

  it('rejecting a received HR e-invoice reports the rejection (EvidentirajOdbijanje); the official failure is recorded', async () => {
    // The supplier: another Croatian organization whose e-invoice to our seller is a real CIUS-HR UBL.
    const supplier = await seller(app.app, 'HR');
    const toUs = (await buyer(app.app, supplier, 'HR', { vatNumber: 'HR33392005961' })).id;
    const received = async (n: number) => {
      const inv = await sentInvoice(app.app, supplier, {
        customerId: toUs,
        invoiceDate: today(),
        dueDate: today(),
        items: [line({ taxRate: 25 })],
      });
      const ubl = (await getUbl(app.app, supplier, inv.id)).body;
      const row = await app.t.db.system
        .insertInto('purchase_invoices')
        .values({
          organization_id: owner.orgId,
          source: 'hr-intermediary',
          external_id: `hr-${n}-${inv.id}`,
          status: 'New',
          invoice_number: inv.invoiceNumber,
          issue_date: today(),
          supplier_name: 'Dobavljač d.o.o.',
          currency_code: 'EUR',
          net_amount: '200',
          tax_amount: '50',
          total_amount: '250',
          ubl,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const a = await received(1);
    const rej = await call('POST', `/api/v1/purchase-invoices/${a}/reject`, {
      comment: 'Pogrešan iznos PDV-a',
      reasonType: 'U',
    });
    expect(rej.statusCode).toBe(200);
    expect(rej.json()).toMatchObject({ status: 'Rejected', comment: 'Pogrešan iznos PDV-a' });
    expect(rej.json().fiscalization.rejection).toMatchObject({ status: 'Fiscalized' });
    const got = mock.received.find((r) => r.requestId === rej.json().fiscalization.rejection.requestId)!;
    expect(got).toMatchObject({ root: 'EvidentirajOdbijanjeZahtjev', xsd: [], verified: true });
    expect(got.body).toContain('<eiz:vrstaRazlogaOdbijanja>U</eiz:vrstaRazlogaOdbijanja>');
    expect(got.body).toContain('<eiz:razlogOdbijanja>Pogrešan iznos PDV-a</eiz:razlogOdbijanja>');
    expect(got.body).toContain('<eiz:oibPorezniBrojPrimatelja>33392005961</eiz:oibPorezniBrojPrimatelja>');
    const twice = await call('POST', `/api/v1/purchase-invoices/${a}/reject`, { comment: 'opet' });
    expect(twice.statusCode).toBe(422);

    const b = await received(2);
    mock.answers.push({ xml: sample('Neuspjesan_Odgovor_EvidentirajOdbijanje') });
    const rej2 = await call('POST', `/api/v1/purchase-invoices/${b}/reject`, { comment: 'Ne priznajemo' });
    expect(rej2.json().status).toBe('Rejected');
    expect(rej2.json().fiscalization.rejection).toMatchObject({
      status: 'Failed',
      errors: [{ code: 'S010', message: 'Već postoji zabilježen status odbijanja eRačuna s istim identifikatorom.' }],
    });
    const shown = await call('GET', `/api/v1/purchase-invoices/${b}`);
    expect(shown.json().fiscalization.rejection.status).toBe('Failed');

    // Accepting owes no report.
    const c = await received(3);
    const acc = await call('POST', `/api/v1/purchase-invoices/${c}/accept`, { comment: 'U redu' });
    expect(acc.json()).toMatchObject({ status: 'Approved', fiscalization: { received: null, rejection: null } });
  });

  it('two delivery passes at once send each due message once (claimed with a lease, SKIP LOCKED)', async () => {
    mock.answers.push({ status: 503 }, { status: 503 }, { status: 503 });
    const ids = [(await newInvoice()).id, (await newInvoice(13)).id, (await newInvoice(5)).id];
    for (const id of ids) {
      expect((await fiscalOf(id)).fiscalization.status).toBe('Pending');
      await dueNow({ invoiceId: id });
    }
    const before = mock.received.length;
    await Promise.all([deliverFiscalDue(deps), deliverFiscalDue(deps), runFiscalDelivery(deps)]);
    for (const id of ids) expect((await fiscalOf(id)).fiscalization.status).toBe('Fiscalized');
    expect(mock.received.length - before).toBe(3);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partPresent } from '@app/shared/test/parts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import {
  eRacunRequest,
  fiscalDataFromUbl,
  naplataRequest,
  odbijanjeRequest,
} from '../src/modules/fiscalization-hr/messages.js';
import { signRequest, verifyRequest } from '../src/modules/fiscalization-hr/sign.js';
import { callService } from '../src/modules/fiscalization-hr/soap-client.js';
import { buyer, getUbl, seller, sentInvoice } from './einvoice-fixtures.js';
import { EINVOICE_DIR } from './einvoice-validation.js';
import { buildTestApp, type Session, type TestApp } from './helpers.js';

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

/** A test signing certificate made here (never a real one): RSA 2048, self-signed. */
function testCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'hr-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/C=HR/O=Test d.o.o./CN=FISKAL 1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

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

describe.skipIf(!HAVE_HR)('fiscalizing an invoice through the API (D5)', { timeout: 120_000 }, () => {
  let app: TestApp;
  let owner: Session;
  let customer: string;
  const received: Array<{ body: string; xsd: string[]; verified: boolean }> = [];
  const answers: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const envelope = Buffer.concat(chunks).toString('utf8');
    const body = /<soapenv:Body>([\s\S]*)<\/soapenv:Body>/.exec(envelope)?.[1] ?? '';
    // The mock checks what it receives with the official schema and the certificate.
    received.push({
      body,
      xsd: await xsdErrors(body, 'eFiskalizacijaSchema'),
      verified: verifyRequest(body, cert.cert),
    });
    const id = /fis:id="([^"]+)"/.exec(body)?.[1] ?? '';
    const answer = answers.shift() ?? '';
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(answer.replaceAll('{id}', id));
  });
  const ACCEPTED = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>
    <fis:EvidentirajERacunOdgovor xmlns:fis="http://www.porezna-uprava.gov.hr/fin/2024/types/eFiskalizacija" fis:id="a1">
    <fis:datumVrijemeSlanja>2026-02-01T10:00:00.0000</fis:datumVrijemeSlanja>
    <fis:Odgovor><fis:idZahtjeva>{id}</fis:idZahtjeva><fis:prihvacenZahtjev>true</fis:prihvacenZahtjev></fis:Odgovor>
    </fis:EvidentirajERacunOdgovor></soapenv:Body></soapenv:Envelope>`;

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    app = await buildTestApp({
      RATE_LIMITS: 'off',
      FISCALIZATION_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    owner = await seller(app.app, 'HR');
    customer = (await buyer(app.app, owner, 'HR')).id;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      ...(payload ? { payload } : {}),
    });

  it('stores the certificate from a PKCS#12 upload, fiscalizes, and records success and the official failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hr-p12-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'key.pem'), cert.key);
    writeFileSync(join(dir, 'cert.pem'), cert.cert);
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-inkey',
        join(dir, 'key.pem'),
        '-in',
        join(dir, 'cert.pem'),
        '-passout',
        'pass:Tajna-123',
        '-out',
        join(dir, 'c.p12'),
      ],
      { stdio: 'ignore' },
    );
    const p12 = readFileSync(join(dir, 'c.p12')).toString('base64');

    const wrong = await call('PUT', '/api/v1/organization/fiscalization', {
      certificate: p12,
      password: 'kriva',
      environment: 'test',
      enabled: true,
    });
    expect(wrong.statusCode).toBe(422);
    const put = await call('PUT', '/api/v1/organization/fiscalization', {
      certificate: p12,
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

    const today = new Date().toISOString().slice(0, 10);
    const inv = await sentInvoice(app.app, owner, {
      customerId: customer,
      invoiceDate: today,
      dueDate: today,
      items: [line({ taxRate: 25 })],
    });
    answers.push(ACCEPTED);
    const ok = await call('POST', `/api/v1/invoices/${inv.id}/fiscalization`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().fiscalization).toMatchObject({ status: 'Fiscalized', errors: [], lastError: null });
    expect(received.at(-1)).toMatchObject({ xsd: [], verified: true });
    expect(received.at(-1)?.body).toContain(`fis:id="${ok.json().fiscalization.requestId}"`);
    // Fiscalized once: asking again sends nothing.
    const n = received.length;
    expect((await call('POST', `/api/v1/invoices/${inv.id}/fiscalization`)).json().fiscalization.status).toBe(
      'Fiscalized',
    );
    expect(received.length).toBe(n);

    const inv2 = await sentInvoice(app.app, owner, {
      customerId: customer,
      invoiceDate: today,
      dueDate: today,
      items: [line({ taxRate: 13 })],
    });
    answers.push(
      readFileSync(`${HR_DIR}Primjeri_poruka_eIzvjestavanja/Neuspjesan_Odgovor_EvidentirajNaplatu.xml`, 'utf8'),
    );
    const failed = await call('POST', `/api/v1/invoices/${inv2.id}/fiscalization`);
    expect(failed.json().fiscalization).toMatchObject({
      status: 'Failed',
      errors: [{ code: 'S009', message: 'Ne postoji evidentirana fiskalizacija eRačuna.' }],
    });
    const shown = await call('GET', `/api/v1/invoices/${inv2.id}/fiscalization`);
    expect(shown.json().fiscalization.status).toBe('Failed');
  });
});

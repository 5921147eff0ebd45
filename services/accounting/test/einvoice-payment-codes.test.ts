import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HUB3_LIMITS,
  hub3Payload,
  IPS_LIMITS,
  ipsQrPayload,
  type PaymentCodeInput,
  renderPaymentCode,
  toLatin2,
} from '../src/domain/payment-code.js';
import { matchScore } from '../src/modules/banking/reconciliation.js';
import { buyer, seller, sentInvoice } from './einvoice-fixtures.js';
import { authed, buildTestApp, type Session, type TestApp } from './helpers.js';

// jsqr is CommonJS with a typed default export: under NodeNext the default import is the module.
const jsQR = ((m: unknown) => (m as { default?: unknown }).default ?? m)(jsQRModule) as typeof jsQRModule.default;

function decodeQr(png: Buffer): string | null {
  const img = PNG.sync.read(png);
  return (
    jsQR(new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), img.width, img.height)?.data ??
    null
  );
}

const RS_INPUT: PaymentCodeInput = {
  country: 'RS',
  account: '260005601001611379',
  payee: { name: 'Prodavac Šumadija d.o.o.', street: 'Knez Mihailova 1', postalCode: '11000', city: 'Beograd' },
  payer: { name: 'Kupac d.o.o.', street: 'Bulevar 2', postalCode: '21000', city: 'Novi Sad' },
  invoiceNumber: 'INV-2026-0001',
  currencyCode: 'RSD',
  totalAmount: '3596.13',
};

const HR_INPUT: PaymentCodeInput = {
  country: 'HR',
  account: 'HR1210010051863000160',
  payee: { name: 'Prodavatelj Đakovo d.o.o.', street: 'Ilica 1', postalCode: '10000', city: 'Zagreb' },
  payer: { name: 'Kupac Ćirić', street: 'Korzo 2', postalCode: '51000', city: 'Rijeka' },
  invoiceNumber: 'INV-2026-0042',
  currencyCode: 'EUR',
  totalAmount: '123.55',
};

describe('IPS QR (NBS) payload', () => {
  it('matches the hand-checked golden string', () => {
    // R: 18-digit account; I: RSD, decimal comma, two decimals; SF 221; RO: model 97 + check digits + number.
    expect(ipsQrPayload(RS_INPUT)).toBe(
      'K:PR|V:01|C:1|R:260005601001611379|N:Prodavac Šumadija d.o.o., 11000 Beograd|I:RSD3596,13|SF:221|S:Faktura INV-2026-0001|RO:970420260001',
    );
  });

  it('cuts the payee to 70 characters and the purpose to 35, and keeps "|" out of the fields', () => {
    const payload = ipsQrPayload({
      ...RS_INPUT,
      payee: { ...RS_INPUT.payee, name: `Dugačko|ime ${'Ž'.repeat(100)}` },
      invoiceNumber: 'INV-2026-123456789012345678901234',
    });
    const fields = Object.fromEntries(
      payload.split('|').map((f) => [f.slice(0, f.indexOf(':')), f.slice(f.indexOf(':') + 1)]),
    );
    expect([...fields.N]).toHaveLength(IPS_LIMITS.N);
    expect(fields.N.startsWith('Dugačko ime Ž')).toBe(true);
    expect([...fields.S]).toHaveLength(IPS_LIMITS.S);
    expect(payload.split('|')).toHaveLength(9);
  });

  it('renders a PNG that a QR reader decodes to the same payload, letters with diacritics included', async () => {
    const code = await renderPaymentCode(RS_INPUT);
    expect(code.kind).toBe('ips-qr');
    expect(decodeQr(code.png)).toBe(ipsQrPayload(RS_INPUT));
  });
});

describe('HUB-3A (HRVHUB30) payload', () => {
  it('matches the hand-checked golden string: 14 fields each ended by LF, amount in cents on 15 digits', () => {
    // The payee name is exactly 25 characters, the limit; the reference is HR01 year-sequence+control digit.
    expect(hub3Payload(HR_INPUT)).toBe(
      [
        'HRVHUB30',
        'EUR',
        '000000000012355',
        'Kupac Ćirić',
        'Korzo 2',
        '51000 Rijeka',
        'Prodavatelj Đakovo d.o.o.',
        'Ilica 1',
        '10000 Zagreb',
        'HR1210010051863000160',
        'HR01',
        '2026-00423',
        'GDSV',
        'Račun INV-2026-0042',
      ]
        .map((f) => `${f}\n`)
        .join(''),
    );
  });

  it('cuts every text field to the length the specification gives', () => {
    const long = 'X'.repeat(60);
    const fields = hub3Payload({
      ...HR_INPUT,
      payer: { name: long, street: long, postalCode: '10000', city: long },
      payee: { name: long, street: long, postalCode: '10000', city: long },
    }).split('\n');
    expect(fields.slice(3, 9).map((f) => f.length)).toEqual([
      HUB3_LIMITS.payerName,
      HUB3_LIMITS.payerStreet,
      HUB3_LIMITS.payerCity,
      HUB3_LIMITS.payeeName,
      HUB3_LIMITS.payeeStreet,
      HUB3_LIMITS.payeeCity,
    ]);
  });

  it('encodes the Croatian letters as ISO 8859-2 bytes and renders a PDF417 PNG', async () => {
    expect([...toLatin2('ČčĆćĐđŠšŽž')].map((c) => c.charCodeAt(0).toString(16))).toEqual([
      'c8',
      'e8',
      'c6',
      'e6',
      'd0',
      'f0',
      'a9',
      'b9',
      'ae',
      'be',
    ]);
    const code = await renderPaymentCode(HR_INPUT);
    expect(code.kind).toBe('hub3');
    const img = PNG.sync.read(code.png);
    // PDF417 with 9 data columns is wider than tall.
    expect(img.width).toBeGreaterThan(img.height);
  });
});

describe('reconciliation with the payment reference (E4, A15)', () => {
  const line = { id: 'b', date: '2026-03-20', amount: '3596.13', description: 'Uplata', reference: '' };
  const posting = {
    id: 'p',
    date: '2026-03-01',
    amount: '3596.13',
    description: 'Payment',
    debitAccountId: 'bank',
    creditAccountId: '1200',
    documentNumber: 'INV-2026-0001',
    paymentReference: '97 0420260001',
  };

  it('adds 20 when the bank reference contains the invoice payment reference, with or without spaces', () => {
    expect(matchScore(line, posting, 'bank')).toBe(50);
    expect(matchScore({ ...line, reference: '97 0420260001' }, posting, 'bank')).toBe(70);
    expect(matchScore({ ...line, reference: 'mod97 04-20260001' }, posting, 'bank')).toBe(70);
    expect(matchScore({ ...line, reference: '97 0520260001' }, posting, 'bank')).toBe(50);
  });
});

describe('payment codes through the API (E4)', () => {
  let h: TestApp;
  let rs: Session;
  let hr: Session;
  beforeAll(async () => {
    h = await buildTestApp();
    rs = await seller(h.app, 'RS');
    hr = await seller(h.app, 'HR');
  });
  afterAll(async () => {
    await h?.close();
  });
  const item = { description: 'Usluga', quantity: 2, unitPrice: 1000, taxRate: 20, classificationCode: '62.10.11' };

  it('serves the IPS QR of a Serbian invoice as a PNG that decodes to its account, total and reference', async () => {
    const c = await buyer(h.app, rs, 'RS');
    const inv = await sentInvoice(h.app, rs, {
      customerId: c.id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [item],
    });
    const res = await h.app.inject(authed(rs.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}/payment-code` }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const payload = decodeQr(res.rawPayload);
    expect(payload).toContain('|R:260005601001611379|');
    expect(payload).toContain(`|I:RSD${inv.totalAmount.replace('.', ',')}|`);
    expect(payload).toContain(`|RO:${inv.paymentReference.replace(' ', '')}`);
  });

  it('prints the code on the PDF of a Serbian or Croatian invoice and not without an account', async () => {
    const pdfOf = async (s: Session, id: string) =>
      (await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${id}/pdf` }))).rawPayload.toString(
        'latin1',
      );
    const rsInv = await sentInvoice(h.app, rs, {
      customerId: (await buyer(h.app, rs, 'RS')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [item],
    });
    const hrInv = await sentInvoice(h.app, hr, {
      customerId: (await buyer(h.app, hr, 'HR')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [{ ...item, taxRate: 25 }],
    });
    expect(await pdfOf(rs, rsInv.id)).toMatch(/\/Subtype \/Image/);
    expect(await pdfOf(hr, hrInv.id)).toMatch(/\/Subtype \/Image/);
    await h.app.inject(authed(rs.token, { method: 'PUT', url: '/api/v1/organization', payload: { iban: null } }));
    const bare = await sentInvoice(h.app, rs, {
      customerId: (await buyer(h.app, rs, 'RS')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [item],
    });
    expect(await pdfOf(rs, bare.id)).not.toMatch(/\/Subtype \/Image/);
    const res = await h.app.inject(
      authed(rs.token, { method: 'GET', url: `/api/v1/invoices/${bare.id}/payment-code` }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toHaveProperty(['organization.iban']);
    await h.app.inject(
      authed(rs.token, { method: 'PUT', url: '/api/v1/organization', payload: { iban: '260-0056010016113-79' } }),
    );
  });

  it('answers 422 for an IPS code in another currency than RSD, and for a Bosnian organization', async () => {
    const c = await buyer(h.app, rs, 'RS');
    const eur = await sentInvoice(h.app, rs, {
      customerId: c.id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      currencyCode: 'EUR',
      items: [item],
    });
    const res = await h.app.inject(authed(rs.token, { method: 'GET', url: `/api/v1/invoices/${eur.id}/payment-code` }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toHaveProperty('currencyCode');
    const ba = await seller(h.app, 'BA');
    const baInv = await sentInvoice(h.app, ba, {
      customerId: (await buyer(h.app, ba, 'BA')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [{ ...item, taxRate: 17 }],
    });
    const baRes = await h.app.inject(
      authed(ba.token, { method: 'GET', url: `/api/v1/invoices/${baInv.id}/payment-code` }),
    );
    expect(baRes.statusCode).toBe(422);
  });
});

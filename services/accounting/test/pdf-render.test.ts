import { partPresent } from '@app/shared/test/parts';
import {
  inkShare,
  pageText,
  pdfFacts,
  pdfText,
  pdfWords,
  popplerMissing,
  renderPage,
} from '@app/shared/test/pdf-render';
import { BinaryBitmap, DecodeHintType, HybridBinarizer, PDF417Reader, RGBLuminanceSource } from '@zxing/library';
import jsQRModule from 'jsqr';
import type { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyer, seller, sentInvoice } from './einvoice-fixtures.js';
import { authed, buildTestApp, type Session, type TestApp } from './helpers.js';

// The invoice and report PDFs rendered to pixels by poppler, then read back the way a person or a
// banking app would: text ink where the header is, every font embedded, and the payment code on
// the page decoded from the rendered image, not from the PNG the code was drawn from.

const jsQR = ((m: unknown) => (m as { default?: unknown }).default ?? m)(jsQRModule) as typeof jsQRModule.default;

function luminance(img: PNG): Uint8ClampedArray {
  const out = new Uint8ClampedArray(img.width * img.height);
  for (let i = 0; i < out.length; i++)
    out[i] = (img.data[i * 4] * 299 + img.data[i * 4 + 1] * 587 + img.data[i * 4 + 2] * 114) / 1000;
  return out;
}

function readQr(img: PNG): string | null {
  return (
    jsQR(new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), img.width, img.height)?.data ??
    null
  );
}

/** PDF417 read with ZXing; HUB-3A bytes are ISO 8859-2, ZXing hands them back as Latin-1 code units. */
function readPdf417(img: PNG): string | null {
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance(img), img.width, img.height)));
  const hints = new Map([[DecodeHintType.TRY_HARDER, true]]);
  try {
    const text = new PDF417Reader().decode(bitmap, hints).getText();
    return new TextDecoder('iso-8859-2').decode(Uint8Array.from([...text].map((c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
}

/** The text of a page on one line per row of the layout, runs of spaces squeezed. */
async function layoutText(pdf: Buffer): Promise<string> {
  return (await pdfText(pdf, { layout: true })).replace(/[ \t]+/g, ' ');
}

/** PDF_RENDER_DIR=/some/dir keeps the rendered pages there, to look at them by eye. */
async function keep(name: string, img: PNG): Promise<PNG> {
  const dir = process.env.PDF_RENDER_DIR;
  if (dir) {
    const { PNG: Png } = await import('pngjs');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${dir}/${name}.png`, Png.sync.write(img));
  }
  return img;
}

const rendered = partPresent('pdftoppm', await popplerMissing(), 'pdf-render');

describe.skipIf(!rendered)('PDFs rendered to pixels', () => {
  let h: TestApp;
  let rs: Session;
  let hr: Session;
  const item = {
    description: 'Usluga održavanja — ćevapi i šljivovica',
    quantity: 2,
    unitPrice: 1000,
    taxRate: 20,
    classificationCode: '62.10.11',
  };
  const pdfOf = async (s: Session, url: string) => {
    const res = await h.app.inject(authed(s.token, { method: 'GET', url }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    return res.rawPayload;
  };

  beforeAll(async () => {
    h = await buildTestApp({ RATE_LIMITS: 'off' });
    rs = await seller(h.app, 'RS');
    hr = await seller(h.app, 'HR');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a Serbian invoice: one page, fonts embedded, header inked, and its IPS QR scans from the page to the invoice total and reference', async () => {
    const inv = await sentInvoice(h.app, rs, {
      customerId: (await buyer(h.app, rs, 'RS')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [item],
    });
    const pdf = await pdfOf(rs, `/api/v1/invoices/${inv.id}/pdf`);
    const facts = await pdfFacts(pdf);
    expect(facts.pages).toBe(1);
    expect(facts.fonts.length).toBeGreaterThan(0);
    expect(facts.fonts.filter((f) => !f.embedded)).toEqual([]);
    const page = await keep('invoice-rs', await renderPage(pdf, 1, 150));
    // A4 at 150 dpi.
    expect(page.width).toBeGreaterThan(1200);
    expect(page.height).toBeGreaterThan(page.width);
    expect(inkShare(page, { x0: 0, y0: 0, x1: 1, y1: 0.2 })).toBeGreaterThan(0.002);
    const payload = readQr(page);
    expect(payload).not.toBeNull();
    expect(payload).toContain('|R:260005601001611379|');
    expect(payload).toContain(`|I:RSD${inv.totalAmount.replace('.', ',')}|`);
    expect(payload).toContain(`|RO:${inv.paymentReference.replace(' ', '')}`);
    expect(payload).toContain('N:Prodavac Šumadija d.o.o.');
  });

  it('a Croatian invoice: its HUB-3A PDF417 scans from the page to the IBAN, the amount in cents and the payee with Croatian letters', async () => {
    const inv = await sentInvoice(h.app, hr, {
      customerId: (await buyer(h.app, hr, 'HR')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [{ ...item, taxRate: 25 }],
    });
    const pdf = await pdfOf(hr, `/api/v1/invoices/${inv.id}/pdf`);
    expect((await pdfFacts(pdf)).fonts.filter((f) => !f.embedded)).toEqual([]);
    const text = readPdf417(await keep('invoice-hr', await renderPage(pdf, 1, 200)));
    expect(text).not.toBeNull();
    const lines = text!.split('\n');
    expect(lines[0]).toBe('HRVHUB30');
    expect(lines[1]).toBe('EUR');
    const cents = inv.totalAmount.replace('.', '');
    expect(lines[2]).toBe(cents.padStart(15, '0'));
    expect(text).toContain('HR1210010051863000160');
    expect(text).toContain('Prodavatelj Đakovo');
  });

  it('a Serbian invoice reads back with its date of supply (even on the issue date), a unit column and the account as 3-13-2', async () => {
    const inv = await sentInvoice(h.app, rs, {
      customerId: (await buyer(h.app, rs, 'RS')).id,
      invoiceDate: '2026-03-11',
      dueDate: '2026-04-10',
      items: [item, { ...item, description: 'Konsultacije', quantity: 3, unitCode: 'HUR' }],
    });
    const pdf = await pdfOf(rs, `/api/v1/invoices/${inv.id}/pdf`);
    await keep('invoice-rs-text', await renderPage(pdf, 1, 100));
    const text = await layoutText(pdf);
    // The supply date equals the issue date and is printed all the same.
    expect(text).toContain('Datum izdavanja: 11.03.2026.');
    expect(text).toContain('Datum prometa: 11.03.2026.');
    // The unit of measure column: its header and each line's unit (H87 by default, HUR as asked).
    const words = await pdfWords(pdf);
    const header = words.find((w) => w.text === 'JM');
    expect(header).toBeDefined();
    const unitsBelow = words
      .filter((w) => w.yMin > header!.yMax && w.xMin >= header!.xMin - 2 && w.xMin < header!.xMin + 20)
      .map((w) => w.text);
    expect(unitsBelow.slice(0, 2)).toEqual(['kom', 'sat']);
    // The account in the form banks print: bank 3 digits, 13 zero-padded, control 2.
    expect(text).toContain('Tekući račun: 260-0056010016113-79');
    expect(text).not.toContain('260005601001611379');
  });

  it('a Croatian invoice prints the OIB of seller and buyer the same way: "OIB:" and 11 digits', async () => {
    const inv = await sentInvoice(h.app, hr, {
      customerId: (await buyer(h.app, hr, 'HR')).id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [{ ...item, taxRate: 25 }],
    });
    const pdf = await pdfOf(hr, `/api/v1/invoices/${inv.id}/pdf`);
    await keep('invoice-hr-text', await renderPage(pdf, 1, 100));
    const lines = (await pdfText(pdf)).split('\n');
    // The seller's VAT id is HR33392005961 in its profile; the invoice shows its OIB.
    expect(lines).toContain('OIB: 33392005961');
    expect(lines).toContain('OIB: 10000000000');
    expect(lines.some((l) => l.includes('HR33392005961'))).toBe(false);
  });

  it('a VAT report keeps each column header on the header line, above the first row', async () => {
    const vatOrg = await seller(h.app, 'RS');
    await sentInvoice(h.app, vatOrg, {
      customerId: (await buyer(h.app, vatOrg, 'RS')).id,
      invoiceDate: '2026-05-05',
      dueDate: '2026-06-04',
      items: [item],
    });
    const pdf = await pdfOf(vatOrg, '/api/v1/reports/vat?from=2026-05-01&to=2026-05-31&format=pdf');
    await keep('vat-report', await renderPage(pdf, 1, 100));
    const words = await pdfWords(pdf);
    const stopa = words.find((w) => w.text === 'Stopa');
    const osnovica = words.find((w) => w.text === 'Osnovica');
    expect(stopa && osnovica).toBeTruthy();
    // "Stopa %" sits on the header's line (with "Osnovica"), and so does its "%".
    expect(Math.abs(stopa!.yMin - osnovica!.yMin)).toBeLessThan(2);
    const percent = words.filter((w) => w.text === '%' || w.text === 'Stopa%' || w.text.endsWith('%'));
    expect(percent.some((w) => Math.abs(w.yMin - stopa!.yMin) < 2 && w.xMin >= stopa!.xMin)).toBe(true);
    // The first row's rate (20) is below the header band, not overprinted by it.
    const rate = words.find((w) => /^20([.,]0+)?$/.test(w.text) && w.yMin > stopa!.yMin);
    expect(rate).toBeDefined();
    expect(rate!.yMin).toBeGreaterThan(stopa!.yMax + 4);
    expect(words.filter((w) => w.yMin > stopa!.yMax && w.yMin < rate!.yMin - 2 && w.xMin >= stopa!.xMin - 5)).toEqual(
      [],
    );
  });

  it('default account names and automatic postings are in the organization language (sr Latin)', async () => {
    const org = await seller(h.app, 'RS');
    const inv = await sentInvoice(h.app, org, {
      customerId: (await buyer(h.app, org, 'RS')).id,
      invoiceDate: '2026-07-01',
      dueDate: '2026-07-31',
      items: [item],
    });
    const paid = await h.app.inject(
      authed(org.token, {
        method: 'PATCH',
        url: `/api/v1/invoices/${inv.id}/status`,
        payload: { action: 'mark-paid', paidAt: '2026-07-02' },
      }),
    );
    expect(paid.statusCode).toBe(200);
    const tb = await pdfOf(org, '/api/v1/reports/trial-balance?date=2026-12-31&format=pdf');
    await keep('trial-balance-sr', await renderPage(tb, 1, 100));
    const text = await layoutText(tb);
    expect(text).toContain('1200 Potraživanja od kupaca');
    expect(text).toContain('4000 Prihodi od prodaje');
    expect(text).not.toContain('Accounts Receivable');
    const ledger = await h.app.inject(authed(org.token, { method: 'GET', url: '/api/v1/transactions?limit=100' }));
    const descriptions = (ledger.json().data as Array<{ description: string }>).map((t) => t.description);
    expect(descriptions).toContain(`Naplata fakture ${inv.invoiceNumber}`);
    expect(descriptions).toContain(`Faktura ${inv.invoiceNumber}`);
    expect(descriptions.some((d) => /Payment of|^Invoice /.test(d))).toBe(false);
  });

  it('a trial balance report: fonts embedded, rows inked below the header, and its figures read back from the page', async () => {
    // A sale of its own, so the report has rows whatever else ran before.
    await sentInvoice(h.app, rs, {
      customerId: (await buyer(h.app, rs, 'RS')).id,
      invoiceDate: '2026-06-01',
      dueDate: '2026-07-01',
      items: [{ description: 'Usluga', quantity: 3, unitPrice: 1234.5, taxRate: 20 }],
    });
    const pdf = await pdfOf(rs, '/api/v1/reports/trial-balance?date=2026-12-31&format=pdf');
    expect((await pdfFacts(pdf)).fonts.filter((f) => !f.embedded)).toEqual([]);
    const page = await keep('trial-balance', await renderPage(pdf, 1, 100));
    expect(inkShare(page, { x0: 0, y0: 0, x1: 1, y1: 0.15 })).toBeGreaterThan(0.002);
    expect(inkShare(page, { x0: 0, y0: 0.15, x1: 1, y1: 0.6 })).toBeGreaterThan(0.002);
    // The figures on the page are the report's: each account's code with its debit or credit balance,
    // and the totals, read back from the page as laid out.
    const report = (
      await h.app.inject(authed(rs.token, { method: 'GET', url: '/api/v1/reports/trial-balance?date=2026-12-31' }))
    ).json();
    const text = await pageText(pdf, 1);
    const lines = text.split('\n');
    // Amounts as the page writes them (1.234,56) and as the JSON does (1234.56), compared by digits.
    const digits = (v: string) => v.replace(/[^\d-]/g, '');
    const figures = (line: string) => (line.match(/-?\d[\d.,]*,\d\d/g) ?? []).map(digits);
    const accounts = report.accounts as Array<Record<string, string>>;
    expect(accounts.length).toBeGreaterThan(2);
    for (const a of accounts) {
      const line = lines.find((l) => l.trim().startsWith(`${a.accountCode} `));
      expect(line, a.accountCode).toBeDefined();
      const shown = figures(line!);
      for (const v of [a.debitTotal, a.creditTotal, a.balance])
        expect(shown, `${a.accountCode} ${v}`).toContain(digits(Number(v).toFixed(2)));
    }
    const total = lines.find((l) => l.trim().startsWith('Ukupno'));
    expect(figures(total!)).toEqual([report.totals.debit, report.totals.credit].map((v) => digits(v)));
  });
});

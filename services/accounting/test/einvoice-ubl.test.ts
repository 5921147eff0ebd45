import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyer, type Country, getUbl, seller, sentInvoice } from './einvoice-fixtures.js';
import { fatal, HAVE_RULES, loadRules, xsdErrors } from './einvoice-validation.js';
import { authed, buildTestApp, type Session, type TestApp } from './helpers.js';

let h: TestApp;
const sellers = {} as Record<Country, Session>;
const buyers = {} as Record<Country, string>;
beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' }); // the suite sends more than the 10 per minute a user may send; limits have their own tests
  for (const c of ['RS', 'HR', 'BA'] as const) {
    sellers[c] = await seller(h.app, c);
    buyers[c] = (await buyer(h.app, sellers[c], c)).id;
  }
  if (HAVE_RULES) await loadRules(['rs-srbdt', 'en16931-ubl', 'hr-cius-2025']);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false }).parse(xml);
const text = (v: any) => (typeof v === 'object' ? String(v['#text']) : String(v));

const RATES: Record<Country, { standard: number; others: number[]; exemption: string; foreign: string }> = {
  RS: { standard: 20, others: [10], exemption: 'PDV-RS-24-1-2', foreign: 'EUR' },
  HR: { standard: 25, others: [13, 5], exemption: 'VATEX-EU-132-1A', foreign: 'USD' },
  BA: { standard: 17, others: [], exemption: 'VATEX-EU-132', foreign: 'EUR' },
};
const KPD = '62.10.11'; // KPD 2025: computer programming services
const line = (_country: Country, o: Record<string, unknown>) => ({
  description: 'Usluga razvoja — čćđšž',
  quantity: 1,
  unitPrice: 100,
  classificationCode: KPD,
  ...o,
});

/** The cases the issue names, per country. */
function cases(country: Country): Array<[string, Record<string, unknown>]> {
  const r = RATES[country];
  const rates = [r.standard, ...r.others];
  return [
    ['one standard-rate line', { items: [line(country, { taxRate: r.standard, quantity: 3, unitPrice: 1234.56 })] }],
    [
      'mixed rates',
      {
        items: rates.map((rate, i) =>
          line(country, { description: `Stavka ${i + 1}`, taxRate: rate, quantity: i + 1, unitPrice: 99.99 }),
        ),
      },
    ],
    [
      'a zero-rated line with an exemption code',
      {
        items: [
          line(country, { taxRate: r.standard }),
          line(country, { description: 'Oslobođeno', taxRate: 0, unitPrice: 40, vatExemptionCode: r.exemption }),
        ],
      },
    ],
    [
      'a discount',
      { items: [line(country, { taxRate: r.standard, quantity: 2, unitPrice: 500 })], discountAmount: 150.5 },
    ],
    [
      'a foreign-currency invoice',
      { currencyCode: r.foreign, items: [line(country, { taxRate: r.standard, unitPrice: 333.33 })] },
    ],
    [
      '50 lines on 0.005 rounding boundaries',
      {
        // 0.5 x (i + 0.01) ends in 5 at the third decimal for every even i; taxes land on half cents too.
        items: Array.from({ length: 50 }, (_, i) =>
          line(country, {
            description: `Stavka ${i + 1}`,
            quantity: 0.5,
            unitPrice: i + 0.01,
            taxRate: rates[i % rates.length],
            unitCode: i % 2 ? 'HUR' : 'H87',
          }),
        ),
      },
    ],
  ];
}

describe.skipIf(!HAVE_RULES)('UBL documents pass the official rules with zero fatal failures (E3)', () => {
  for (const country of ['RS', 'HR', 'BA'] as const) {
    describe(country, () => {
      it.each(cases(country))('%s', async (_name, extra) => {
        const inv = await sentInvoice(h.app, sellers[country], {
          customerId: buyers[country],
          invoiceDate: '2026-03-10',
          dueDate: '2026-04-09',
          ...extra,
        });
        const res = await getUbl(h.app, sellers[country], inv.id);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/xml/);
        expect(fatal(country, res.body)).toEqual([]);
        expect(await xsdErrors(res.body)).toEqual([]);
        // The amounts are the invoice's own (A3).
        const doc = parse(res.body).Invoice;
        expect(text(doc.LegalMonetaryTotal.PayableAmount)).toBe(inv.totalAmount);
        expect(text(doc.LegalMonetaryTotal.LineExtensionAmount)).toBe(inv.subtotal);
        const taxTotals = [doc.TaxTotal].flat();
        expect(text(taxTotals[0].TaxAmount)).toBe(inv.taxAmount);
        expect([doc.InvoiceLine].flat()).toHaveLength(inv.items.length);
      });

      it('a credit note (381) for a sent invoice that was cancelled', async () => {
        const s = sellers[country];
        const inv = await sentInvoice(h.app, s, {
          customerId: buyers[country],
          invoiceDate: '2026-03-10',
          dueDate: '2026-04-09',
          items: [line(country, { taxRate: RATES[country].standard })],
        });
        expect((await getUbl(h.app, s, inv.id, 'credit-note/ubl')).statusCode).toBe(400);
        const cancel = await h.app.inject(
          authed(s.token, { method: 'PATCH', url: `/api/v1/invoices/${inv.id}/status`, payload: { action: 'cancel' } }),
        );
        expect(cancel.statusCode).toBe(200);
        const res = await getUbl(h.app, s, inv.id, 'credit-note/ubl');
        expect(res.statusCode).toBe(200);
        expect(fatal(country, res.body)).toEqual([]);
        expect(await xsdErrors(res.body)).toEqual([]);
        const doc = parse(res.body).CreditNote;
        expect(String(doc.CreditNoteTypeCode)).toBe('381');
        expect(doc.BillingReference.InvoiceDocumentReference.ID).toBe(inv.invoiceNumber);
        expect(text(doc.LegalMonetaryTotal.PayableAmount)).toBe(inv.totalAmount);
      });
    });
  }
});

describe('UBL route rules (E3)', () => {
  it('names the profile: SEF srbdt for RS, CIUS-HR with its extension and the PDF embedded for HR, plain EN 16931 for BA', async () => {
    const ids: Record<string, any> = {};
    for (const country of ['RS', 'HR', 'BA'] as const) {
      const inv = await sentInvoice(h.app, sellers[country], {
        customerId: buyers[country],
        invoiceDate: '2026-03-11',
        dueDate: '2026-04-10',
        items: [line(country, { taxRate: RATES[country].standard })],
      });
      ids[country] = { inv, doc: parse((await getUbl(h.app, sellers[country], inv.id)).body).Invoice };
    }
    expect(ids.RS.doc.CustomizationID).toBe('urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.rs:srbdt:2022');
    expect(String(ids.RS.doc.InvoicePeriod.DescriptionCode)).toBe('35');
    expect(ids.RS.doc.AccountingSupplierParty.Party.EndpointID).toMatchObject({ '@_schemeID': '9948' });
    expect(ids.RS.doc.PaymentMeans.PaymentID).toBe(`mod${ids.RS.inv.paymentReference.replace(' ', ' ')}`);

    const hr = ids.HR.doc;
    expect(hr.CustomizationID).toBe(
      'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0',
    );
    expect(hr.ProfileID).toBe('P1');
    expect(hr.IssueTime).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(hr.AccountingSupplierParty.SellerContact).toMatchObject({ ID: '33392005961', Name: 'Ana Operaterka' });
    expect(hr.InvoiceLine.Item.ClassifiedTaxCategory.Name).toBe('HR:PDV25');
    expect(hr.UBLExtensions.UBLExtension.ExtensionContent.HRFISK20Data.HRTaxTotal).toBeDefined();
    const embedded = hr.AdditionalDocumentReference.Attachment.EmbeddedDocumentBinaryObject;
    expect(embedded['@_mimeCode']).toBe('application/pdf');
    const pdf = await h.app.inject(
      authed(sellers.HR.token, { method: 'GET', url: `/api/v1/invoices/${ids.HR.inv.id}/pdf` }),
    );
    expect(Buffer.from(embedded['#text'], 'base64').equals(pdf.rawPayload)).toBe(true);

    expect(ids.BA.doc.CustomizationID).toBe('urn:cen.eu:en16931:2017');
    expect(ids.BA.doc.UBLExtensions).toBeUndefined();
  });

  it.skipIf(!HAVE_RULES)(
    'makes an outside-VAT (O) Serbian invoice without rates or VAT identifiers, and refuses O mixed with taxed lines',
    async () => {
      const s = sellers.RS;
      const o = line('RS', { taxRate: 0, vatExemptionCode: 'PDV-RS-11-1-1' });
      const alone = await sentInvoice(h.app, s, {
        customerId: buyers.RS,
        invoiceDate: '2026-03-10',
        dueDate: '2026-04-09',
        items: [o, o],
      });
      const res = await getUbl(h.app, s, alone.id);
      expect(res.statusCode).toBe(200);
      expect(fatal('RS', res.body)).toEqual([]);
      expect(res.body).not.toContain('PartyTaxScheme');
      const mixed = await sentInvoice(h.app, s, {
        customerId: buyers.RS,
        invoiceDate: '2026-03-10',
        dueDate: '2026-04-09',
        items: [line('RS', { taxRate: 20 }), o],
      });
      const refused = await getUbl(h.app, s, mixed.id);
      expect(refused.statusCode).toBe(422);
      expect(Object.keys(refused.json().error.details)).toEqual(['items[1].vatExemptionCode']);
    },
  );

  it('refuses a draft with 400 SVC-3004', async () => {
    const s = sellers.RS;
    const res = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/invoices',
        payload: {
          customerId: buyers.RS,
          invoiceDate: '2026-03-10',
          dueDate: '2026-04-09',
          items: [line('RS', { taxRate: 20 })],
        },
      }),
    );
    const ubl = await getUbl(h.app, s, res.json().id);
    expect(ubl.statusCode).toBe(400);
    expect(ubl.json().error).toMatchObject({
      code: 'SVC-3004',
      details: { status: [expect.stringContaining('draft')] },
    });
  });

  it('answers 422 naming every field a Serbian profile lacks', async () => {
    const s = sellers.RS;
    const bare = await buyer(h.app, s, 'RS', { vatNumber: null, registrationNumber: null, postalCode: null });
    const inv = await sentInvoice(h.app, s, {
      customerId: bare.id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [line('RS', { taxRate: 20 }), line('RS', { taxRate: 0 })],
    });
    const res = await getUbl(h.app, s, inv.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details).sort()).toEqual([
      'customer.postalCode',
      'customer.registrationNumber',
      'customer.vatNumber',
      'items[1].vatExemptionCode',
    ]);
  });

  it('answers 422 naming the operator OIB and each line without a KPD code for Croatia', async () => {
    const s = await seller(h.app, 'HR');
    await h.app.inject(authed(s.token, { method: 'PUT', url: '/api/v1/auth/me', payload: { operatorOib: null } }));
    const c = await buyer(h.app, s, 'HR', { vatNumber: null });
    const inv = await sentInvoice(h.app, s, {
      customerId: c.id,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [
        line('HR', { taxRate: 25, classificationCode: null }),
        line('HR', { taxRate: 13 }),
        line('HR', { taxRate: 25, classificationCode: null }),
      ],
    });
    const res = await getUbl(h.app, s, inv.id);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.details).sort()).toEqual([
      'customer.vatNumber',
      'items[0].classificationCode',
      'items[2].classificationCode',
      'operator.operatorOib',
    ]);
  });

  it("answers 404 for another organization's invoice", async () => {
    const inv = await sentInvoice(h.app, sellers.BA, {
      customerId: buyers.BA,
      invoiceDate: '2026-03-10',
      dueDate: '2026-04-09',
      items: [line('BA', { taxRate: 17 })],
    });
    const res = await getUbl(h.app, sellers.RS, inv.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('SVC-3001');
  });
});

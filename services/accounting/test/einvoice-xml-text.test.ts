import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderUbl, type UblDocument, type UblParty } from '../src/modules/einvoice/ubl.js';

const party = (name: string): UblParty => ({
  name,
  street: 'Ulica 1',
  city: 'Beograd',
  postalCode: '11000',
  country: 'RS',
  vatId: null,
  companyId: null,
  endpoint: null,
});

function document(buyerName: string, note: string): UblDocument {
  return {
    profile: 'BA',
    kind: 'invoice',
    id: 'INV-1',
    issueDate: '2026-03-10',
    issueTime: null,
    dueDate: '2026-04-09',
    supplyDate: '2026-03-10',
    currency: 'EUR',
    decimals: 2,
    taxCurrency: null,
    billingReference: null,
    seller: party('Seller d.o.o.'),
    operator: null,
    buyer: party(buyerName),
    payment: { account: null, paymentId: null },
    notes: [note],
    lines: [
      {
        id: '1',
        name: 'Service',
        quantity: '1',
        unitCode: 'H87',
        price: '10.00',
        lineTotal: '10.00',
        category: 'S',
        percent: '20',
        hrName: null,
        exemptionCode: null,
        classification: null,
      },
    ],
    breakdown: [{ category: 'S', percent: '20', taxable: '10.00', tax: '2.00', exemptionCode: null, hrName: null }],
    lineTotal: '10.00',
    taxTotal: '2.00',
    taxInclusive: '12.00',
    prepaid: '0.00',
    payable: '12.00',
    deliveryCountry: null,
    attachment: null,
  };
}

// Entities left for the parser to decode, as any XML consumer would.
const parse = (xml: string) =>
  new XMLParser({ removeNSPrefix: true, parseTagValue: false, processEntities: true, htmlEntities: false }).parse(xml);

describe('UBL text (issue 33 item 8)', () => {
  it('keeps a customer "ACME &#60;b&#62;" as text: the references are escaped, never markup', () => {
    const xml = renderUbl(document('ACME &#60;b&#62; &amp; &name; <i>', 'Note &#x3C;script&#x3E;'));
    expect(xml).not.toContain('&#60;b');
    expect(xml).toContain('ACME &amp;#60;b&amp;#62; &amp;amp; &amp;name; &lt;i&gt;');
    const doc = parse(xml).Invoice;
    expect(doc.AccountingCustomerParty.Party.PartyLegalEntity.RegistrationName).toBe(
      'ACME &#60;b&#62; &amp; &name; <i>',
    );
    expect(doc.Note).toBe('Note &#x3C;script&#x3E;');
  });

  it('drops the control characters XML 1.0 cannot hold, keeping tab and line breaks', () => {
    const xml = renderUbl(document('ACME\u0001\u0008\u000b\u001f\uffff d.o.o.', 'line 1\nline\t2'));
    const invalid = [...xml].filter((c) => {
      const n = c.codePointAt(0)!;
      return (n < 0x20 && n !== 0x09 && n !== 0x0a && n !== 0x0d) || n === 0xffff;
    });
    expect(invalid).toEqual([]);
    const doc = parse(xml).Invoice;
    expect(doc.AccountingCustomerParty.Party.PartyLegalEntity.RegistrationName).toBe('ACME d.o.o.');
    expect(doc.Note).toBe('line 1\nline\t2');
  });
});

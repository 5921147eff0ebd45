import { dec } from '@app/shared/money';
import { describe, expect, it } from 'vitest';
import { mod11Ini, mod97CheckDigits } from '../src/domain/payment-reference.js';
import { AppError } from '../src/lib/errors.js';
import { buildEInvoice, type EInvoiceSource, vatCategory } from '../src/modules/einvoice/einvoice-document.js';

/**
 * The UBL document built from a stored invoice, field by field, without the app or a database
 * (the mutation module `einvoice-document` runs these): every date, party, reference, line,
 * VAT breakdown and total is the stored invoice's, and a line the profile cannot carry is refused
 * with the field named. einvoice-fields.test.ts checks the same through the routes and the XML.
 */

const NOW = new Date('2026-03-10T09:30:00Z');

type Item = EInvoiceSource['items'][number];
const item = (n: number, over: Partial<Item>): Item => ({
  id: `item-${n}`,
  organization_id: 'org',
  invoice_id: 'inv',
  line_number: n,
  description: `Line ${n}`,
  quantity: '1.000',
  unit_price: '100.0000',
  tax_rate: '20',
  line_total: '100.00',
  line_tax: '20.00',
  account_id: null,
  unit_code: 'H87',
  classification_code: null,
  vat_exemption_code: null,
  ...over,
});

const ORGS = {
  RS: {
    name: 'Prodavac Šumadija d.o.o.',
    country: 'RS',
    base_currency: 'RSD',
    vat_number: 'RS101134702',
    registration_number: '17555555',
    address_line1: 'Knez Mihailova 1',
    city: 'Beograd',
    postal_code: '11000',
    iban: '260005601001611379',
  },
  HR: {
    name: 'Prodavatelj Đakovo d.o.o.',
    country: 'HR',
    base_currency: 'EUR',
    vat_number: 'HR33392005961',
    registration_number: null,
    address_line1: 'Ilica 1',
    city: 'Zagreb',
    postal_code: '10000',
    iban: 'HR1210010051863000160',
  },
  BA: {
    name: 'Prodavac Čapljina d.o.o.',
    country: 'BA',
    base_currency: 'BAM',
    vat_number: '4200000000001',
    registration_number: null,
    address_line1: 'Ferhadija 1',
    city: 'Sarajevo',
    postal_code: '71000',
    iban: null,
  },
} as const;

const BUYERS = {
  RS: {
    country: 'RS',
    vat_number: '100000090',
    registration_number: '08765432',
    address_line1: 'Bulevar 2',
    city: 'Novi Sad',
    postal_code: '21000',
  },
  HR: {
    country: 'HR',
    vat_number: '10000000000',
    registration_number: null,
    address_line1: 'Korzo 2',
    city: 'Rijeka',
    postal_code: '51000',
  },
  BA: {
    country: 'BA',
    vat_number: '4200000000002',
    registration_number: null,
    address_line1: 'Obala 2',
    city: 'Mostar',
    postal_code: '88000',
  },
  DE: {
    country: 'DE',
    vat_number: '123456789',
    registration_number: null,
    address_line1: 'Hauptstraße 3',
    city: 'Berlin',
    postal_code: '10115',
  },
} as const;

type Country = keyof typeof ORGS;

function source(
  country: Country,
  items: Item[],
  over: {
    invoice?: Partial<EInvoiceSource['invoice']>;
    buyer?: keyof typeof BUYERS;
    customer?: Partial<NonNullable<EInvoiceSource['customer']>> | null;
    operator?: EInvoiceSource['operator'];
  } = {},
): EInvoiceSource {
  const o = ORGS[country];
  const b = BUYERS[over.buyer ?? country];
  return {
    org: {
      id: 'org',
      language: 'en',
      fiscal_year_start: '2026-01-01',
      default_vat_rate: '0',
      created_at: NOW,
      updated_at: NOW,
      ...o,
    },
    customer:
      over.customer === null
        ? undefined
        : {
            id: 'c',
            organization_id: 'org',
            type: 'customer',
            name: 'Kupac Ćirić d.o.o.',
            email: 'kupac@example.test',
            phone: null,
            address_line2: null,
            currency_code: over.invoice?.currency_code ?? o.base_currency,
            payment_terms: 30,
            notes: null,
            is_active: true,
            created_at: NOW,
            updated_at: NOW,
            seq: 1,
            ...b,
            ...over.customer,
          },
    operator: over.operator === undefined ? { fullName: 'Ana Operaterka', operatorOib: '33392005961' } : over.operator,
    invoice: {
      id: 'inv',
      organization_id: 'org',
      invoice_number: 'INV-2026-0042',
      customer_id: 'c',
      customer_name: 'Name on the invoice',
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      supply_date: '2026-03-05',
      currency_code: o.base_currency,
      exchange_rate: '1',
      subtotal: '0.00',
      tax_amount: '0.00',
      discount_amount: '0.00',
      total_amount: '0.00',
      base_amount: '0.00',
      notes: null,
      terms: null,
      pdf_key: null,
      token_hash: null,
      sent_at: NOW,
      sent_to: null,
      email_id: null,
      send_claimed_at: null,
      viewed_at: null,
      paid_at: null,
      paid_bank_account_id: null,
      cancelled_at: null,
      created_by: null,
      created_at: NOW,
      updated_at: NOW,
      ...over.invoice,
    },
    items,
  };
}

/** The SVC-9003 details buildEInvoice refuses the source with. */
function refusal(src: EInvoiceSource): Record<string, string[]> {
  try {
    buildEInvoice(src, 'invoice');
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('SVC-9003');
    return (e as AppError).details as Record<string, string[]>;
  }
  throw new Error('buildEInvoice accepted the source');
}

const RS_ITEMS = [
  item(1, {
    description: 'Usluga',
    quantity: '2.000',
    unit_price: '150.0000',
    tax_rate: '20',
    line_total: '300.00',
    line_tax: '60.00',
    classification_code: '62.10.11',
  }),
  item(2, {
    description: 'Knjiga',
    quantity: '1.000',
    unit_price: '1000.5000',
    tax_rate: '10',
    line_total: '1000.50',
    line_tax: '100.05',
    unit_code: 'C62',
  }),
  item(3, {
    description: 'Pola sata',
    quantity: '0.500',
    unit_price: '200.0000',
    tax_rate: '20',
    line_total: '100.00',
    line_tax: '20.00',
    unit_code: 'HUR',
  }),
];
const RS_TOTALS = { subtotal: '1400.50', tax_amount: '180.05', total_amount: '1580.55' };

describe('buildEInvoice: the document is the stored invoice', () => {
  it('RS: number, dates, parties, references, lines, breakdown and totals', () => {
    const doc = buildEInvoice(source('RS', RS_ITEMS, { invoice: RS_TOTALS }), 'invoice');
    expect(doc).toEqual({
      profile: 'RS',
      kind: 'invoice',
      id: 'INV-2026-0042',
      issueDate: '2026-03-10',
      issueTime: null,
      dueDate: '2026-04-09',
      supplyDate: '2026-03-05',
      currency: 'RSD',
      decimals: 2,
      taxCurrency: null,
      billingReference: null,
      seller: {
        name: 'Prodavac Šumadija d.o.o.',
        street: 'Knez Mihailova 1',
        city: 'Beograd',
        postalCode: '11000',
        country: 'RS',
        vatId: 'RS101134702',
        companyId: '17555555',
        endpoint: { scheme: '9948', id: '101134702' },
      },
      operator: null,
      buyer: {
        name: 'Kupac Ćirić d.o.o.',
        street: 'Bulevar 2',
        city: 'Novi Sad',
        postalCode: '21000',
        country: 'RS',
        vatId: 'RS100000090',
        companyId: '08765432',
        endpoint: { scheme: '9948', id: '100000090' },
      },
      // Model 97: the check digits of year and sequence, then year and sequence.
      payment: { account: '260005601001611379', paymentId: `mod97 ${mod97CheckDigits('20260042')}20260042` },
      notes: [],
      lines: [
        {
          id: '1',
          name: 'Usluga',
          quantity: '2',
          unitCode: 'H87',
          price: '150',
          lineTotal: '300.00',
          category: 'S',
          percent: '20',
          hrName: null,
          exemptionCode: null,
          classification: { code: '62.10.11', listId: 'ZZZ' },
        },
        {
          id: '2',
          name: 'Knjiga',
          quantity: '1',
          unitCode: 'C62',
          price: '1000.5',
          lineTotal: '1000.50',
          category: 'S',
          percent: '10',
          hrName: null,
          exemptionCode: null,
          classification: null,
        },
        {
          id: '3',
          name: 'Pola sata',
          quantity: '0.5',
          unitCode: 'HUR',
          price: '200',
          lineTotal: '100.00',
          category: 'S',
          percent: '20',
          hrName: null,
          exemptionCode: null,
          classification: null,
        },
      ],
      // One breakdown per category and rate, in the order first met; the sums of the lines.
      breakdown: [
        { category: 'S', percent: '20', taxable: '400.00', tax: '80.00', exemptionCode: null, hrName: null },
        { category: 'S', percent: '10', taxable: '1000.50', tax: '100.05', exemptionCode: null, hrName: null },
      ],
      lineTotal: '1400.50',
      taxTotal: '180.05',
      taxInclusive: '1580.55',
      prepaid: '0.00',
      payable: '1580.55',
      deliveryCountry: null,
      attachment: null,
    });
  });

  it('without a supply date the supply date is the invoice date', () => {
    const doc = buildEInvoice(source('RS', RS_ITEMS, { invoice: { ...RS_TOTALS, supply_date: null } }), 'invoice');
    expect(doc.supplyDate).toBe('2026-03-10');
  });

  it('HR: issue time in Zagreb, operator, CIUS-HR names, exemption reasons on the line, OIB endpoints', () => {
    const items = [
      item(1, { tax_rate: '25', line_total: '200.00', line_tax: '50.00', classification_code: '62.10.11' }),
      item(2, {
        tax_rate: '0',
        line_total: '80.00',
        line_tax: '0.00',
        classification_code: '58.11.19',
        vat_exemption_code: 'VATEX-EU-132-1A',
      }),
      item(3, { tax_rate: '13', line_total: '10.00', line_tax: '1.30', classification_code: '10.71.11' }),
      item(4, { tax_rate: '5', line_total: '20.00', line_tax: '1.00', classification_code: '10.71.12' }),
    ];
    const doc = buildEInvoice(
      source('HR', items, {
        // 23:30:15 UTC on 10 March is 00:30:15 on the 11th in Zagreb (CET).
        invoice: {
          subtotal: '310.00',
          tax_amount: '52.30',
          total_amount: '362.30',
          sent_at: new Date('2026-03-10T23:30:15Z'),
        },
      }),
      'invoice',
    );
    expect(doc.profile).toBe('HR');
    expect(doc.issueDate).toBe('2026-03-10');
    expect(doc.issueTime).toBe('00:30:15');
    expect(doc.dueDate).toBe('2026-04-09');
    expect(doc.operator).toEqual({ oib: '33392005961', name: 'Ana Operaterka' });
    expect(doc.seller).toEqual({
      name: 'Prodavatelj Đakovo d.o.o.',
      street: 'Ilica 1',
      city: 'Zagreb',
      postalCode: '10000',
      country: 'HR',
      vatId: 'HR33392005961',
      companyId: null,
      endpoint: { scheme: '9934', id: '33392005961' },
    });
    expect(doc.buyer.endpoint).toEqual({ scheme: '9934', id: '10000000000' });
    expect(doc.buyer.vatId).toBe('HR10000000000');
    expect(doc.payment).toEqual({
      account: 'HR1210010051863000160',
      paymentId: `HR01 2026-0042${mod11Ini('20260042')}`,
    });
    expect(doc.lines.map((l) => [l.category, l.percent, l.hrName, l.exemptionCode, l.classification])).toEqual([
      ['S', '25', 'HR:PDV25', null, { code: '62.10.11', listId: 'CG' }],
      ['E', '0', 'HR:E', 'VATEX-EU-132-1A', { code: '58.11.19', listId: 'CG' }],
      ['S', '13', 'HR:PDV13', null, { code: '10.71.11', listId: 'CG' }],
      ['S', '5', 'HR:PDV5', null, { code: '10.71.12', listId: 'CG' }],
    ]);
    expect(doc.breakdown).toEqual([
      { category: 'S', percent: '25', taxable: '200.00', tax: '50.00', exemptionCode: null, hrName: 'HR:PDV25' },
      { category: 'E', percent: '0', taxable: '80.00', tax: '0.00', exemptionCode: 'VATEX-EU-132-1A', hrName: 'HR:E' },
      { category: 'S', percent: '13', taxable: '10.00', tax: '1.30', exemptionCode: null, hrName: 'HR:PDV13' },
      { category: 'S', percent: '5', taxable: '20.00', tax: '1.00', exemptionCode: null, hrName: 'HR:PDV5' },
    ]);
    expect([doc.lineTotal, doc.taxTotal, doc.taxInclusive, doc.payable]).toEqual([
      '310.00',
      '52.30',
      '362.30',
      '362.30',
    ]);
  });

  it('HR: the issue time in summer (CEST) and midnight when the invoice was never sent', () => {
    const items = [
      item(1, { tax_rate: '25', line_total: '100.00', line_tax: '25.00', classification_code: '62.10.11' }),
    ];
    const summer = buildEInvoice(
      source('HR', items, { invoice: { sent_at: new Date('2026-07-01T12:05:09Z') } }),
      'invoice',
    );
    expect(summer.issueTime).toBe('14:05:09');
    const unsent = buildEInvoice(source('HR', items, { invoice: { sent_at: null } }), 'invoice');
    expect(unsent.issueTime).toBe('00:00:00');
  });

  it('HR: a foreign buyer is reached by e-mail; an intra-community supply names the delivery country', () => {
    const items = [
      item(1, {
        tax_rate: '0',
        line_total: '500.00',
        line_tax: '0.00',
        classification_code: '62.10.11',
        vat_exemption_code: 'VATEX-EU-IC',
      }),
    ];
    const doc = buildEInvoice(
      source('HR', items, { buyer: 'DE', customer: { email: 'einkauf@example.de' } }),
      'invoice',
    );
    expect(doc.buyer).toEqual({
      name: 'Kupac Ćirić d.o.o.',
      street: 'Hauptstraße 3',
      city: 'Berlin',
      postalCode: '10115',
      country: 'DE',
      vatId: 'DE123456789',
      companyId: null,
      endpoint: { scheme: 'EM', id: 'einkauf@example.de' },
    });
    expect(doc.lines[0]).toMatchObject({ category: 'K', percent: '0', hrName: 'HR:K', exemptionCode: 'VATEX-EU-IC' });
    expect(doc.deliveryCountry).toBe('DE');
    // A VAT number given with its prefix keeps it, upper-cased and without spaces.
    const prefixed = buildEInvoice(
      source('HR', items, { buyer: 'DE', customer: { vat_number: 'de 123 456 789' } }),
      'invoice',
    );
    expect(prefixed.buyer.vatId).toBe('DE123456789');
    // Letters inside the number (an Irish 1234567WA) are not a country prefix: the country is added.
    const irish = buildEInvoice(
      source('HR', items, { buyer: 'DE', customer: { country: 'IE', vat_number: '1234567WA' } }),
      'invoice',
    );
    expect(irish.buyer.vatId).toBe('IE1234567WA');
    // One letter is not a prefix either (a Spanish company's B12345678).
    const spanish = buildEInvoice(
      source('HR', items, { buyer: 'DE', customer: { country: 'ES', vat_number: 'B12345678' } }),
      'invoice',
    );
    expect(spanish.buyer.vatId).toBe('ESB12345678');
  });

  it('HR: an intra-community supply with other lines still names the delivery country', () => {
    const items = [
      item(1, { tax_rate: '25', line_total: '100.00', line_tax: '25.00', classification_code: '62.10.11' }),
      item(2, {
        tax_rate: '0',
        line_total: '500.00',
        line_tax: '0.00',
        classification_code: '62.10.11',
        vat_exemption_code: 'VATEX-EU-IC',
      }),
    ];
    const doc = buildEInvoice(source('HR', items, { buyer: 'DE' }), 'invoice');
    expect(doc.breakdown.map((b) => b.category)).toEqual(['S', 'K']);
    expect(doc.deliveryCountry).toBe('DE');
  });

  it('a PIB written with separators is reduced to its digits in the VAT identifier and the endpoint', () => {
    const doc = buildEInvoice(
      source('RS', RS_ITEMS, { invoice: RS_TOTALS, customer: { vat_number: '100-000-090' } }),
      'invoice',
    );
    expect(doc.buyer.vatId).toBe('RS100000090');
    expect(doc.buyer.endpoint).toEqual({ scheme: '9948', id: '100000090' });
  });

  it('BA: a buyer without a VAT number has no VAT identifier', () => {
    const items = [item(1, { tax_rate: '17', line_total: '100.00', line_tax: '17.00' })];
    const doc = buildEInvoice(source('BA', items, { customer: { vat_number: null } }), 'invoice');
    expect(doc.buyer.vatId).toBeNull();
    expect(doc.buyer.name).toBe('Kupac Ćirić d.o.o.');
  });

  it('BA: foreign currency, VAT in the base currency, discount, notes, no endpoint or payment reference', () => {
    const items = [
      item(1, { tax_rate: '17', line_total: '100.00', line_tax: '17.00', classification_code: '62.10.11' }),
      item(2, { tax_rate: '0', line_total: '50.00', line_tax: '0.00', vat_exemption_code: 'VATEX-EU-AE' }),
    ];
    const doc = buildEInvoice(
      source('BA', items, {
        invoice: {
          currency_code: 'EUR',
          exchange_rate: '1.95583',
          subtotal: '150.00',
          tax_amount: '17.00',
          discount_amount: '10.00',
          total_amount: '157.00',
          notes: '  Hvala na povjerenju.  ',
        },
      }),
      'invoice',
    );
    expect(doc.currency).toBe('EUR');
    // 17.00 x 1.95583 = 33.24911, rounded to the base currency's cents.
    expect(doc.taxCurrency).toEqual({ code: 'BAM', taxAmount: '33.25' });
    expect(doc.issueTime).toBeNull();
    expect(doc.operator).toBeNull();
    expect(doc.seller.endpoint).toBeNull();
    expect(doc.seller.vatId).toBe('BA4200000000001');
    expect(doc.buyer.endpoint).toBeNull();
    expect(doc.buyer.vatId).toBe('BA4200000000002');
    expect(doc.payment).toEqual({ account: null, paymentId: null });
    expect(doc.notes).toEqual([
      'Hvala na povjerenju.',
      'Discount 10.00 EUR deducted from the amount due (shown as paid amount BT-113)',
    ]);
    expect(doc.lines.map((l) => [l.category, l.percent, l.hrName, l.exemptionCode, l.classification])).toEqual([
      ['S', '17', null, null, { code: '62.10.11', listId: 'ZZZ' }],
      ['AE', '0', null, null, null],
    ]);
    expect(doc.breakdown).toEqual([
      { category: 'S', percent: '17', taxable: '100.00', tax: '17.00', exemptionCode: null, hrName: null },
      { category: 'AE', percent: '0', taxable: '50.00', tax: '0.00', exemptionCode: 'VATEX-EU-AE', hrName: null },
    ]);
    expect([doc.lineTotal, doc.taxTotal, doc.taxInclusive, doc.prepaid, doc.payable]).toEqual([
      '150.00',
      '17.00',
      '167.00',
      '10.00',
      '157.00',
    ]);
    expect(doc.deliveryCountry).toBeNull();
  });

  it('a blank note and no discount add no notes', () => {
    const doc = buildEInvoice(source('RS', RS_ITEMS, { invoice: { ...RS_TOTALS, notes: '   ' } }), 'invoice');
    expect(doc.notes).toEqual([]);
  });

  it('RS: zero-rated, exempt and outside-VAT lines; a Z breakdown carries no reason', () => {
    const items = [
      item(1, { tax_rate: '0', line_total: '100.00', line_tax: '0.00', vat_exemption_code: 'PDV-RS-24-1-2' }),
      item(2, { tax_rate: '0', line_total: '40.00', line_tax: '0.00', vat_exemption_code: 'PDV-RS-25-2-3' }),
      item(3, { tax_rate: '0', line_total: '60.00', line_tax: '0.00', vat_exemption_code: 'PDV-RS-24-1-2' }),
      item(4, { tax_rate: '0', line_total: '30.00', line_tax: '0.00', vat_exemption_code: 'PDV-RS-10-2-1' }),
    ];
    const doc = buildEInvoice(source('RS', items), 'invoice');
    expect(doc.lines.map((l) => [l.category, l.percent, l.exemptionCode])).toEqual([
      ['Z', '0', null],
      ['E', '0', null],
      ['Z', '0', null],
      ['AE', '0', null],
    ]);
    expect(doc.breakdown).toEqual([
      { category: 'Z', percent: '0', taxable: '160.00', tax: '0.00', exemptionCode: null, hrName: null },
      { category: 'E', percent: '0', taxable: '40.00', tax: '0.00', exemptionCode: 'PDV-RS-25-2-3', hrName: null },
      { category: 'AE', percent: '0', taxable: '30.00', tax: '0.00', exemptionCode: 'PDV-RS-10-2-1', hrName: null },
    ]);
    expect(doc.seller.vatId).toBe('RS101134702');
  });

  it('an outside-VAT invoice has no rate and no VAT identifiers, but keeps the endpoints', () => {
    const items = [
      item(1, { tax_rate: '0', line_total: '70.00', line_tax: '0.00', vat_exemption_code: 'PDV-RS-33-1' }),
      item(2, { tax_rate: '0', line_total: '30.00', line_tax: '0.00', vat_exemption_code: 'PDV-RS-33-2' }),
    ];
    const doc = buildEInvoice(source('RS', items), 'invoice');
    expect(doc.lines.map((l) => [l.category, l.percent])).toEqual([
      ['O', null],
      ['O', null],
    ]);
    expect(doc.breakdown).toEqual([
      { category: 'O', percent: null, taxable: '100.00', tax: '0.00', exemptionCode: 'PDV-RS-33-1', hrName: null },
    ]);
    expect([doc.seller.vatId, doc.buyer.vatId]).toEqual([null, null]);
    expect(doc.seller.endpoint).toEqual({ scheme: '9948', id: '101134702' });
    expect(doc.buyer.endpoint).toEqual({ scheme: '9948', id: '100000090' });
  });
});

describe('buildEInvoice: the credit note of a cancelled invoice', () => {
  it('is issued and due the day of the cancellation in Zagreb, and refers to the invoice', () => {
    // 22:10 UTC on 31 March is 00:10 on 1 April in Zagreb (CEST).
    const cancelledAt = new Date('2026-03-31T22:10:00Z');
    const src = source(
      'HR',
      [item(1, { tax_rate: '25', line_total: '100.00', line_tax: '25.00', classification_code: '62.10.11' })],
      {
        invoice: { cancelled_at: cancelledAt, subtotal: '100.00', tax_amount: '25.00', total_amount: '125.00' },
      },
    );
    const doc = buildEInvoice(src, 'credit-note');
    expect(doc.kind).toBe('credit-note');
    expect(doc.id).toBe('INV-2026-0042-CN');
    expect(doc.issueDate).toBe('2026-04-01');
    expect(doc.issueTime).toBe('00:10:00');
    expect(doc.dueDate).toBe('2026-04-01');
    expect(doc.supplyDate).toBe('2026-03-05');
    expect(doc.billingReference).toEqual({ id: 'INV-2026-0042', issueDate: '2026-03-10' });
    expect(doc.payable).toBe('125.00');
    // The invoice itself is still issued on its own date, at the time it was sent.
    const invoice = buildEInvoice(src, 'invoice');
    expect([invoice.issueDate, invoice.issueTime, invoice.dueDate]).toEqual(['2026-03-10', '10:30:00', '2026-04-09']);
  });

  it('without a cancellation time it keeps the invoice’s dates', () => {
    const doc = buildEInvoice(source('RS', RS_ITEMS, { invoice: RS_TOTALS }), 'credit-note');
    expect([doc.issueDate, doc.dueDate]).toEqual(['2026-03-10', '2026-04-09']);
    expect(doc.billingReference).toEqual({ id: 'INV-2026-0042', issueDate: '2026-03-10' });
  });
});

describe('buildEInvoice: lines the profile cannot carry are refused, each named', () => {
  it('a zero rate without an exemption code, and every bad line at once', () => {
    const details = refusal(
      source('HR', [
        item(1, { tax_rate: '0', line_total: '10.00', line_tax: '0.00' }),
        item(2, { tax_rate: '25', classification_code: null }),
        item(3, { tax_rate: '25', classification_code: '62.10' }),
        item(4, { tax_rate: '20', classification_code: '62.10.11' }),
      ]),
    );
    expect(details).toEqual({
      'items[0].vatExemptionCode': ['is required when taxRate is 0'],
      'items[1].classificationCode': ['is required for a CIUS-HR e-invoice (KPD 2025 code)'],
      'items[2].classificationCode': ['must be a KPD 2025 code (nn.nn.nn)'],
      'items[3].taxRate': ['must be 25, 13 or 5 (or 0 with an exemption code) for a Croatian e-invoice'],
    });
  });

  it('a KPD code is refused unless it is exactly nn.nn.nn', () => {
    for (const code of ['x62.10.11', '62.10.11x', '6.210.11', '62-10-11']) {
      const details = refusal(source('HR', [item(1, { tax_rate: '25', classification_code: code })]));
      expect(details).toEqual({ 'items[0].classificationCode': ['must be a KPD 2025 code (nn.nn.nn)'] });
    }
  });

  it('an outside-VAT line with lines of other categories (BR-O-11)', () => {
    const details = refusal(
      source('RS', [
        item(1, { tax_rate: '20' }),
        item(2, { tax_rate: '0', line_tax: '0.00', vat_exemption_code: 'PDV-RS-33-1' }),
        item(3, { tax_rate: '0', line_tax: '0.00', vat_exemption_code: 'PDV-RS-25-1' }),
      ]),
    );
    expect(details).toEqual({
      'items[1].vatExemptionCode': [
        'an outside-VAT (O) line cannot share an e-invoice with other VAT categories (BR-O-11): invoice it separately',
      ],
    });
  });

  it('the issuing user and an operator OIB are required in Croatia', () => {
    const items = [item(1, { tax_rate: '25', classification_code: '62.10.11' })];
    expect(refusal(source('HR', items, { operator: null }))).toEqual({
      operator: ['the issuing user is required for a CIUS-HR e-invoice'],
    });
    expect(refusal(source('HR', items, { operator: { fullName: 'Ana', operatorOib: '12345678901' } }))).toEqual({
      'operator.operatorOib': ['is required for a CIUS-HR e-invoice: set it with PUT /auth/me'],
    });
  });
});

describe('vatCategory (E3)', () => {
  const cat = (profile: 'RS' | 'HR' | 'BA', rate: string, code: string | null) => vatCategory(profile, dec(rate), code);

  it('a positive rate is S, whatever the code', () => {
    expect(cat('RS', '20', 'PDV-RS-25-1')).toEqual({ category: 'S', code: null });
    expect(cat('HR', '0.01', null)).toEqual({ category: 'S', code: null });
  });

  it('a zero rate needs a code', () => {
    expect(cat('RS', '0', null)).toEqual({ error: 'is required when taxRate is 0' });
    expect(cat('BA', '0', '')).toEqual({ error: 'is required when taxRate is 0' });
  });

  it('Serbia: the article of the PDV-RS code decides', () => {
    expect(cat('RS', '0', 'PDV-RS-24-1-2')).toEqual({ category: 'Z', code: 'PDV-RS-24-1-2' });
    expect(cat('RS', '0', 'PDV-RS-25-2-3')).toEqual({ category: 'E', code: 'PDV-RS-25-2-3' });
    expect(cat('RS', '0', 'PDV-RS-10-2-1')).toEqual({ category: 'AE', code: 'PDV-RS-10-2-1' });
    expect(cat('RS', '0', 'PDV-RS-33-1')).toEqual({ category: 'O', code: 'PDV-RS-33-1' });
    expect(cat('RS', '0', 'PDV-RS-245')).toEqual({ category: 'O', code: 'PDV-RS-245' });
    for (const code of ['VATEX-EU-132', 'XPDV-RS-24', 'PDV-RS-']) {
      expect(cat('RS', '0', code)).toEqual({ error: 'must be a Serbian PDV-RS-... exemption code' });
    }
  });

  it('EN 16931 profiles: the VATEX code decides, other articles are exempt (E)', () => {
    for (const profile of ['HR', 'BA'] as const) {
      expect(cat(profile, '0', 'VATEX-EU-AE')).toEqual({ category: 'AE', code: 'VATEX-EU-AE' });
      expect(cat(profile, '0', 'VATEX-EU-O')).toEqual({ category: 'O', code: 'VATEX-EU-O' });
      expect(cat(profile, '0', 'VATEX-EU-G')).toEqual({ category: 'G', code: 'VATEX-EU-G' });
      expect(cat(profile, '0', 'VATEX-EU-IC')).toEqual({ category: 'K', code: 'VATEX-EU-IC' });
      expect(cat(profile, '0', 'VATEX-EU-132-1A')).toEqual({ category: 'E', code: 'VATEX-EU-132-1A' });
      for (const code of ['PDV-RS-24-1', 'XVATEX-EU-AE']) {
        expect(cat(profile, '0', code)).toEqual({ error: 'must be an EN 16931 VATEX code (e.g. VATEX-EU-132)' });
      }
    }
  });
});

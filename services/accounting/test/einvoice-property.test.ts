import { formatAmount } from '@app/shared/money';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { currencyDecimals } from '../src/modules/currencies/currencies.js';
import { buildEInvoice, type EInvoiceSource } from '../src/modules/einvoice/einvoice-document.js';
import { renderUbl } from '../src/modules/einvoice/ubl.js';
import { computeTotals } from '../src/modules/invoices/invoice-totals.js';
import { BUYERS, type Country, SELLERS } from './einvoice-fixtures.js';
import { fatal, HAVE_RULES, loadRules, xsdErrors } from './einvoice-validation.js';

beforeAll(async () => {
  if (HAVE_RULES) await loadRules(['rs-srbdt', 'en16931-ubl', 'hr-cius-2025']);
}, 60_000);

/** Per country: its VAT rates and the zero-rate exemption codes a line may carry (Z, E, AE). */
const PROFILE: Record<Country, { rates: string[]; exemptions: string[]; foreign: string[] }> = {
  RS: { rates: ['20', '10'], exemptions: ['PDV-RS-24-1-2', 'PDV-RS-25-2-3', 'PDV-RS-10-2-1'], foreign: ['EUR', 'USD'] },
  HR: { rates: ['25', '13', '5'], exemptions: ['VATEX-EU-132-1A', 'VATEX-EU-AE'], foreign: ['USD', 'GBP'] },
  BA: { rates: ['17'], exemptions: ['VATEX-EU-132', 'VATEX-EU-AE'], foreign: ['EUR', 'CHF'] },
};

const decimal = (min: number, max: number, places: number) =>
  fc
    .integer({ min: Math.round(min * 10 ** places), max: Math.round(max * 10 ** places) })
    .map((n) => (n / 10 ** places).toFixed(places));

const line = (country: Country) =>
  fc.record({
    description: fc
      .string({ minLength: 1, maxLength: 40 })
      .map((s) => s.replace(/[^\p{L}\p{N} .,-]/gu, 'x').trim() || 'x'),
    quantity: decimal(0.001, 500, 3),
    unitPrice: decimal(0.01, 20000, 4),
    tax: fc.oneof(
      fc.constantFrom(...PROFILE[country].rates).map((rate) => ({ rate, code: null as string | null })),
      fc.constantFrom(...PROFILE[country].exemptions).map((code) => ({ rate: '0', code: code as string | null })),
    ),
    unitCode: fc.constantFrom('H87', 'HUR', 'KGM', 'MTR', 'C62'),
  });

const invoice = (country: Country) =>
  fc.record({
    country: fc.constant(country),
    lines: fc.array(line(country), { minLength: 1, maxLength: 12 }),
    currency: fc.oneof(
      fc.constant(SELLERS[country].baseCurrency as string),
      fc.constantFrom(...PROFILE[country].foreign),
    ),
    rate: decimal(0.01, 200, 6),
    discountShare: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
    withAccount: fc.boolean(),
  });

/** The sellers' accounts as stored (normalized, E1). */
const ACCOUNTS: Record<Country, string> = {
  RS: '260005601001611379',
  HR: 'HR1210010051863000160',
  BA: 'BA391290079401028494',
};

type Sample = {
  country: Country;
  lines: Array<{
    description: string;
    quantity: string;
    unitPrice: string;
    tax: { rate: string; code: string | null };
    unitCode: string;
  }>;
  currency: string;
  rate: string;
  discountShare: number;
  withAccount: boolean;
};

/** The stored invoice the service would have written for this request (A3 arithmetic), as the e-invoice reads it. */
function source(s: Sample): EInvoiceSource {
  const seller = SELLERS[s.country];
  const b = BUYERS[s.country];
  const decimals = currencyDecimals(s.currency);
  const exchangeRate = s.currency === seller.baseCurrency ? '1' : s.rate;
  const items = s.lines.map((l) => ({ quantity: l.quantity, unitPrice: l.unitPrice, taxRate: l.tax.rate }));
  const gross = computeTotals(items, { decimals, baseDecimals: 2, exchangeRate });
  const discount = gross.subtotal.plus(gross.taxAmount).times(s.discountShare).toFixed(decimals, 1);
  const t = computeTotals(items, { decimals, baseDecimals: 2, exchangeRate, discountAmount: discount });
  const now = new Date('2026-03-10T09:30:00Z');
  const m = (v: { toString(): string }) => formatAmount(v.toString(), decimals);
  return {
    org: {
      id: 'org',
      name: seller.organizationName,
      registration_number: 'registrationNumber' in seller ? seller.registrationNumber : null,
      vat_number: seller.vatNumber,
      base_currency: seller.baseCurrency,
      country: seller.country,
      language: seller.language,
      fiscal_year_start: '2026-01-01',
      default_vat_rate: '0',
      address_line1: seller.addressLine1,
      city: seller.city,
      postal_code: seller.postalCode,
      iban: s.withAccount ? ACCOUNTS[s.country] : null,
      created_at: now,
      updated_at: now,
    },
    customer: {
      id: 'c',
      organization_id: 'org',
      type: 'customer',
      name: 'Kupac d.o.o.',
      email: 'k@example.test',
      phone: null,
      registration_number: 'registrationNumber' in b ? b.registrationNumber : null,
      vat_number: b.vatNumber,
      address_line1: b.addressLine1,
      address_line2: null,
      city: b.city,
      postal_code: b.postalCode,
      country: b.country,
      currency_code: s.currency,
      payment_terms: 30,
      notes: null,
      is_active: true,
      created_at: now,
      updated_at: now,
      seq: 1,
    },
    operator: { fullName: 'Ana Operaterka', operatorOib: '33392005961' },
    invoice: {
      id: 'inv',
      organization_id: 'org',
      invoice_number: 'INV-2026-0042',
      customer_id: 'c',
      customer_name: 'Kupac d.o.o.',
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      supply_date: '2026-03-05',
      currency_code: s.currency,
      exchange_rate: exchangeRate,
      subtotal: m(t.subtotal),
      tax_amount: m(t.taxAmount),
      discount_amount: m(t.discountAmount),
      total_amount: m(t.totalAmount),
      base_amount: t.baseAmount.toFixed(2),
      notes: null,
      terms: null,
      pdf_key: null,
      token_hash: null,
      sent_at: now,
      sent_to: null,
      email_id: null,
      send_claimed_at: null,
      viewed_at: null,
      paid_at: null,
      paid_bank_account_id: null,
      cancelled_at: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    },
    items: s.lines.map((l, i) => ({
      id: `item-${i}`,
      organization_id: 'org',
      invoice_id: 'inv',
      line_number: i + 1,
      description: l.description,
      quantity: l.quantity,
      unit_price: l.unitPrice,
      tax_rate: l.tax.rate,
      line_total: m(t.lines[i].lineTotal),
      line_tax: m(t.lines[i].lineTax),
      account_id: null,
      unit_code: l.unitCode,
      classification_code: '62.10.11',
      vat_exemption_code: l.tax.code,
    })),
  };
}

describe.skipIf(!HAVE_RULES)(
  'property: random valid invoices always make e-invoices with zero fatal failures (E3)',
  () => {
    for (const country of ['RS', 'HR', 'BA'] as const) {
      it(`${country}: items, rates, exemptions, discounts and currencies`, async () => {
        await fc.assert(
          fc.asyncProperty(invoice(country), async (sample) => {
            const xml = renderUbl(buildEInvoice(source(sample), 'invoice'));
            expect(fatal(country, xml)).toEqual([]);
            expect(await xsdErrors(xml)).toEqual([]);
          }),
          { numRuns: 15 },
        );
      }, 120_000);
    }
  },
);

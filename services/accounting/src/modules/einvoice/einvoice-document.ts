import { D, type Dec, dec, formatAmount, roundHalfUp } from '@app/shared/money';
import type { Selectable } from 'kysely';
import type { ContactsTable, InvoiceItemsTable, InvoicesTable, OrganizationsTable } from '../../db/types.js';
import { paymentReference, splitReference } from '../../domain/payment-reference.js';
import { compactTaxId, isOib } from '../../domain/tax-ids.js';
import { AppError, addDetail } from '../../lib/errors.js';
import { currencyDecimals } from '../currencies/currencies.js';
import type { Profile, UblBreakdown, UblDocument, UblLine, UblParty } from './ubl.js';

/** What an e-invoice is made of, as stored: the document shows exactly the books (A3). */
export interface EInvoiceSource {
  org: Selectable<OrganizationsTable>;
  customer: Selectable<ContactsTable> | undefined;
  /** The user who issued the invoice (created it): CIUS-HR operator. */
  operator: { fullName: string; operatorOib: string | null } | null;
  invoice: Omit<Selectable<InvoicesTable>, 'status'>;
  items: Selectable<InvoiceItemsTable>[];
}

export type DocumentKind = 'invoice' | 'credit-note';

/** The organization's time zone for issue dates and times (all three countries are on CET/CEST). */
const TIME_ZONE = 'Europe/Zagreb';

const HR_RATE_NAMES: Record<string, string> = { '25': 'HR:PDV25', '13': 'HR:PDV13', '5': 'HR:PDV5' };

class Missing {
  readonly details: Record<string, string[]> = {};
  add(field: string, message: string) {
    addDetail(this.details, field, message);
  }
  require(field: string, value: unknown, why: string) {
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === ''))
      this.add(field, `is required ${why}`);
  }
  throwIfAny() {
    if (Object.keys(this.details).length) throw new AppError('SVC-9003', this.details);
  }
}

export function profileOf(country: string): Profile {
  return country === 'RS' ? 'RS' : country === 'HR' ? 'HR' : 'BA';
}

const PROFILE_NAME: Record<Profile, string> = {
  RS: 'for a SEF e-invoice (srbdt)',
  HR: 'for a CIUS-HR e-invoice',
  BA: 'for an EN 16931 e-invoice',
};

/**
 * E3: the VAT category of a line. A positive rate is S; a zero rate is explained by its
 * exemption code: Serbian PDV-RS-<article>-... codes (article 24: Z, zero-rated with deduction;
 * 25: E, exempt; 10: AE, reverse charge; others: O, outside VAT), EN 16931 VATEX codes
 * (VATEX-EU-AE: AE, VATEX-EU-O: O, VATEX-EU-G: G export, VATEX-EU-IC: K intra-community, other
 * articles: E).
 */
export function vatCategory(
  profile: Profile,
  rate: Dec,
  code: string | null,
): { category: string; code: string | null } | { error: string } {
  if (rate.gt(0)) return { category: 'S', code: null };
  if (!code) return { error: 'is required when taxRate is 0' };
  if (profile === 'RS') {
    const m = /^PDV-RS-(\d+)/.exec(code);
    if (!m) return { error: 'must be a Serbian PDV-RS-... exemption code' };
    const category = ({ '24': 'Z', '25': 'E', '10': 'AE' } as Record<string, string>)[m[1]] ?? 'O';
    return { category, code };
  }
  if (!/^VATEX-/.test(code)) return { error: 'must be an EN 16931 VATEX code (e.g. VATEX-EU-132)' };
  const category =
    ({ 'VATEX-EU-AE': 'AE', 'VATEX-EU-O': 'O', 'VATEX-EU-G': 'G', 'VATEX-EU-IC': 'K' } as Record<string, string>)[
      code
    ] ?? 'E';
  return { category, code };
}

/** A VAT identifier with its country prefix (BR-CO-09); a PIB or OIB reduced to its digits first. */
function prefixedVatId(country: string | null, value: string | null): string | null {
  if (!value) return null;
  const compact = compactTaxId(country, value);
  if (compact) return `${country}${compact}`;
  const v = value.replace(/\s/g, '').toUpperCase();
  return /^[A-Z]{2}/.test(v) || !country ? v : `${country}${v}`;
}

function localDateTime(at: Date): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

/** A decimal as UBL wants it: no exponent, no trailing zeros ("20", "5.5"). */
const plain = (v: string) => dec(v).toFixed();

/**
 * Builds the e-invoice of a stored invoice (or the credit note of a cancelled one) in its
 * organization's profile. Every field the profile needs and the records lack is collected first
 * and answered at once: 422 SVC-9003 with details naming each (customer.vatNumber,
 * items[0].classificationCode, operator.operatorOib ...).
 */
export function buildEInvoice(src: EInvoiceSource, kind: DocumentKind): UblDocument {
  const { org, customer: c, invoice: inv, items } = src;
  const profile = profileOf(org.country);
  const why = PROFILE_NAME[profile];
  const missing = new Missing();
  const decimals = currencyDecimals(inv.currency_code);
  const money = (v: Dec | string) => formatAmount(v, decimals);

  // Seller.
  missing.require('organization.vatNumber', org.vat_number, why);
  if (org.vat_number && (profile === 'RS' || profile === 'HR') && !compactTaxId(org.country, org.vat_number)) {
    missing.add('organization.vatNumber', `must be a valid ${profile === 'RS' ? 'PIB' : 'OIB'}`);
  }
  missing.require('organization.city', org.city, why);
  if (profile === 'HR') {
    missing.require('organization.addressLine1', org.address_line1, why);
    missing.require('organization.postalCode', org.postal_code, why);
  }

  // Buyer.
  if (!c) missing.add('customer', 'is no longer available');
  const buyerCountry = c?.country ?? null;
  missing.require('customer.country', buyerCountry, why);
  if (profile === 'RS') {
    if (buyerCountry && buyerCountry !== 'RS')
      missing.add('customer.country', 'must be RS: SEF carries domestic invoices only');
    missing.require('customer.vatNumber', c?.vat_number, why);
    if (c?.vat_number && !compactTaxId('RS', c.vat_number)) missing.add('customer.vatNumber', 'must be a valid PIB');
    missing.require('customer.registrationNumber', c?.registration_number, why);
    if (c?.registration_number && !/^(\d{8}|\d{13})$/.test(c.registration_number))
      missing.add('customer.registrationNumber', 'must have 8 or 13 digits (matični broj)');
    missing.require('customer.city', c?.city, why);
    missing.require('customer.postalCode', c?.postal_code, why);
  }
  if (profile === 'HR') {
    missing.require('customer.vatNumber', c?.vat_number, why);
    if (buyerCountry === 'HR' && c?.vat_number && !compactTaxId('HR', c.vat_number))
      missing.add('customer.vatNumber', 'must be a valid OIB');
    if (buyerCountry && buyerCountry !== 'HR')
      missing.require('customer.email', c?.email, `${why} (the buyer's electronic address)`);
    if (!src.operator) missing.add('operator', `the issuing user is required ${why}`);
    else if (!src.operator.operatorOib || !isOib(src.operator.operatorOib))
      missing.add('operator.operatorOib', `is required ${why}: set it with PUT /auth/me`);
  }

  // Lines.
  const lines: UblLine[] = [];
  const groups = new Map<string, UblBreakdown & { taxableDec: Dec; taxDec: Dec }>();
  const lineCategories: string[] = [];
  items.forEach((item, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const rate = dec(item.tax_rate);
    const cat = vatCategory(profile, rate, item.vat_exemption_code);
    if ('error' in cat) {
      missing.add(at('vatExemptionCode'), cat.error);
      return;
    }
    let hrName: string | null = null;
    if (profile === 'HR') {
      missing.require(at('classificationCode'), item.classification_code, `${why} (KPD 2025 code)`);
      if (item.classification_code && !/^\d{2}\.\d{2}\.\d{2}$/.test(item.classification_code)) {
        missing.add(at('classificationCode'), 'must be a KPD 2025 code (nn.nn.nn)');
      }
      hrName = cat.category === 'S' ? (HR_RATE_NAMES[rate.toFixed()] ?? null) : `HR:${cat.category}`;
      if (!hrName)
        missing.add(at('taxRate'), 'must be 25, 13 or 5 (or 0 with an exemption code) for a Croatian e-invoice');
    }
    lineCategories[i] = cat.category;
    const percent = cat.category === 'O' ? null : rate.toFixed();
    // A zero-rated (Z) breakdown carries no exemption reason (BR-Z-10, also in srbdt).
    const exemptionCode = cat.category === 'Z' || cat.category === 'S' ? null : cat.code;
    lines.push({
      id: String(item.line_number),
      name: item.description,
      quantity: plain(item.quantity),
      unitCode: item.unit_code,
      price: plain(item.unit_price),
      lineTotal: money(item.line_total),
      category: cat.category,
      percent,
      hrName,
      exemptionCode: profile === 'HR' ? exemptionCode : null,
      classification: item.classification_code
        ? { code: item.classification_code, listId: profile === 'HR' ? 'CG' : 'ZZZ' }
        : null,
    });
    // One breakdown per category and rate (BR-CO-18, BR-S-08 ...); its tax is the sum of the
    // lines' rounded taxes, so the breakdown adds up to the invoice's taxAmount exactly (A3).
    const key = `${cat.category}|${percent}`;
    const g = groups.get(key) ?? {
      category: cat.category,
      percent,
      taxable: '',
      tax: '',
      exemptionCode,
      hrName,
      taxableDec: new D(0),
      taxDec: new D(0),
    };
    g.taxableDec = g.taxableDec.plus(item.line_total);
    g.taxDec = g.taxDec.plus(item.line_tax);
    groups.set(key, g);
  });
  // BR-O-11..14: outside-VAT supplies are invoiced on their own.
  const categories = new Set([...groups.values()].map((g) => g.category));
  const outside = categories.has('O');
  if (outside && categories.size > 1) {
    lineCategories.forEach((category, i) => {
      if (category === 'O') {
        missing.add(
          `items[${i}].vatExemptionCode`,
          'an outside-VAT (O) line cannot share an e-invoice with other VAT categories (BR-O-11): invoice it separately',
        );
      }
    });
  }
  missing.throwIfAny();

  const breakdown = [...groups.values()].map(({ taxableDec, taxDec, ...g }) => ({
    ...g,
    taxable: money(taxableDec),
    tax: money(taxDec),
  }));
  const baseCurrency = org.base_currency;
  const taxCurrency =
    inv.currency_code === baseCurrency
      ? null
      : {
          code: baseCurrency,
          taxAmount: formatAmount(
            roundHalfUp(dec(inv.tax_amount).times(inv.exchange_rate), currencyDecimals(baseCurrency)),
            currencyDecimals(baseCurrency),
          ),
        };

  const orgVat = compactTaxId(org.country, org.vat_number);
  const buyerVat = c ? compactTaxId(buyerCountry, c.vat_number) : null;
  const seller: UblParty = {
    name: org.name,
    street: org.address_line1,
    city: org.city,
    postalCode: org.postal_code,
    country: org.country,
    // BR-O-02: an outside-VAT invoice carries no VAT identifiers (the PIB/OIB stays the endpoint).
    vatId: outside ? null : prefixedVatId(org.country, org.vat_number),
    companyId: org.registration_number,
    endpoint:
      profile === 'RS' ? { scheme: '9948', id: orgVat! } : profile === 'HR' ? { scheme: '9934', id: orgVat! } : null,
  };
  const buyer: UblParty = {
    name: c?.name ?? inv.customer_name,
    street: c?.address_line1 ?? null,
    city: c?.city ?? null,
    postalCode: c?.postal_code ?? null,
    country: buyerCountry ?? org.country,
    vatId: outside ? null : prefixedVatId(buyerCountry, c?.vat_number ?? null),
    companyId: c?.registration_number ?? null,
    endpoint:
      profile === 'RS'
        ? { scheme: '9948', id: buyerVat! }
        : profile === 'HR'
          ? buyerCountry === 'HR'
            ? { scheme: '9934', id: buyerVat! }
            : { scheme: 'EM', id: c!.email! }
          : null,
  };

  const reference = paymentReference(org.country, inv.invoice_number);
  const ref = reference ? splitReference(reference) : null;
  const paymentId = !ref ? null : profile === 'RS' ? `mod${ref.model} ${ref.number}` : `${ref.model} ${ref.number}`;

  const isCredit = kind === 'credit-note';
  const stamp = isCredit ? inv.cancelled_at : inv.sent_at;
  const local = stamp ? localDateTime(stamp) : null;
  const discount = dec(inv.discount_amount);
  const notes = [
    ...(inv.notes?.trim() ? [inv.notes.trim()] : []),
    ...(discount.gt(0)
      ? [`Discount ${money(discount)} ${inv.currency_code} deducted from the amount due (shown as paid amount BT-113)`]
      : []),
  ];
  const hasK = breakdown.some((b) => b.category === 'K');

  return {
    profile,
    kind,
    id: isCredit ? `${inv.invoice_number}-CN` : inv.invoice_number,
    issueDate: isCredit && local ? local.date : inv.invoice_date,
    issueTime: profile === 'HR' ? (local?.time ?? '00:00:00') : null,
    dueDate: isCredit && local ? local.date : inv.due_date,
    supplyDate: inv.supply_date ?? inv.invoice_date,
    currency: inv.currency_code,
    decimals,
    taxCurrency,
    billingReference: isCredit ? { id: inv.invoice_number, issueDate: inv.invoice_date } : null,
    seller,
    operator:
      profile === 'HR' && src.operator?.operatorOib
        ? { oib: src.operator.operatorOib, name: src.operator.fullName }
        : null,
    buyer,
    payment: { account: org.iban, paymentId },
    notes,
    lines,
    breakdown,
    lineTotal: money(inv.subtotal),
    taxTotal: money(inv.tax_amount),
    taxInclusive: money(dec(inv.subtotal).plus(inv.tax_amount)),
    prepaid: money(discount),
    payable: money(inv.total_amount),
    deliveryCountry: hasK ? buyerCountry : null,
    attachment: null,
  };
}

/** CIUS-HR: the invoice's PDF travels inside the e-invoice as an additional document (BG-24). */
export function attachPdf(doc: UblDocument, invoiceNumber: string, pdf: Buffer): UblDocument {
  return {
    ...doc,
    attachment: { id: invoiceNumber, filename: `${invoiceNumber}.pdf`, base64: pdf.toString('base64') },
  };
}

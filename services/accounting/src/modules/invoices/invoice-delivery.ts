import { createHmac } from 'node:crypto';
import { dec } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/types.js';
import { printedPaymentAccount } from '../../domain/payment-account.js';
import { paymentCodeInputOf, paymentCodeKind, pngSize, renderPaymentCode } from '../../domain/payment-code.js';
import { paymentReference } from '../../domain/payment-reference.js';
import { type Party, renderInvoicePdf } from '../../infra/documents/invoice-pdf.js';
import { formatDate, formatNumber, labelsFor } from '../../infra/documents/pdf-labels.js';
import { currencyDecimals } from '../currencies/currencies.js';
import { findOrganization } from '../organization/organization.repository.js';
import { computeTotals } from './invoice-totals.js';
import type { InvoiceRow, ItemRow } from './invoices.repository.js';
import * as repo from './invoices.repository.js';

type Db = Kysely<DB>;

/**
 * The public view token (A10): an HMAC of the invoice id under the service secret, so the link can
 * be rebuilt for every re-send without storing it; only its sha256 is stored, for the look-up.
 */
export function viewToken(secret: string, invoiceId: string): string {
  return createHmac('sha256', secret).update(`invoice-view:${invoiceId}`).digest('base64url');
}

export function viewLink(config: Readonly<Config>, invoiceId: string): string {
  return `${config.publicBaseUrl}/api/v1/public/invoices/${viewToken(config.jwtSecret, invoiceId)}`;
}

export function pdfKey(orgId: string, invoiceId: string): string {
  return `invoices/${orgId}/${invoiceId}.pdf`;
}

/**
 * On a Croatian organization's invoice both parties' tax numbers read the same way (D-PDF1): a
 * Croatian party's VAT number, "HR" and the OIB or the bare OIB, prints as its 11-digit OIB;
 * a foreign party keeps its VAT id. Other organizations print the number as stored.
 */
function withOib(orgCountry: string, partyCountry: string | null, party: Party): Party {
  const m = party.vatNumber ? /^(?:HR)?(\d{11})$/.exec(party.vatNumber.replace(/\s/g, '')) : null;
  if (orgCountry !== 'HR' || !m || (partyCountry !== null && partyCountry !== 'HR')) return party;
  return { ...party, vatNumber: null, oib: m[1] };
}

function customerParty(
  c: NonNullable<Awaited<ReturnType<typeof repo.findCustomer>>> | undefined,
  fallbackName: string,
): Party {
  if (!c) return { name: fallbackName, addressLines: [], registrationNumber: null, vatNumber: null };
  const cityLine = [c.postal_code, c.city].filter(Boolean).join(' ');
  return {
    name: fallbackName,
    addressLines: [c.address_line1, c.address_line2, cityLine, c.country].filter((v): v is string => !!v),
    registrationNumber: c.registration_number,
    vatNumber: c.vat_number,
    email: c.email,
  };
}

/** Renders the invoice's PDF (A19) from what is stored: the document shows exactly the books. */
export async function renderStoredInvoice(
  db: Db,
  orgId: string,
  invoice: Omit<InvoiceRow, 'status'>,
  items: ItemRow[],
) {
  const [org, customer] = await Promise.all([
    findOrganization(db, orgId),
    repo.findCustomer(db, orgId, invoice.customer_id),
  ]);
  if (!org) throw new Error('organization not found');
  const decimals = currencyDecimals(invoice.currency_code);
  // The per-rate breakdown is recomputed from the stored lines (same rounding as the totals).
  const { taxByRate } = computeTotals(
    items.map((i) => ({ quantity: i.quantity, unitPrice: i.unit_price, taxRate: i.tax_rate })),
    { decimals, baseDecimals: currencyDecimals(org.base_currency), exchangeRate: invoice.exchange_rate },
  );
  // E4: the IPS QR (RS) or HUB-3A barcode (HR) when the invoice can be paid by one.
  const codeInput = paymentCodeInputOf(org, customer, invoice);
  const paymentCode = 'kind' in paymentCodeKind(codeInput) ? (await renderPaymentCode(codeInput)).png : null;
  const pdf = await renderInvoicePdf({
    language: org.language,
    organization: withOib(org.country, org.country, {
      name: org.name,
      addressLines: [org.address_line1, [org.postal_code, org.city].filter(Boolean).join(' '), org.country].filter(
        (v): v is string => !!v,
      ),
      registrationNumber: org.registration_number,
      vatNumber: org.vat_number,
    }),
    customer: withOib(org.country, customer?.country ?? null, customerParty(customer, invoice.customer_name)),
    invoiceNumber: invoice.invoice_number,
    invoiceDate: invoice.invoice_date,
    dueDate: invoice.due_date,
    supplyDate: invoice.supply_date ?? invoice.invoice_date,
    currencyCode: invoice.currency_code,
    decimals,
    baseCurrency: org.base_currency,
    baseDecimals: currencyDecimals(org.base_currency),
    exchangeRate: invoice.exchange_rate,
    items: items.map((i) => ({
      lineNumber: i.line_number,
      description: i.description,
      quantity: dec(i.quantity).toFixed(),
      unitCode: i.unit_code,
      unitPrice: dec(i.unit_price).toFixed(),
      taxRate: dec(i.tax_rate).toFixed(),
      lineTotal: i.line_total,
    })),
    subtotal: invoice.subtotal,
    taxByRate: taxByRate.map((t) => ({ rate: t.rate, base: t.base.toFixed(decimals), tax: t.tax.toFixed(decimals) })),
    taxAmount: invoice.tax_amount,
    discountAmount: dec(invoice.discount_amount).toFixed(decimals),
    totalAmount: invoice.total_amount,
    baseAmount: invoice.base_amount,
    notes: invoice.notes,
    terms: invoice.terms,
    payment: {
      account: printedPaymentAccount(org.iban),
      reference: paymentReference(org.country, invoice.invoice_number),
    },
    paymentCode: paymentCode ? { png: paymentCode, ...pngSize(paymentCode) } : null,
  });
  return { pdf, org, customer };
}

/** The default subject and text of the invoice e-mail, in the organization's language. */
export function invoiceEmail(
  language: string,
  orgName: string,
  invoice: Pick<InvoiceRow, 'invoice_number' | 'total_amount' | 'currency_code' | 'due_date'>,
  link: string,
  message?: string,
) {
  const { lang, labels } = labelsFor(language);
  const subject = `${labels.title} ${invoice.invoice_number} - ${orgName}`;
  const total = formatNumber(
    dec(invoice.total_amount).toFixed(currencyDecimals(invoice.currency_code)),
    currencyDecimals(invoice.currency_code),
    lang,
  );
  const lines = [
    ...(message ? [message, ''] : []),
    `${labels.title} ${invoice.invoice_number}`,
    `${labels.total}: ${total} ${invoice.currency_code}`,
    `${labels.dueDate}: ${formatDate(invoice.due_date, lang)}`,
    '',
    link,
    '',
    orgName,
  ];
  return { subject, text: lines.join('\n') };
}

import { dec, formatAmount } from '@app/shared/money';
import type bwipjs from 'bwip-js';
import type { Selectable } from 'kysely';
import type { ContactsTable, InvoicesTable, OrganizationsTable } from '../db/types.js';
import { AppError } from '../lib/errors.js';
import { serbianAccountNumber } from './payment-account.js';
import { paymentReference, splitReference } from './payment-reference.js';

/**
 * E4 payment codes, built from the organization's account, the invoice total and its payment
 * reference:
 * - RS: the NBS IPS QR code ("K:PR|V:01|C:1|R:...|N:...|I:RSD...|SF:...|S:...|RO:..."), RSD only;
 * - HR: the HUB-3A 2D barcode (PDF417, "HRVHUB30", ISO 8859-2), EUR only.
 * Text fields are cut to the lengths the standards give, so a long name never breaks a code.
 */
export type PaymentCodeKind = 'ips-qr' | 'hub3';

export interface PaymentCodeInput {
  country: string;
  account: string | null;
  payee: { name: string; street: string | null; postalCode: string | null; city: string | null };
  payer: { name: string; street: string | null; postalCode: string | null; city: string | null };
  invoiceNumber: string;
  currencyCode: string;
  totalAmount: string;
}

/** What a payment code is built from, as stored. */
export function paymentCodeInputOf(
  org: Selectable<OrganizationsTable>,
  customer: Selectable<ContactsTable> | undefined,
  invoice: Pick<Selectable<InvoicesTable>, 'invoice_number' | 'currency_code' | 'total_amount' | 'customer_name'>,
): PaymentCodeInput {
  return {
    country: org.country,
    account: org.iban,
    payee: { name: org.name, street: org.address_line1, postalCode: org.postal_code, city: org.city },
    payer: {
      name: customer?.name ?? invoice.customer_name,
      street: customer?.address_line1 ?? null,
      postalCode: customer?.postal_code ?? null,
      city: customer?.city ?? null,
    },
    invoiceNumber: invoice.invoice_number,
    currencyCode: invoice.currency_code,
    totalAmount: invoice.total_amount,
  };
}

/** NBS IPS field limits (Odluka o opštim pravilima za izvršavanje instant transfera odobrenja). */
export const IPS_LIMITS = { N: 70, S: 35, RO: 35 } as const;
/** IPS payment code 221: payment for goods and services (intermediate consumption), B2B. */
export const IPS_PAYMENT_CODE = '221';

/** HUB-3A barcode field limits (HUB 2D barcode specification, HRVHUB30). */
export const HUB3_LIMITS = {
  payerName: 30,
  payerStreet: 27,
  payerCity: 27,
  payeeName: 25,
  payeeStreet: 25,
  payeeCity: 27,
  iban: 21,
  model: 4,
  reference: 22,
  purpose: 4,
  description: 35,
} as const;
/** ISO 20022 purpose code: purchase or sale of goods and services. */
export const HUB3_PURPOSE = 'GDSV';

const cut = (value: string | null | undefined, max: number) =>
  [...(value ?? '').replace(/\s+/g, ' ').trim()].slice(0, max).join('');
const cityLine = (p: { postalCode: string | null; city: string | null }) =>
  [p.postalCode, p.city].filter(Boolean).join(' ');

/** The kind of payment code the organization's invoices carry, or why this invoice cannot have one. */
export function paymentCodeKind(
  input: Pick<PaymentCodeInput, 'country' | 'account' | 'currencyCode'>,
): { kind: PaymentCodeKind } | { missing: Record<string, string[]> } {
  if (input.country === 'RS') {
    if (!serbianAccountNumber(input.account))
      return { missing: { 'organization.iban': ['is required for the IPS QR code (a Serbian account)'] } };
    if (input.currencyCode !== 'RSD') return { missing: { currencyCode: ['IPS QR payments are in RSD only'] } };
    return { kind: 'ips-qr' };
  }
  if (input.country === 'HR') {
    if (!input.account || !/^HR\d{19}$/.test(input.account))
      return { missing: { 'organization.iban': ['is required for the HUB-3A barcode (a Croatian IBAN)'] } };
    if (input.currencyCode !== 'EUR') return { missing: { currencyCode: ['HUB-3A payments are in EUR only'] } };
    return { kind: 'hub3' };
  }
  return { missing: { 'organization.country': ['payment codes exist for RS (IPS QR) and HR (HUB-3A) only'] } };
}

/** The IPS QR payload: fields separated by "|", amount with a decimal comma ("RSD1234,50"). */
export function ipsQrPayload(input: PaymentCodeInput): string {
  // "|" separates the fields: it cannot appear inside one.
  const clean = (v: string, max: number) => cut(v.replace(/\|/g, ' '), max);
  const reference = paymentReference('RS', input.invoiceNumber);
  const ro = reference ? splitReference(reference) : null;
  const fields = [
    'K:PR',
    'V:01',
    'C:1',
    `R:${serbianAccountNumber(input.account)}`,
    `N:${clean([input.payee.name, cityLine(input.payee)].filter(Boolean).join(', '), IPS_LIMITS.N)}`,
    `I:RSD${formatAmount(dec(input.totalAmount), 2).replace('.', ',')}`,
    `SF:${IPS_PAYMENT_CODE}`,
    `S:${clean(`Faktura ${input.invoiceNumber}`, IPS_LIMITS.S)}`,
    ...(ro ? [`RO:${cut(`${ro.model}${ro.number}`, IPS_LIMITS.RO)}`] : []),
  ];
  return fields.join('|');
}

/** The HUB-3A payload: 14 fields, each ended by LF, amount in cents on 15 digits. */
export function hub3Payload(input: PaymentCodeInput): string {
  const reference = paymentReference('HR', input.invoiceNumber);
  const ref = reference ? splitReference(reference) : { model: 'HR99', number: '' };
  const cents = dec(input.totalAmount).times(100).toFixed(0);
  const fields = [
    'HRVHUB30',
    'EUR',
    cents.padStart(15, '0'),
    cut(input.payer.name, HUB3_LIMITS.payerName),
    cut(input.payer.street, HUB3_LIMITS.payerStreet),
    cut(cityLine(input.payer), HUB3_LIMITS.payerCity),
    cut(input.payee.name, HUB3_LIMITS.payeeName),
    cut(input.payee.street, HUB3_LIMITS.payeeStreet),
    cut(cityLine(input.payee), HUB3_LIMITS.payeeCity),
    cut(input.account, HUB3_LIMITS.iban),
    cut(ref.model, HUB3_LIMITS.model),
    cut(ref.number, HUB3_LIMITS.reference),
    HUB3_PURPOSE,
    cut(`Račun ${input.invoiceNumber}`, HUB3_LIMITS.description),
  ];
  return fields.map((f) => `${f}\n`).join('');
}

// ISO 8859-2 bytes of the Croatian letters outside Latin-1; the rest of Latin-2 is rarely needed
// on a slip and is reduced to its base letter.
const LATIN2: Record<string, number> = {
  Č: 0xc8,
  č: 0xe8,
  Ć: 0xc6,
  ć: 0xe6,
  Đ: 0xd0,
  đ: 0xf0,
  Š: 0xa9,
  š: 0xb9,
  Ž: 0xae,
  ž: 0xbe,
};

/** The payload as ISO 8859-2 bytes, one JS char per byte (what bwip-js encodes in binary mode). */
export function toLatin2(text: string): string {
  return [...text]
    .map((ch) => {
      if (LATIN2[ch] !== undefined) return String.fromCharCode(LATIN2[ch]);
      if (ch.charCodeAt(0) < 0x80) return ch;
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return base.charCodeAt(0) < 0x80 ? base : '?';
    })
    .join('');
}

export interface PaymentCode {
  kind: PaymentCodeKind;
  payload: string;
  png: Buffer;
}

/** The payment code of an invoice as a PNG; 422 SVC-9003 naming what is missing when it cannot have one. */
export async function renderPaymentCode(input: PaymentCodeInput): Promise<PaymentCode> {
  const k = paymentCodeKind(input);
  if ('missing' in k) throw new AppError('SVC-9003', k.missing);
  if (k.kind === 'ips-qr') {
    const payload = ipsQrPayload(input);
    // NBS: error correction level M, UTF-8 (C:1). qrcode is loaded with the first code, like bwip-js.
    const { default: QRCode } = await import('qrcode');
    const png = await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
    return { kind: k.kind, payload, png };
  }
  const payload = hub3Payload(input);
  // HUB-3A: PDF417, 9 data columns, error correction level 4, binary ISO 8859-2 text.
  // columns and eclevel are BWIPP symbol options, absent from bwip-js's option type.
  const options = {
    bcid: 'pdf417',
    text: toLatin2(payload),
    binarytext: true,
    columns: 9,
    eclevel: 4,
    scale: 2,
    paddingwidth: 4,
    paddingheight: 4,
  } as bwipjs.RenderOptions;
  // Loaded with the first HUB-3A code: about 12 MB a process that never draws one does not need.
  const { default: bwip } = await import('bwip-js');
  const png = await bwip.toBuffer(options);
  return { kind: k.kind, payload, png };
}

/** Pixel size of a PNG (IHDR), to place it in the PDF without distortion. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

import { numberPages, PAGE, pdfDocument } from '@app/shared/pdf';
import { formatDate, formatNumber, labelsFor, type PdfLanguage, unitLabel } from './pdf-labels.js';

/** Everything the document shows, already computed and formatted as decimal strings. */
export interface InvoicePdfData {
  language: string;
  organization: Party;
  customer: Party;
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  /** Always shown, also when it is the invoice date (a Serbian invoice must state the date of supply). */
  supplyDate: string;
  currencyCode: string;
  decimals: number;
  baseCurrency: string;
  baseDecimals: number;
  exchangeRate: string;
  items: Array<{
    lineNumber: number;
    description: string;
    quantity: string;
    /** UN/ECE Recommendation 20 code of the line's unit (H87, HUR ...), printed as its local abbreviation. */
    unitCode: string;
    unitPrice: string;
    taxRate: string;
    lineTotal: string;
  }>;
  subtotal: string;
  taxByRate: Array<{ rate: string; base: string; tax: string }>;
  taxAmount: string;
  discountAmount: string;
  totalAmount: string;
  baseAmount: string;
  notes: string | null;
  terms: string | null;
  /** Where and how to pay (E1): the organization's account and the invoice's reference. */
  payment: { account: string | null; reference: string | null };
  /** E4: the payment code image (PNG), printed next to the payment details. */
  paymentCode?: { png: Buffer; width: number; height: number } | null;
}

export interface Party {
  name: string;
  addressLines: string[];
  registrationNumber: string | null;
  vatNumber: string | null;
  /** A Croatian party's OIB (11 digits), printed as "OIB:" in place of the VAT number. */
  oib?: string | null;
  email?: string | null;
}

const COLS = [
  { key: 'lineNo', width: 28, align: 'left' },
  { key: 'description', width: 178, align: 'left' },
  { key: 'quantity', width: 50, align: 'right' },
  { key: 'unit', width: 34, align: 'left' },
  { key: 'unitPrice', width: 75, align: 'right' },
  { key: 'taxRate', width: 45, align: 'right' },
  { key: 'amount', width: 85, align: 'right' },
] as const;

/** Renders an A4 invoice (A19) and resolves with the PDF bytes. */
export async function renderInvoicePdf(data: InvoicePdfData): Promise<Buffer> {
  const { lang, labels } = labelsFor(data.language);
  const { doc, done } = await pdfDocument({
    bufferPages: true,
    info: {
      Title: `${labels.title} ${data.invoiceNumber}`,
      Author: data.organization.name,
      Subject: data.invoiceNumber,
    },
  });

  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const width = right - left;
  const money = (v: string, d = data.decimals) => formatNumber(v, d, lang);
  const plain = (v: string) => formatNumber(v, (v.split('.')[1] ?? '').length, lang);
  // Prices show at least the currency's decimals ("1.500,00", never a bare "1.500").
  const price = (v: string) => formatNumber(v, Math.max(data.decimals, (v.split('.')[1] ?? '').length), lang);

  // Header: title and number on the left, dates on the right.
  doc.font('bold').fontSize(22).text(labels.title, left, PAGE.margin);
  doc
    .font('regular')
    .fontSize(11)
    .text(`${labels.invoiceNumber}: `, left, PAGE.margin + 30, { continued: true });
  doc.font('bold').text(data.invoiceNumber);
  const meta = [
    [labels.invoiceDate, formatDate(data.invoiceDate, lang)],
    [labels.dueDate, formatDate(data.dueDate, lang)],
    [labels.supplyDate, formatDate(data.supplyDate, lang)],
    [labels.currency, data.currencyCode],
  ];
  meta.forEach(([k, v], i) => {
    doc
      .font('regular')
      .fontSize(10)
      .text(`${k}: ${v}`, left + width / 2, PAGE.margin + 6 + i * 15, { width: width / 2, align: 'right' });
  });

  // Parties.
  const partyTop = PAGE.margin + 75;
  const party = (title: string, p: Party, x: number) => {
    doc
      .font('bold')
      .fontSize(9)
      .fillColor('#555555')
      .text(title.toUpperCase(), x, partyTop, { width: width / 2 - 10 });
    doc
      .fillColor('black')
      .font('bold')
      .fontSize(11)
      .text(p.name, { width: width / 2 - 10 });
    doc.font('regular').fontSize(9.5);
    for (const line of p.addressLines) doc.text(line, { width: width / 2 - 10 });
    if (p.registrationNumber)
      doc.text(`${labels.registrationNumber}: ${p.registrationNumber}`, { width: width / 2 - 10 });
    if (p.oib) doc.text(`OIB: ${p.oib}`, { width: width / 2 - 10 });
    else if (p.vatNumber) doc.text(`${labels.vatNumber}: ${p.vatNumber}`, { width: width / 2 - 10 });
    if (p.email) doc.text(p.email, { width: width / 2 - 10 });
    return doc.y;
  };
  const yA = party(labels.seller, data.organization, left);
  const yB = party(labels.buyer, data.customer, left + width / 2 + 10);
  let y = Math.max(yA, yB) + 20;

  // Item table.
  const header = () => {
    doc.rect(left, y, width, 20).fill('#eeeeee').fillColor('black');
    let x = left;
    doc.font('bold').fontSize(9);
    for (const c of COLS) {
      doc.text(labels[c.key], x + 4, y + 6, { width: c.width - 8, align: c.align });
      x += c.width;
    }
    y += 24;
  };
  header();
  doc.font('regular').fontSize(9);
  for (const item of data.items) {
    const cells = [
      String(item.lineNumber),
      item.description,
      plain(item.quantity),
      unitLabel(item.unitCode, lang),
      price(item.unitPrice),
      plain(item.taxRate),
      money(item.lineTotal),
    ];
    const h = Math.max(12, doc.heightOfString(item.description, { width: COLS[1].width - 8 }));
    if (y + h > PAGE.height - PAGE.margin - 40) {
      doc.addPage();
      y = PAGE.margin;
      header();
      doc.font('regular').fontSize(9);
    }
    let x = left;
    cells.forEach((text, i) => {
      doc.text(text, x + 4, y, { width: COLS[i].width - 8, align: COLS[i].align });
      x += COLS[i].width;
    });
    y += h + 6;
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
  }

  // Totals, with the tax broken down by rate.
  const rows: Array<[string, string, boolean?]> = [[labels.subtotal, money(data.subtotal)]];
  for (const t of data.taxByRate) rows.push([`${labels.taxAt(plain(t.rate))} (${money(t.base)})`, money(t.tax)]);
  rows.push([labels.tax, money(data.taxAmount)]);
  if (data.discountAmount !== '0' && !/^0(\.0+)?$/.test(data.discountAmount))
    rows.push([labels.discount, `-${money(data.discountAmount)}`]);
  rows.push([`${labels.total} (${data.currencyCode})`, money(data.totalAmount), true]);
  if (data.currencyCode !== data.baseCurrency) {
    rows.push([labels.exchangeRate(data.currencyCode, data.baseCurrency), formatNumber(data.exchangeRate, 6, lang)]);
    rows.push([labels.totalInBase(data.baseCurrency), money(data.baseAmount, data.baseDecimals)]);
  }
  if (y + rows.length * 16 + 20 > PAGE.height - PAGE.margin) {
    doc.addPage();
    y = PAGE.margin;
  }
  y += 8;
  for (const [label, value, strong] of rows) {
    doc.font(strong ? 'bold' : 'regular').fontSize(strong ? 11 : 9.5);
    doc.text(label, left + width - 330, y, { width: 240, align: 'right' });
    doc.text(value, left + width - 85, y, { width: 85, align: 'right' });
    y += strong ? 18 : 15;
  }

  // Payment details (E1) and the payment code (E4), kept together on one page.
  y += 15;
  const paymentLines = [
    data.payment.account ? `${labels.paymentAccount}: ${data.payment.account}` : null,
    data.payment.reference ? `${labels.paymentReference}: ${data.payment.reference}` : null,
  ].filter((v): v is string => !!v);
  const code = data.paymentCode;
  const codeBox = code
    ? { width: Math.min(160, code.width), height: Math.min(160, code.width) * (code.height / code.width) }
    : null;
  const blockHeight = Math.max(paymentLines.length * 13, codeBox ? codeBox.height + 14 : 0);
  if (blockHeight > 0) {
    if (y + blockHeight > PAGE.height - PAGE.margin) {
      doc.addPage();
      y = PAGE.margin;
    }
    doc.font('regular').fontSize(9.5);
    for (const [i, line] of paymentLines.entries()) doc.text(line, left, y + i * 13, { width: width - 180 });
    if (code && codeBox) {
      doc
        .font('regular')
        .fontSize(8)
        .fillColor('#555555')
        .text(labels.scanToPay, right - codeBox.width, y, { width: codeBox.width, align: 'center' });
      doc
        .fillColor('black')
        .image(code.png, right - codeBox.width, y + 12, { width: codeBox.width, height: codeBox.height });
    }
    y += blockHeight + 10;
  }

  // Notes and terms.
  y += 5;
  for (const [title, text] of [
    [labels.notes, data.notes],
    [labels.terms, data.terms],
  ] as const) {
    if (!text) continue;
    doc.font('bold').fontSize(9.5).text(title, left, y, { width });
    doc.font('regular').fontSize(9).text(text, { width });
    y = doc.y + 10;
  }

  numberPages(doc, (page, count) => `${data.invoiceNumber} · ${labels.page} ${page}/${count}`);
  doc.end();
  return done;
}

export type { PdfLanguage };

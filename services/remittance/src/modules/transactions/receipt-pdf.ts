import { PAGE, pdfDocument } from '@app/shared/pdf';

export interface Receipt {
  transactionId: string;
  date: string;
  type: 'remittance' | 'qr_payment';
  amount: number;
  currency: string;
  fee: number;
  exchangeRate: number;
  receiveAmount: number;
  receiveCurrency: string;
  recipient: { name: string; countryCode: string | null };
  reference: string;
  status: 'initiating' | 'processing' | 'completed' | 'failed';
  estimatedCompletion: string | null;
  completedAt: string | null;
}

/** What the PDF shows besides the receipt's fields: who paid, from where, and to which account (masked). */
export interface ReceiptParties {
  sender: { name: string | null; bank: string; account: string | null };
  recipientAccount: string | null;
}

/** The company issuing the receipt (config RECEIPT_ISSUER_*). */
export interface ReceiptIssuer {
  name: string;
  orgNumber: string;
  address: string;
  contact: string;
}

// DejaVu (packages/shared/src/pdf.ts) has Norwegian æ ø å and the recipients' č ć š ž ş ğ, and the •.

const LABELS = {
  nb: {
    title: 'Kvittering',
    remittance: 'Overføring til utlandet',
    qr_payment: 'QR-betaling',
    transactionId: 'Transaksjons-ID',
    date: 'Dato',
    amount: 'Beløp',
    fee: 'Gebyr',
    total: 'Totalt belastet',
    exchangeRate: 'Vekslingskurs',
    receiveAmount: 'Mottaker får',
    sender: 'Avsender',
    recipient: 'Mottaker',
    account: 'Konto',
    details: 'Detaljer',
    reference: 'Referanse',
    status: 'Status',
    estimatedCompletion: 'Forventet gjennomført',
    completedAt: 'Gjennomført',
    orgNumber: 'Org.nr.',
    issuedBy: 'Kvitteringen er utstedt av',
    statuses: {
      initiating: 'Venter på banken',
      processing: 'Under behandling',
      completed: 'Fullført',
      failed: 'Mislyktes',
    } as Record<string, string>,
  },
  en: {
    title: 'Receipt',
    remittance: 'International transfer',
    qr_payment: 'QR payment',
    transactionId: 'Transaction ID',
    date: 'Date',
    amount: 'Amount',
    fee: 'Fee',
    total: 'Total charged',
    exchangeRate: 'Exchange rate',
    receiveAmount: 'Recipient gets',
    sender: 'Sender',
    recipient: 'Recipient',
    account: 'Account',
    details: 'Details',
    reference: 'Reference',
    status: 'Status',
    estimatedCompletion: 'Estimated completion',
    completedAt: 'Completed',
    orgNumber: 'Org. no.',
    issuedBy: 'This receipt is issued by',
    statuses: {
      initiating: 'Waiting for the bank',
      processing: 'Processing',
      completed: 'Completed',
      failed: 'Failed',
    } as Record<string, string>,
  },
};

/** "923456783" -> "923 456 783", the way the Brønnøysund register prints it. */
const orgNumber = (n: string) => n.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

/**
 * Receipt PDF in the user's language (nb, or en for every other setting), fonts embedded, laid out
 * as a bank's or Wise's receipt: the issuing company at the top right, the amount and reference
 * first, sender and recipient side by side (accounts masked), then the details.
 */
export async function renderReceiptPdf(
  r: Receipt,
  total: string,
  language: string,
  parties: ReceiptParties,
  issuer: ReceiptIssuer,
): Promise<Buffer> {
  const lang = language === 'nb' ? 'nb' : 'en';
  const l = LABELS[lang];
  const locale = lang === 'nb' ? 'nb-NO' : 'en-GB';
  const num = (v: number, min = 2, max = 2) =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max }).format(v);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'Europe/Oslo', dateStyle: 'long', timeStyle: 'short' }).format(
      new Date(iso),
    );

  const { doc, done } = await pdfDocument({ info: { Title: `${l.title} ${r.reference}`, Author: issuer.name } });
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const half = width / 2 - 10;

  // Issuer, top right: who stands behind the receipt.
  doc
    .font('bold')
    .fontSize(10)
    .text(issuer.name, left + width / 2, PAGE.margin, { width: width / 2, align: 'right' });
  doc.font('regular').fontSize(9).fillColor('#555');
  for (const line of [`${l.orgNumber} ${orgNumber(issuer.orgNumber)}`, issuer.address, issuer.contact].filter(Boolean))
    doc.text(line, { width: width / 2, align: 'right' });
  const issuerBottom = doc.y;

  // Title, kind, and the amount in large type with its status.
  doc
    .fillColor('#000')
    .font('bold')
    .fontSize(20)
    .text(l.title, left, PAGE.margin, { width: width / 2 });
  doc
    .font('regular')
    .fontSize(11)
    .fillColor('#555')
    .text(l[r.type], { width: width / 2 });
  let y = Math.max(doc.y, issuerBottom) + 24;
  doc
    .fillColor('#000')
    .font('bold')
    .fontSize(22)
    .text(`${num(Number(total))} ${r.currency}`, left, y, { width });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('#555')
    .text(`${l.statuses[r.status] ?? r.status} · ${l.reference} ${r.reference}`, { width });
  y = doc.y + 18;

  // Sender and recipient side by side.
  const party = (title: string, lines: string[], x: number) => {
    doc.font('bold').fontSize(9).fillColor('#555').text(title.toUpperCase(), x, y, { width: half });
    const [name, ...rest] = lines;
    doc.fillColor('#000').font('bold').fontSize(11).text(name, { width: half });
    doc.font('regular').fontSize(9.5);
    for (const line of rest) doc.text(line, { width: half });
    return doc.y;
  };
  const senderLines = [
    parties.sender.name ?? '—',
    parties.sender.account ? `${l.account}: ${parties.sender.account}` : null,
    parties.sender.bank,
  ].filter((v): v is string => !!v);
  const recipientLines = [
    r.recipient.countryCode ? `${r.recipient.name} (${r.recipient.countryCode})` : r.recipient.name,
    parties.recipientAccount ? `${l.account}: ${parties.recipientAccount}` : null,
  ].filter((v): v is string => !!v);
  y = Math.max(party(l.sender, senderLines, left), party(l.recipient, recipientLines, left + width / 2 + 10)) + 20;

  // The details, one labelled row each, with a thin rule under each.
  doc.font('bold').fontSize(11).fillColor('#333').text(l.details, left, y, { width });
  y = doc.y + 6;
  const rows: Array<[string, string]> = [
    [l.reference, r.reference],
    [l.transactionId, r.transactionId],
    [l.date, when(r.date)],
    [l.status, l.statuses[r.status] ?? r.status],
    [l.amount, `${num(r.amount)} ${r.currency}`],
    [l.fee, `${num(r.fee)} ${r.currency}`],
    [l.total, `${num(Number(total))} ${r.currency}`],
  ];
  if (r.type === 'remittance') {
    rows.push([l.exchangeRate, `1 ${r.currency} = ${num(r.exchangeRate, 2, 8)} ${r.receiveCurrency}`]);
    rows.push([l.receiveAmount, `${num(r.receiveAmount)} ${r.receiveCurrency}`]);
  }
  if (r.estimatedCompletion) rows.push([l.estimatedCompletion, r.estimatedCompletion]);
  if (r.completedAt) rows.push([l.completedAt, when(r.completedAt)]);
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(10).fillColor('#555').text(label, left, y, { width: 170 });
    doc
      .font('bold')
      .fillColor('#000')
      .text(value, left + 180, y, { width: width - 180 });
    y = Math.max(doc.y, y + 12) + 6;
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
  }

  // Footer: the issuer again, in one line, as the last thing on the page.
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('#777')
    .text(
      `${l.issuedBy} ${issuer.name}, ${l.orgNumber} ${orgNumber(issuer.orgNumber)} · ${issuer.contact}`,
      left,
      PAGE.height - PAGE.margin + 15,
      { width, align: 'center', lineBreak: false },
    );
  doc.page.margins.bottom = bottom;
  doc.end();
  return done;
}

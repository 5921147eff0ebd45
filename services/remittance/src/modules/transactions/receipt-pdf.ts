import { pdfDocument } from '@app/shared/pdf';

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
  status: 'processing' | 'completed' | 'failed';
  estimatedCompletion: string | null;
  completedAt: string | null;
}

// DejaVu (packages/shared/src/pdf.ts) has Norwegian æ ø å and the recipients' č ć š ž ş ğ.

const LABELS = {
  nb: {
    title: 'Kvittering',
    remittance: 'Overføring til utlandet',
    qr_payment: 'QR-betaling',
    transactionId: 'Transaksjons-ID',
    date: 'Dato',
    type: 'Type',
    amount: 'Beløp',
    fee: 'Gebyr',
    total: 'Totalt belastet',
    exchangeRate: 'Vekslingskurs',
    receiveAmount: 'Mottaker får',
    recipient: 'Mottaker',
    reference: 'Referanse',
    status: 'Status',
    estimatedCompletion: 'Forventet gjennomført',
    completedAt: 'Gjennomført',
    statuses: { processing: 'Under behandling', completed: 'Fullført', failed: 'Mislyktes' } as Record<string, string>,
  },
  en: {
    title: 'Receipt',
    remittance: 'International transfer',
    qr_payment: 'QR payment',
    transactionId: 'Transaction ID',
    date: 'Date',
    type: 'Type',
    amount: 'Amount',
    fee: 'Fee',
    total: 'Total charged',
    exchangeRate: 'Exchange rate',
    receiveAmount: 'Recipient gets',
    recipient: 'Recipient',
    reference: 'Reference',
    status: 'Status',
    estimatedCompletion: 'Estimated completion',
    completedAt: 'Completed',
    statuses: { processing: 'Processing', completed: 'Completed', failed: 'Failed' } as Record<string, string>,
  },
};

/** Receipt PDF in the user's language (nb, or en for every other setting), fonts embedded. */
export async function renderReceiptPdf(r: Receipt, total: string, language: string): Promise<Buffer> {
  const lang = language === 'nb' ? 'nb' : 'en';
  const l = LABELS[lang];
  const locale = lang === 'nb' ? 'nb-NO' : 'en-GB';
  const num = (v: number, min = 2, max = 2) =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max }).format(v);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'Europe/Oslo', dateStyle: 'long', timeStyle: 'short' }).format(
      new Date(iso),
    );

  const { doc, done } = await pdfDocument({ info: { Title: `${l.title} ${r.transactionId}`, Subject: r.reference } });

  doc.font('bold').fontSize(20).text(l.title);
  doc.font('regular').fontSize(11).fillColor('#555').text(l[r.type]).moveDown(1.5).fillColor('#000');
  const rows: Array<[string, string]> = [
    [l.transactionId, r.transactionId],
    [l.date, when(r.date)],
    [l.status, l.statuses[r.status] ?? r.status],
    [l.recipient, r.recipient.countryCode ? `${r.recipient.name} (${r.recipient.countryCode})` : r.recipient.name],
    [l.amount, `${num(r.amount)} ${r.currency}`],
    [l.fee, `${num(r.fee)} ${r.currency}`],
    [l.total, `${num(Number(total))} ${r.currency}`],
  ];
  if (r.type === 'remittance') {
    rows.push([l.exchangeRate, `1 ${r.currency} = ${num(r.exchangeRate, 2, 8)} ${r.receiveCurrency}`]);
    rows.push([l.receiveAmount, `${num(r.receiveAmount)} ${r.receiveCurrency}`]);
  }
  rows.push([l.reference, r.reference]);
  if (r.estimatedCompletion) rows.push([l.estimatedCompletion, r.estimatedCompletion]);
  if (r.completedAt) rows.push([l.completedAt, when(r.completedAt)]);
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('regular').fontSize(10).fillColor('#555').text(label, 50, y, { width: 170 });
    doc.font('bold').fillColor('#000').text(value, 230, y, { width: 315 });
    doc.moveDown(0.6);
  }
  doc.end();
  return done;
}

/** Invoice PDF labels in the organization's language (A18, A19); sr, bs and hr in Latin script. */
export type PdfLanguage = 'sr' | 'bs' | 'hr' | 'en';

export interface PdfLabels {
  title: string;
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  supplyDate: string;
  paymentAccount: string;
  paymentReference: string;
  scanToPay: string;
  seller: string;
  buyer: string;
  registrationNumber: string;
  vatNumber: string;
  lineNo: string;
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  amount: string;
  subtotal: string;
  taxAt: (rate: string) => string;
  tax: string;
  discount: string;
  total: string;
  currency: string;
  exchangeRate: (from: string, to: string) => string;
  totalInBase: (base: string) => string;
  notes: string;
  terms: string;
  page: string;
}

const sr: PdfLabels = {
  title: 'Faktura',
  invoiceNumber: 'Broj fakture',
  invoiceDate: 'Datum izdavanja',
  dueDate: 'Datum dospeća',
  supplyDate: 'Datum prometa',
  paymentAccount: 'Tekući račun',
  paymentReference: 'Poziv na broj',
  scanToPay: 'Skenirajte i platite (IPS)',
  seller: 'Prodavac',
  buyer: 'Kupac',
  registrationNumber: 'Matični broj',
  vatNumber: 'PIB',
  lineNo: 'Rb.',
  description: 'Opis',
  quantity: 'Količina',
  unitPrice: 'Cena',
  taxRate: 'PDV %',
  amount: 'Iznos',
  subtotal: 'Osnovica',
  taxAt: (r) => `PDV ${r}%`,
  tax: 'Ukupno PDV',
  discount: 'Popust',
  total: 'Ukupno za plaćanje',
  currency: 'Valuta',
  exchangeRate: (f, t) => `Kurs ${f}/${t}`,
  totalInBase: (b) => `Ukupno u ${b}`,
  notes: 'Napomena',
  terms: 'Uslovi plaćanja',
  page: 'Strana',
};

const bs: PdfLabels = {
  ...sr,
  dueDate: 'Datum dospijeća',
  supplyDate: 'Datum isporuke',
  paymentAccount: 'Transakcijski račun',
  scanToPay: 'Skenirajte i platite',
  registrationNumber: 'ID broj',
  vatNumber: 'PDV broj',
  unitPrice: 'Cijena',
  terms: 'Uslovi plaćanja',
};

const hr: PdfLabels = {
  ...sr,
  title: 'Račun',
  invoiceNumber: 'Broj računa',
  invoiceDate: 'Datum izdavanja',
  dueDate: 'Datum dospijeća',
  supplyDate: 'Datum isporuke',
  paymentAccount: 'IBAN',
  paymentReference: 'Poziv na broj primatelja',
  scanToPay: 'Skenirajte za plaćanje (HUB-3A)',
  seller: 'Prodavatelj',
  buyer: 'Kupac',
  registrationNumber: 'Matični broj',
  vatNumber: 'OIB',
  unitPrice: 'Cijena',
  subtotal: 'Osnovica',
  total: 'Ukupno za platiti',
  exchangeRate: (f, t) => `Tečaj ${f}/${t}`,
  terms: 'Uvjeti plaćanja',
};

const en: PdfLabels = {
  title: 'Invoice',
  invoiceNumber: 'Invoice number',
  invoiceDate: 'Invoice date',
  dueDate: 'Due date',
  supplyDate: 'Date of supply',
  paymentAccount: 'Pay to account',
  paymentReference: 'Payment reference',
  scanToPay: 'Scan to pay',
  seller: 'From',
  buyer: 'Bill to',
  registrationNumber: 'Registration no.',
  vatNumber: 'VAT no.',
  lineNo: '#',
  description: 'Description',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  taxRate: 'Tax %',
  amount: 'Amount',
  subtotal: 'Subtotal',
  taxAt: (r) => `Tax ${r}%`,
  tax: 'Total tax',
  discount: 'Discount',
  total: 'Total due',
  currency: 'Currency',
  exchangeRate: (f, t) => `Exchange rate ${f}/${t}`,
  totalInBase: (b) => `Total in ${b}`,
  notes: 'Notes',
  terms: 'Terms',
  page: 'Page',
};

const ALL: Record<PdfLanguage, PdfLabels> = { sr, bs, hr, en };

export function labelsFor(language: string): { lang: PdfLanguage; labels: PdfLabels } {
  const lang = (language in ALL ? language : 'en') as PdfLanguage;
  return { lang, labels: ALL[lang] };
}

/** "1234.5" -> "1.234,50" (sr, bs, hr) or "1,234.50" (en). */
export function formatNumber(value: string, decimals: number, lang: PdfLanguage): string {
  const negative = value.startsWith('-');
  const [int, frac = ''] = (negative ? value.slice(1) : value).split('.');
  const [group, point] = lang === 'en' ? [',', '.'] : ['.', ','];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const fraction = decimals > 0 ? point + frac.padEnd(decimals, '0').slice(0, decimals) : '';
  return `${negative ? '-' : ''}${grouped}${fraction}`;
}

/** ISO date -> "21.11.2026." (sr, bs, hr) or "2026-11-21" (en). */
export function formatDate(iso: string, lang: PdfLanguage): string {
  if (lang === 'en') return iso;
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}.`;
}

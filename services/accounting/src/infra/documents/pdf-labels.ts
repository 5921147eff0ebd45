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
  unit: string;
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
  unit: 'JM',
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
  // A Croatian party prints its OIB (Party.oib); this label is for a foreign party's VAT id.
  vatNumber: 'PDV ID',
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
  unit: 'Unit',
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

/**
 * Units of measure as an invoice prints them: the UN/ECE Recommendation 20 codes lines use most,
 * by language (a missing one is the same in every language); any other code prints as itself.
 */
const UNITS: Record<string, Partial<Record<PdfLanguage, string>> & { en: string }> = {
  H87: { sr: 'kom', bs: 'kom', hr: 'kom', en: 'pc' },
  C62: { sr: 'kom', bs: 'kom', hr: 'kom', en: 'pc' },
  EA: { sr: 'kom', bs: 'kom', hr: 'kom', en: 'ea' },
  SET: { en: 'set' },
  PR: { sr: 'par', bs: 'par', hr: 'par', en: 'pair' },
  MIN: { en: 'min' },
  HUR: { sr: 'sat', bs: 'sat', hr: 'sat', en: 'h' },
  DAY: { sr: 'dan', bs: 'dan', hr: 'dan', en: 'day' },
  WEE: { sr: 'ned.', bs: 'sedm.', hr: 'tj.', en: 'wk' },
  MON: { sr: 'mes.', bs: 'mj.', hr: 'mj.', en: 'mo' },
  ANN: { sr: 'god.', bs: 'god.', hr: 'god.', en: 'yr' },
  GRM: { en: 'g' },
  KGM: { en: 'kg' },
  TNE: { en: 't' },
  MTR: { en: 'm' },
  KMT: { en: 'km' },
  MTK: { en: 'm²' },
  MTQ: { en: 'm³' },
  LTR: { en: 'l' },
  KWH: { en: 'kWh' },
};

export function unitLabel(code: string, lang: PdfLanguage): string {
  const u = UNITS[code];
  return u ? (u[lang] ?? u.en) : code;
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

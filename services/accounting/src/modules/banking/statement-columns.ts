/**
 * Which column of a statement CSV holds what (issue 25 item 8). Without a header row the columns
 * are the specification's, in order: Date, Description, Amount, Reference. With one, columns are
 * found by their names, in any order, other columns ignored: the English names of the
 * specification and the names Serbian, Bosnian and Croatian banks export (Datum, Opis, Iznos,
 * Duguje/Potražuje ...; docs/accounting/bank-statements.md lists them). Names are compared without
 * case, diacritics, punctuation or a bracketed suffix ("Iznos (RSD)"), Cyrillic read as Latin.
 */
export interface Columns {
  /** True when the first row named the columns. */
  header: boolean;
  date: number;
  description: number;
  /** A signed amount column, or -1 when the amount is split into money out and money in. */
  amount: number;
  /** Money out (debit, "Duguje", "Isplata") and in (credit, "Potražuje", "Uplata"), or -1. */
  debit: number;
  credit: number;
  reference: number;
}

export const POSITIONAL: Columns = {
  header: false,
  date: 0,
  description: 1,
  amount: 2,
  debit: -1,
  credit: -1,
  reference: 3,
};

/** Accepted names per role, most specific first: the first present wins (booking date before value date). */
export const HEADER_NAMES = {
  date: [
    'date',
    'booking date',
    'transaction date',
    'datum',
    'datum transakcije',
    'datum knjizenja',
    'datum izvrsenja',
    'datum promene',
    'datum promjene',
    'datum prometa',
    'datum naloga',
    'datum valute',
    'value date',
  ],
  description: [
    'description',
    'opis',
    'opis transakcije',
    'opis placanja',
    'svrha',
    'svrha placanja',
    'svrha doznake',
    'namena',
    'namjena',
    'details',
    'naziv',
    'platilac primalac',
    'primalac platilac',
    'nalogodavac primalac',
  ],
  amount: ['amount', 'iznos', 'iznos transakcije'],
  debit: ['debit', 'duguje', 'dugovanje', 'isplata', 'isplate', 'zaduzenje', 'na teret', 'teret'],
  credit: ['credit', 'potrazuje', 'potrazivanje', 'uplata', 'uplate', 'odobrenje', 'u korist', 'korist'],
  reference: [
    'reference',
    'referenca',
    'poziv na broj',
    'poziv na broj odobrenja',
    'poziv na broj zaduzenja',
    'model i poziv na broj',
    'poziv na broj primaoca',
    'poziv na broj platioca',
    'poziv na broj primatelja',
    'poziv na broj platitelja',
  ],
} as const;

const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'd',
  е: 'e',
  ж: 'z',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'c',
  џ: 'dz',
  ш: 's',
};

/** A header name reduced for comparison: "Potražuje (RSD):" -> "potrazuje", "Датум валуте" -> "datum valute". */
export function headerKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\u0400-\u04ff]/g, (c) => CYRILLIC[c] ?? c)
    .replace(/đ/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function find(keys: string[], names: readonly string[]): number {
  for (const name of names) {
    const i = keys.indexOf(name);
    if (i !== -1) return i;
  }
  return -1;
}

/**
 * The columns a first record names, or null when it is not a header (a data row). A header is a
 * first record with a date column name; one that lacks a description or an amount is an error, so
 * a bank's export with an unknown amount name is told which names are accepted.
 */
export function columnsOf(record: string[]): Columns | { error: string } | null {
  const keys = record.map(headerKey);
  const date = find(keys, HEADER_NAMES.date);
  if (date === -1) return null;
  const columns: Columns = {
    header: true,
    date,
    description: find(keys, HEADER_NAMES.description),
    amount: find(keys, HEADER_NAMES.amount),
    debit: find(keys, HEADER_NAMES.debit),
    credit: find(keys, HEADER_NAMES.credit),
    reference: find(keys, HEADER_NAMES.reference),
  };
  const missing: string[] = [];
  if (columns.description === -1) missing.push('a description (Description, Opis, Svrha ...)');
  if (columns.amount === -1 && (columns.debit === -1 || columns.credit === -1))
    missing.push('an amount (Amount, Iznos, or money out and in: Duguje and Potražuje, Isplata and Uplata)');
  if (missing.length === 0) return columns;
  // The specification's header only has to start with Date: other names keep the columns' order.
  if (keys[0] === 'date') return { ...POSITIONAL, header: true };
  return { error: `the header row names no column for ${missing.join(' and ')}` };
}

/** The columns a data row must reach. */
export function requiredWidth(c: Columns): number {
  return Math.max(c.date, c.description, c.amount, c.debit, c.credit) + 1;
}

const LOCAL_DATE = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})\.?(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$/;

/** "27.11.2026", "27.11.2026." and "1. 2. 2026." (with an optional time) as "2026-11-27"; else null. */
export function localDate(s: string): string | null {
  const m = LOCAL_DATE.exec(s);
  if (!m) return null;
  return `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
}

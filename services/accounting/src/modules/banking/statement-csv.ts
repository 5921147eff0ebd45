import { once } from 'node:events';
import { parse } from 'csv-parse';
import { AppError } from '../../lib/errors.js';

/**
 * Bank statement CSV (A14): columns Date (YYYY-MM-DD), Description, Amount (signed), Reference
 * (optional). RFC 4180 quoting, UTF-8 with or without BOM, comma or semicolon delimiter detected
 * from the first line; with semicolons the amount may use a decimal comma ("-1.234,56"). A first
 * row whose first field is "Date" is a header. Parsed as a stream: the file is never held whole,
 * only the parsed rows (as compact arrays) are kept for the import's batched inserts.
 */
export interface StatementRows {
  dates: string[];
  /** Normalised decimal strings ("-1234.56"). */
  amounts: string[];
  descriptions: string[];
  references: string[];
  /** Physical line (header = 1) where each row starts, for messages. */
  lines: number[];
  errors: Array<{ line: number; error: string }>;
  /** Rows refused for their date: with every row refused, the file is answered SVC-5008. */
  dateErrors: number;
  dataRows: number;
}

const MAX_DESCRIPTION = 500;
const MAX_REFERENCE = 200;
const HEAD_BYTES = 64 * 1024;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DOT_DECIMAL = /^[+-]?\d{1,15}(\.\d+)?$/;
const COMMA_DECIMAL = /^[+-]?(\d{1,3}(\.\d{3})+|\d{1,15})(,\d+)?$/;

function validDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The amount as a plain decimal string, or null. Decimal comma only with semicolons. */
export function normaliseAmount(raw: string, delimiter: ',' | ';', decimals: number): string | null {
  const s = raw.trim();
  let plain: string;
  if (delimiter === ';' && s.includes(',')) {
    if (!COMMA_DECIMAL.test(s)) return null;
    plain = s.replace(/\./g, '').replace(',', '.');
  } else {
    if (!DOT_DECIMAL.test(s)) return null;
    plain = s;
  }
  let sign = '';
  if (plain[0] === '+' || plain[0] === '-') {
    sign = plain[0] === '-' ? '-' : '';
    plain = plain.slice(1);
  }
  let [int, frac = ''] = plain.split('.');
  frac = frac.replace(/0+$/, '');
  if (frac.length > decimals) return null;
  int = int.replace(/^0+(?=\d)/, '');
  if (/^0*$/.test(int) && frac === '') return null; // zero moves no money
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** Counts commas and semicolons outside quotes on the first line; more semicolons means ';'. */
export function detectDelimiter(head: string): ',' | ';' {
  let inQuotes = false;
  let commas = 0;
  let semicolons = 0;
  for (const ch of head) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) break;
    else if (!inQuotes && ch === ',') commas++;
    else if (!inQuotes && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** Reads chunks until the first line is complete (or HEAD_BYTES), then hands all of them on. */
async function peekHead(source: AsyncIterable<Buffer>): Promise<{ head: string; stream: AsyncIterable<Buffer> }> {
  const it = source[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  while (size < HEAD_BYTES) {
    const next = await it.next();
    if (next.done) break;
    taken.push(next.value);
    size += next.value.length;
    if (next.value.includes(0x0a)) break;
  }
  async function* all() {
    yield* taken;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }
  return { head: Buffer.concat(taken).toString('utf8').replace(/^\uFEFF/, ''), stream: all() };
}

const fileError = (message: string) => new AppError('SVC-5006', { file: [message] });

export async function parseStatement(source: AsyncIterable<Buffer>, currencyDecimals: number): Promise<StatementRows & { delimiter: ',' | ';' }> {
  const { head, stream } = await peekHead(source);
  const delimiter = detectDelimiter(head);
  const out: StatementRows = { dates: [], amounts: [], descriptions: [], references: [], lines: [], errors: [], dateErrors: 0, dataRows: 0 };
  const parser = parse({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: 64 * 1024 });
  // Fed by hand rather than piped: a failing upload (the size limit) must fail the parser too.
  void (async () => {
    try {
      for await (const chunk of stream) {
        if (!parser.write(chunk)) await once(parser, 'drain');
      }
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is the line the record ends on; a quoted field with line breaks started earlier.
      let breaks = 0;
      for (const f of record) for (let i = f.indexOf('\n'); i !== -1; i = f.indexOf('\n', i + 1)) breaks++;
      const line = info.lines - breaks;
      if (first) {
        first = false;
        if (record.length < 3) throw fileError(`line ${line}: fewer than 3 columns (Date, Description, Amount, Reference)`);
        if (record[0].trim().toLowerCase() === 'date') continue;
      }
      out.dataRows++;
      const bad = (error: string) => out.errors.push({ line, error });
      if (record.length < 3 || record.length > 4) {
        bad(`expected 3 or 4 columns, found ${record.length}`);
        continue;
      }
      const [date, description, amount, reference = ''] = record.map((f) => f.trim());
      if (!validDate(date)) {
        out.dateErrors++;
        bad(`date "${date.slice(0, 40)}" is not an ISO date (YYYY-MM-DD)`);
        continue;
      }
      const value = normaliseAmount(amount, delimiter, currencyDecimals);
      if (value === null) {
        bad(`amount "${amount.slice(0, 40)}" is not a non-zero decimal with at most ${currencyDecimals} decimals`);
        continue;
      }
      if (description.length > MAX_DESCRIPTION) {
        bad(`description is longer than ${MAX_DESCRIPTION} characters`);
        continue;
      }
      if (reference.length > MAX_REFERENCE) {
        bad(`reference is longer than ${MAX_REFERENCE} characters`);
        continue;
      }
      if (description.includes('\0') || reference.includes('\0')) {
        bad('contains a NUL character');
        continue;
      }
      out.dates.push(date);
      out.amounts.push(value);
      out.descriptions.push(description);
      out.references.push(reference);
      out.lines.push(line);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; message?: string; lines?: number };
    // The size limit of the upload surfaces here, through the parser.
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('SVC-5007', { file: ['must be at most 5 MB'] });
    if (typeof e.code === 'string' && e.code.startsWith('CSV_')) throw fileError(`not a valid CSV file: ${e.message ?? e.code}`);
    throw err;
  }
  if (out.dataRows === 0) throw fileError('the file has no data rows');
  return { ...out, delimiter };
}

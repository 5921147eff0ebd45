import { type Options, Parser } from 'csv-parse';
import { AppError } from '../../lib/errors.js';
import { type Columns, columnsOf, localDate, POSITIONAL, requiredWidth } from './statement-columns.js';

/**
 * Bank statement CSV (A14): columns Date (YYYY-MM-DD), Description, Amount (signed), Reference
 * (optional). RFC 4180 quoting, UTF-8 with or without BOM, comma or semicolon delimiter detected
 * from the first line; an amount with a comma uses a decimal comma ("-1.234,56"). A first row that
 * names a date column is a header, and then columns are found by name, local bank exports' names
 * included (statement-columns.ts); dates may also be written 27.11.2026 or 27.11.2026. (issue 25). The upload is read first as raw bytes (at most
 * 5 MB, `readUpload`), then parsed as a stream: the parsed rows are never held whole, accepted
 * rows are handed on in batches (compact column arrays) while the rest is still being parsed.
 */
export interface StatementBatch {
  /**
   * The batch's columns as PostgreSQL array literals in UTF-8 bytes ("{2026-01-31,...}"), written
   * as each row is accepted (ArrayLiteral): the row's strings die young instead of being held, and
   * promoted to the old generation, until the batch's INSERT returns, and the driver does not
   * rebuild them into literals again. Dates and amounts are validated and normalised, occurrences
   * are the n-th occurrence of the row's (date, amount, description, reference) in the file.
   */
  dates: Buffer;
  /** Normalised decimal strings ("-1234.56"). */
  amounts: Buffer;
  descriptions: Buffer;
  references: Buffer;
  occurrences: Buffer;
}

/**
 * A PostgreSQL array literal built into a growing byte buffer. Written by hand: no library writes
 * array literals into bytes, and the format needs only quoting (element in double quotes,
 * backslash before a double quote or backslash) for text and nothing for the validated dates,
 * amounts and counts.
 */
class ArrayLiteral {
  private buf: Buffer;
  private len = 1;
  /** `size`: the bytes expected (the previous batch's), so a batch's buffer is allocated once. */
  constructor(size = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
    this.buf[0] = 0x7b; // {
  }
  get size() {
    return this.len + 1;
  }
  private room(bytes: number) {
    if (this.len + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + bytes));
    this.buf.copy(grown, 0, 0, this.len);
    this.buf = grown;
  }
  /** An ASCII element that needs no quoting (a date, a normalised amount, a count). */
  plain(value: string) {
    this.room(value.length + 1);
    if (this.len > 1) this.buf[this.len++] = 0x2c; // ,
    this.len += this.buf.write(value, this.len, 'latin1');
  }
  text(value: string) {
    const escaped = value.includes('"') || value.includes('\\') ? value.replace(/["\\]/g, '\\$&') : value;
    this.room(escaped.length * 3 + 3);
    if (this.len > 1) this.buf[this.len++] = 0x2c;
    this.buf[this.len++] = 0x22; // "
    this.len += this.buf.write(escaped, this.len, 'utf8');
    this.buf[this.len++] = 0x22;
  }
  finish(): Buffer {
    this.room(1);
    this.buf[this.len++] = 0x7d; // }
    return this.buf.subarray(0, this.len);
  }
}

/**
 * The n-th occurrence rule (A14) over a whole file: how many accepted rows so far had this row's
 * (date, amount, description, reference). Exact, and compact: the keys are kept as UTF-8 bytes in
 * one growing buffer, found through an open-addressing table of 32-bit FNV-1a hashes with a chain
 * per hash, and compared byte for byte, so no per-row string or Map entry lives for the length of
 * the import (a Map of key strings was most of what an 80,000-row import promoted to the old
 * generation: about 25 MB, measured with V8's sampling heap profiler). Written by hand because no
 * library offers a byte-keyed multiset; it is small and its only job is this count.
 */
export class OccurrenceCounter {
  private keys: Buffer;
  private keysEnd = 0;
  private starts = new Uint32Array(1024);
  private ends = new Uint32Array(1024);
  private counts = new Uint32Array(1024);
  /** The previous row with the same hash (-1: none), newest first from the table. */
  private chain = new Int32Array(1024);
  private hashes = new Uint32Array(1024);
  private table = new Int32Array(2048).fill(-1);
  private rows = 0;

  /** `bytes`: the file's size, which the keys (its fields, trimmed, without quoting) do not exceed. */
  constructor(bytes = 64 * 1024) {
    this.keys = Buffer.allocUnsafe(Math.max(1024, bytes));
  }

  /** Counts the row in and answers its occurrence (1 for the first row with this key). */
  add(date: string, amount: string, description: string, reference: string): number {
    const start = this.keysEnd;
    this.room(date.length + amount.length + (description.length + reference.length) * 3 + 3);
    let end = start + this.keys.write(date, start, 'latin1');
    this.keys[end++] = 0;
    end += this.keys.write(amount, end, 'latin1');
    this.keys[end++] = 0;
    end += this.keys.write(description, end, 'utf8');
    this.keys[end++] = 0;
    end += this.keys.write(reference, end, 'utf8');
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ this.keys[i], 0x01000193);
    hash >>>= 0;
    if (this.rows === this.starts.length) this.growRows();
    if (this.rows * 2 >= this.table.length) this.growTable();
    const mask = this.table.length - 1;
    let slot = hash & mask;
    while (this.table[slot] !== -1 && this.hashes[this.table[slot]] !== hash) slot = (slot + 1) & mask;
    let count = 1;
    for (let j = this.table[slot]; j !== -1; j = this.chain[j]) {
      if (
        this.ends[j] - this.starts[j] === end - start &&
        this.keys.compare(this.keys, start, end, this.starts[j], this.ends[j]) === 0
      ) {
        count = this.counts[j] + 1;
        break;
      }
    }
    const row = this.rows++;
    this.starts[row] = start;
    this.ends[row] = end;
    this.counts[row] = count;
    this.hashes[row] = hash;
    this.chain[row] = this.table[slot];
    this.table[slot] = row;
    this.keysEnd = end;
    return count;
  }

  private room(bytes: number) {
    if (this.keysEnd + bytes <= this.keys.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.keys.length * 2, this.keysEnd + bytes));
    this.keys.copy(grown, 0, 0, this.keysEnd);
    this.keys = grown;
  }

  private growRows() {
    const grow = <T extends Uint32Array | Int32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
    this.counts = grow(this.counts);
    this.chain = grow(this.chain);
    this.hashes = grow(this.hashes);
  }

  /** Doubles the table and re-inserts each hash's newest row (the chains stay as they are). */
  private growTable() {
    const old = this.table;
    this.table = new Int32Array(old.length * 2).fill(-1);
    const mask = this.table.length - 1;
    for (const head of old) {
      if (head === -1) continue;
      let slot = this.hashes[head] & mask;
      while (this.table[slot] !== -1) slot = (slot + 1) & mask;
      this.table[slot] = head;
    }
  }
}

class BatchWriter {
  rows = 0;
  private dates: ArrayLiteral;
  private amounts: ArrayLiteral;
  private descriptions: ArrayLiteral;
  private references: ArrayLiteral;
  private occurrences: ArrayLiteral;
  /** Sized like `previous` (full batches are alike), so the buffers rarely grow. */
  constructor(previous?: BatchWriter) {
    const size = (a?: ArrayLiteral) => (a ? a.size + (a.size >> 3) : undefined);
    this.dates = new ArrayLiteral(size(previous?.dates));
    this.amounts = new ArrayLiteral(size(previous?.amounts));
    this.descriptions = new ArrayLiteral(size(previous?.descriptions));
    this.references = new ArrayLiteral(size(previous?.references));
    this.occurrences = new ArrayLiteral(size(previous?.occurrences));
  }
  add(date: string, amount: string, description: string, reference: string, occurrence: number) {
    this.dates.plain(date);
    this.amounts.plain(amount);
    this.descriptions.text(description);
    this.references.text(reference);
    this.occurrences.plain(String(occurrence));
    this.rows++;
  }
  finish(): StatementBatch {
    return {
      dates: this.dates.finish(),
      amounts: this.amounts.finish(),
      descriptions: this.descriptions.finish(),
      references: this.references.finish(),
      occurrences: this.occurrences.finish(),
    };
  }
}

/** What the whole file came to, known once it has been read to the end. */
export interface StatementSummary {
  /** Physical line (header = 1) where each refused row starts, for messages. */
  errors: Array<{ line: number; error: string }>;
  /** Rows refused for their date: with every row refused, the file is answered SVC-5008. */
  dateErrors: number;
  dataRows: number;
  accepted: number;
  delimiter: ',' | ';';
}

const MAX_DESCRIPTION = 500;
const MAX_REFERENCE = 200;
const HEAD_BYTES = 64 * 1024;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ZERO = /^[+-]?0*(?:[.,]0*)?$/;
const DOT_DECIMAL = /^[+-]?\d{1,15}(\.\d+)?$/;
const COMMA_DECIMAL = /^[+-]?(\d{1,3}(\.\d{3})+|\d{1,15})(,\d+)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date (Gregorian) from the year 100 on, as JavaScript's Date reads it; arithmetic, no Date per row. */
function validDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/**
 * The amount as a plain decimal string, or null. A comma is a decimal comma, with optional dot (or
 * space) thousands separators ("-1.234,56", "1 234,56"): with the comma delimiter such a field is
 * quoted. Otherwise a plain decimal ("-1234.56", an optional "+").
 */
export function normaliseAmount(raw: string, decimals: number): string | null {
  let s = raw.trim();
  if (s.includes(' ') || s.includes('\u00a0')) s = s.replace(/(\d)[ \u00a0](?=\d{3}(?:\D|$))/g, '$1');
  let plain: string;
  if (s.includes(',')) {
    if (!COMMA_DECIMAL.test(s)) return null;
    plain = s.replace(/\./g, '').replace(',', '.');
  } else {
    if (!DOT_DECIMAL.test(s)) return null;
    plain = s;
  }
  // plain is now [+-]digits[.digits]: sign, integer part without leading zeros, fraction without trailing ones.
  let start = 0;
  let sign = '';
  if (plain[0] === '+' || plain[0] === '-') {
    sign = plain[0] === '-' ? '-' : '';
    start = 1;
  }
  const dot = plain.indexOf('.');
  const intEnd = dot === -1 ? plain.length : dot;
  let fracEnd = plain.length;
  if (dot !== -1) while (fracEnd > dot + 1 && plain.charCodeAt(fracEnd - 1) === 48) fracEnd--;
  const frac = dot === -1 ? '' : plain.slice(dot + 1, fracEnd);
  if (frac.length > decimals) return null;
  while (start < intEnd - 1 && plain.charCodeAt(start) === 48) start++;
  const int = plain.slice(start, intEnd);
  if (int === '0' && frac === '') return null; // zero moves no money
  return frac ? `${sign}${int}.${frac}` : `${sign}${int}`;
}

/** A refused amount's message. */
const badAmount = (raw: string, decimals: number) =>
  `amount "${raw.trim().slice(0, 40)}" is not a non-zero decimal with at most ${decimals} decimals`;

/**
 * The row's signed amount: its amount column, or, when the statement splits them, money in as a
 * positive and money out as a negative amount (one of the two filled, the other empty or zero;
 * either may carry a sign, only its size counts).
 */
function rowAmount(record: string[], c: Columns, decimals: number): string | { error: string } {
  if (c.amount !== -1)
    return normaliseAmount(record[c.amount], decimals) ?? { error: badAmount(record[c.amount], decimals) };
  const out = record[c.debit] ?? '';
  const into = record[c.credit] ?? '';
  const outZero = ZERO.test(out.trim());
  const inZero = ZERO.test(into.trim());
  if (outZero && inZero) return { error: 'no amount: both money out and money in are empty or zero' };
  if (!outZero && !inZero) return { error: 'both money out and money in carry an amount' };
  const raw = outZero ? into : out;
  const value = normaliseAmount(raw, decimals);
  if (value === null) return { error: badAmount(raw, decimals) };
  const magnitude = value.startsWith('-') ? value.slice(1) : value;
  return outZero ? magnitude : `-${magnitude}`;
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
  return {
    head: Buffer.concat(taken)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
    stream: all(),
  };
}

const fileError = (message: string) => new AppError('SVC-5006', { file: [message] });

/**
 * The whole upload as raw chunks (at most the size limit, 5 MB), so that a file over the limit
 * (413) is refused before any database work and no connection is held while the client uploads.
 * Raw bytes are a fraction of the memory of parsed rows (an 80,000-row file is 4.8 MB of bytes).
 */
export async function readUpload(source: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of source) chunks.push(chunk);
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('SVC-5007', { file: ['must be at most 5 MB'] });
    throw err;
  }
  return chunks;
}

/** Hands the chunks on and lets go of each once it is handed on (the parsed bytes can be freed). */
export async function* drain(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (let c = chunks.shift(); c !== undefined; c = chunks.shift()) yield c;
}

interface ParsedRecord {
  record: string[];
  endLine: number;
}

/**
 * csv-parse's Parser, each record paired with the line it ends on (`info.lines` at the moment the
 * record is pushed). The same number as the `info: true` option gives, without that option's
 * per-record copy of the whole info object, which cost more than the parsing itself.
 */
class LineParser extends Parser {
  constructor(options: Options) {
    super(options);
  }
  override push(record: unknown): boolean {
    return super.push(
      record === null ? null : ({ record: record as string[], endLine: this.info.lines } satisfies ParsedRecord),
    );
  }
}

/**
 * Yields the accepted rows in batches of `batchSize` (the last one shorter, none empty) and returns
 * the summary. Whole-file errors (broken quoting, a first record with fewer than 3 columns, no data
 * rows, the size limit) are thrown, possibly after some batches have been yielded: the caller
 * writes the batches in one transaction, so a throw leaves nothing behind. The parser waits while
 * the caller works on a batch (back-pressure), so at most about one batch is held.
 */
export async function* statementBatches(
  source: AsyncIterable<Buffer>,
  currencyDecimals: number,
  batchSize: number,
  fileBytes?: number,
): AsyncGenerator<StatementBatch, StatementSummary, undefined> {
  const { head, stream } = await peekHead(source);
  const delimiter = detectDelimiter(head);
  const summary: StatementSummary = { errors: [], dateErrors: 0, dataRows: 0, accepted: 0, delimiter };
  let batch = new BatchWriter();
  const occurrences = new OccurrenceCounter(fileBytes);
  const parser = new LineParser({
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: 64 * 1024,
  });
  // Fed by hand rather than piped: a failing upload (the size limit) must fail the parser too.
  // Stops feeding when the parser is destroyed (the caller gave up, e.g. on a database error).
  const drainedOrClosed = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        parser.off('drain', done);
        parser.off('close', done);
        resolve();
      };
      parser.on('drain', done);
      parser.on('close', done);
    });
  void (async () => {
    try {
      for await (const chunk of stream) {
        if (parser.destroyed) return;
        if (!parser.write(chunk)) await drainedOrClosed();
      }
      if (!parser.destroyed) parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  const bad = (line: number, error: string) => summary.errors.push({ line, error });
  let first = true;
  let columns: Columns = POSITIONAL;
  let width = 3;
  try {
    for await (const { record, endLine } of parser as AsyncIterable<ParsedRecord>) {
      // endLine is the line the record ends on; a quoted field with line breaks started earlier.
      let breaks = 0;
      for (const f of record) for (let i = f.indexOf('\n'); i !== -1; i = f.indexOf('\n', i + 1)) breaks++;
      const line = endLine - breaks;
      if (first) {
        first = false;
        if (record.length < 3)
          throw fileError(`line ${line}: fewer than 3 columns (Date, Description, Amount, Reference)`);
        const named = columnsOf(record);
        if (named && 'error' in named) throw fileError(`line ${line}: ${named.error}`);
        if (named) {
          columns = named;
          width = requiredWidth(named);
          continue;
        }
      }
      summary.dataRows++;
      if (columns.header ? record.length < width : record.length < 3 || record.length > 4) {
        if (columns.header) bad(line, `expected at least ${width} columns, found ${record.length}`);
        else bad(line, `expected 3 or 4 columns, found ${record.length}`);
        continue;
      }
      const rawDate = record[columns.date].trim();
      const description = record[columns.description].trim();
      const reference = record[columns.reference]?.trim() ?? '';
      const date = validDate(rawDate) ? rawDate : localDate(rawDate);
      if (date === null || !validDate(date)) {
        summary.dateErrors++;
        bad(line, `date "${rawDate.slice(0, 40)}" is not a date (YYYY-MM-DD or DD.MM.YYYY)`);
        continue;
      }
      const value = rowAmount(record, columns, currencyDecimals);
      if (typeof value !== 'string') {
        bad(line, value.error);
        continue;
      }
      if (description.length > MAX_DESCRIPTION) {
        bad(line, `description is longer than ${MAX_DESCRIPTION} characters`);
        continue;
      }
      if (reference.length > MAX_REFERENCE) {
        bad(line, `reference is longer than ${MAX_REFERENCE} characters`);
        continue;
      }
      if (description.includes('\0') || reference.includes('\0')) {
        bad(line, 'contains a NUL character');
        continue;
      }
      batch.add(date, value, description, reference, occurrences.add(date, value, description, reference));
      summary.accepted++;
      if (batch.rows === batchSize) {
        const full = batch.finish();
        batch = new BatchWriter(batch);
        yield full;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; message?: string; lines?: number };
    // The size limit of the upload surfaces here, through the parser.
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('SVC-5007', { file: ['must be at most 5 MB'] });
    if (typeof e.code === 'string' && e.code.startsWith('CSV_'))
      throw fileError(`not a valid CSV file: ${e.message ?? e.code}`);
    throw err;
  } finally {
    // Reached early when the caller stops (return or throw): stop the parser, and with it the feeding.
    if (!parser.destroyed) parser.destroy();
  }
  if (summary.dataRows === 0) throw fileError('the file has no data rows');
  if (batch.rows > 0) yield batch.finish();
  return summary;
}

import { stringify } from 'csv-stringify/sync';

/** What a spreadsheet may read as a formula at the start of a cell (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number: a spreadsheet reads it as a number, never as a formula, so it stays as it is. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * A cell a spreadsheet will show as text: one starting with =, +, -, @, tab or carriage return is
 * prefixed with a single quote (OWASP), unless it is a plain number such as an amount "-12.50".
 */
export function neutraliseCsvCell(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/**
 * Every CSV the services write (issue 33 item 5): RFC 4180 (comma, CRLF, quotes where needed),
 * UTF-8, each cell neutralised against formula injection. Records shorter than the widest are
 * padded with empty cells.
 */
export function writeCsv(records: readonly (readonly string[])[]): Buffer {
  const width = Math.max(0, ...records.map((r) => r.length));
  const rows = records.map((r) => {
    const row = r.map(neutraliseCsvCell);
    while (row.length < width) row.push('');
    return row;
  });
  return Buffer.from(stringify(rows, { record_delimiter: 'windows' }), 'utf8');
}

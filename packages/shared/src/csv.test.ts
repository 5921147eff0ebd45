import { describe, expect, it } from 'vitest';
import { neutraliseCsvCell, writeCsv } from './csv.js';

describe('writeCsv (issue 33 item 5)', () => {
  it('prefixes cells starting with =, +, -, @, tab or CR with a quote, and leaves plain numbers alone', () => {
    for (const cell of ['=1+1', '+A1', '-A1', '@SUM(A1)', '\tx', '\rx', '-1+2', '=HYPERLINK("x")'])
      expect(neutraliseCsvCell(cell)).toBe(`'${cell}`);
    for (const cell of ['-12.50', '+3', '0.00', 'ACME d.o.o.', '', "'=already"])
      expect(neutraliseCsvCell(cell)).toBe(cell);
  });

  it('writes RFC 4180 with CRLF and pads short records', () => {
    expect(writeCsv([['a', 'b,c'], ['=x']]).toString()).toBe('a,"b,c"\r\n\'=x,\r\n');
  });
});

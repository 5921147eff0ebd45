import { writeCsv } from '@app/shared/csv';
import type { ReportDocument } from './report-document.js';

/**
 * A report as RFC 4180 CSV (UTF-8, comma, CRLF): one record per row, the block's title first so
 * every record says which part of the report it belongs to. A header record opens the file and
 * is repeated only where a block's columns differ from the previous block's (the dashboard).
 * Amounts are the JSON's decimal strings ('.' as decimal point), dates ISO. Text a spreadsheet
 * would run as a formula (a contact named =HYPERLINK(...)) is written as text (shared writeCsv).
 */
export function renderReportCsv(report: ReportDocument): Buffer {
  const records: string[][] = [];
  let previous = '';
  for (const block of report.blocks) {
    const header = ['section', ...block.columns.map((c) => c.label)];
    if (header.join('\u0000') !== previous) records.push(header);
    previous = header.join('\u0000');
    for (const row of block.rows) records.push([block.title, ...row.cells]);
  }
  return writeCsv(records);
}

import { numberPages, PAGE, pdfDocument } from '@app/shared/pdf';
import { formatDate, formatNumber, labelsFor } from './pdf-labels.js';
import { reportLabelsFor } from './report-labels.js';
import type { TableDocument } from './table-document.js';

/**
 * Renders a report (any `TableDocument`) as an A4 PDF with the invoice's look (same fonts, title block, grey table
 * headers, thin row rules, page numbers) in the organization's language.
 */
export async function renderReportPdf(
  report: TableDocument,
  organizationName: string,
  language: string,
): Promise<Buffer> {
  const { lang } = labelsFor(language);
  const labels = reportLabelsFor(lang);
  const { doc, done } = await pdfDocument({
    bufferPages: true,
    info: { Title: report.title, Author: organizationName },
  });

  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const width = right - left;
  const bottom = PAGE.height - PAGE.margin - 20;
  const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  const show = (v: string, kind: string) => {
    if (v === '') return '';
    if (kind !== 'text') return formatNumber(v, (v.split('.')[1] ?? '').length, lang);
    return v.replace(/\d{4}-\d{2}-\d{2}/g, (d) => (isDate(d) ? formatDate(d, lang) : d));
  };

  // Title block: report name and organization on the left, period and currency on the right.
  doc
    .font('bold')
    .fontSize(20)
    .text(report.title, left, PAGE.margin, { width: width * 0.6 });
  doc
    .font('regular')
    .fontSize(11)
    .text(organizationName, left, doc.y + 2, { width: width * 0.6 });
  report.meta.forEach(([k, v], i) => {
    doc
      .font('regular')
      .fontSize(10)
      .text(`${k}: ${show(v, 'text')}`, left + width * 0.45, PAGE.margin + 6 + i * 15, {
        width: width * 0.55,
        align: 'right',
      });
  });
  let y = Math.max(doc.y, PAGE.margin + 6 + report.meta.length * 15) + 24;

  const newPageIfNeeded = (needed: number) => {
    if (y + needed <= bottom) return false;
    doc.addPage();
    y = PAGE.margin;
    return true;
  };

  for (const block of report.blocks) {
    const total = block.columns.reduce((a, c) => a + c.width, 0);
    const widths = block.columns.map((c) => (c.width / total) * width);
    const header = () => {
      doc.rect(left, y, width, 20).fill('#eeeeee').fillColor('black');
      let x = left;
      doc.font('bold');
      block.columns.forEach((c, i) => {
        // A label wider than its column is set smaller, never wrapped onto the first row.
        doc.fontSize(9);
        const fits = (widths[i] - 8) / Math.max(1, doc.widthOfString(c.label));
        doc.fontSize(fits < 1 ? Math.max(6, Math.floor(9 * fits * 10) / 10) : 9);
        doc.text(c.label, x + 4, y + 6, {
          width: widths[i] - 8,
          align: c.kind === 'text' ? 'left' : 'right',
          lineBreak: false,
        });
        x += widths[i];
      });
      y += 24;
    };
    newPageIfNeeded(60);
    doc.font('bold').fontSize(11).fillColor('#333333').text(block.title, left, y, { width });
    doc.fillColor('black');
    y = doc.y + 4;
    header();
    for (const row of block.rows) {
      const strong = row.role !== undefined;
      doc.font(strong ? 'bold' : 'regular').fontSize(row.role === 'grand' ? 10 : 9);
      const texts = row.cells.map((c, i) => show(c, block.columns[i]?.kind ?? 'text'));
      const h = Math.max(12, ...texts.map((t, i) => doc.heightOfString(t, { width: widths[i] - 8 })));
      if (newPageIfNeeded(h + 6)) {
        header();
        doc.font(strong ? 'bold' : 'regular').fontSize(row.role === 'grand' ? 10 : 9);
      }
      if (row.role === 'grand')
        doc
          .rect(left, y - 3, width, h + 6)
          .fill('#f5f5f5')
          .fillColor('black');
      let x = left;
      texts.forEach((t, i) => {
        doc.text(t, x + 4, y, { width: widths[i] - 8, align: block.columns[i]?.kind === 'text' ? 'left' : 'right' });
        x += widths[i];
      });
      y += h + 6;
      doc
        .moveTo(left, y - 3)
        .lineTo(right, y - 3)
        .lineWidth(0.3)
        .strokeColor('#cccccc')
        .stroke();
    }
    y += 14;
  }

  numberPages(doc, (page, count) => `${organizationName} · ${report.title} · ${labels.page} ${page}/${count}`);
  doc.end();
  return done;
}

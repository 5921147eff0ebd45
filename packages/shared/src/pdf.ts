import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * What every generated PDF of both services shares: DejaVu (Latin with č ć đ š ž æ ø å, and
 * Cyrillic; read once per process, pdfkit embeds only the glyphs used) registered as `regular`
 * and `bold`, the A4 page, and the document collected into one Buffer.
 */
const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/**
 * pdfkit and the fonts are loaded with the first document, not at start-up: together about 20 MB
 * of a service's resident memory that a process which never renders a PDF does not need.
 */
let loaded: Promise<{ PDFDocument: typeof import('pdfkit'); fonts: { regular: Buffer; bold: Buffer } }> | null = null;
function loadPdfkit() {
  loaded ??= Promise.all([
    import('pdfkit'),
    readFile(join(fontDir, 'DejaVuSans.ttf')),
    readFile(join(fontDir, 'DejaVuSans-Bold.ttf')),
  ]).then(([m, regular, bold]) => ({ PDFDocument: m.default, fonts: { regular, bold } }));
  // A failed load (a missing font file) is tried again by the next document.
  loaded.catch(() => (loaded = null));
  return loaded;
}

export const PAGE = { width: 595.28, height: 841.89, margin: 50 };

/** An A4 document with the fonts registered; `done` resolves with the bytes once `doc.end()` is called. */
export async function pdfDocument(
  options: PDFKit.PDFDocumentOptions = {},
): Promise<{ doc: PDFKit.PDFDocument; done: Promise<Buffer> }> {
  const { PDFDocument, fonts } = await loadPdfkit();
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, ...options });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/**
 * A centred grey footer on every buffered page (the document needs `bufferPages: true`), such as
 * `INV-7 · Page 1/2`: `footer` gets the page's number (from 1) and the page count.
 */
export function numberPages(doc: PDFKit.PDFDocument, footer: (page: number, count: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would otherwise start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor('#777777')
      .text(footer(i + 1, range.count), PAGE.margin, PAGE.height - PAGE.margin + 15, {
        width: PAGE.width - 2 * PAGE.margin,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';

/**
 * What every generated PDF of both services shares: DejaVu (Latin with č ć đ š ž æ ø å, and
 * Cyrillic; read once per process, pdfkit embeds only the glyphs used) registered as `regular`
 * and `bold`, the A4 page, and the document collected into one Buffer.
 */
const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONTS = {
  regular: readFileSync(join(fontDir, 'DejaVuSans.ttf')),
  bold: readFileSync(join(fontDir, 'DejaVuSans-Bold.ttf')),
};

export const PAGE = { width: 595.28, height: 841.89, margin: 50 };

/** An A4 document with the fonts registered; `done` resolves with the bytes once `doc.end()` is called. */
export function pdfDocument(options: PDFKit.PDFDocumentOptions = {}): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, ...options });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * What every generated document shares (invoice and report PDFs look alike): DejaVu, which covers
 * Latin with č ć đ š ž and Cyrillic (read once per process; pdfkit embeds only the glyphs used),
 * and the A4 page with its margins.
 */
const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const FONTS = {
  regular: readFileSync(join(fontDir, 'DejaVuSans.ttf')),
  bold: readFileSync(join(fontDir, 'DejaVuSans-Bold.ttf')),
};

export const PAGE = { width: 595.28, height: 841.89, margin: 50 };

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';

const run = promisify(execFile);

/**
 * PDFs are checked the way a reader sees them: rendered to PNG by poppler's pdftoppm (Debian's
 * poppler-utils, installed by .ci/run), then looked at: pixels and codes read back. Without the
 * binary, tests using this skip and say why.
 */
export async function popplerMissing(): Promise<string | null> {
  try {
    await run('pdftoppm', ['-v']);
    return null;
  } catch {
    return 'pdftoppm (Debian poppler-utils) is not installed; .ci/run installs it';
  }
}

async function withPdfFile<T>(pdf: Buffer, fn: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-render-'));
  try {
    const file = join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    return await fn(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Renders one page (1-based) at the given resolution and answers the decoded RGBA image. */
export function renderPage(pdf: Buffer, page = 1, dpi = 150): Promise<PNG> {
  return withPdfFile(pdf, async (file, dir) => {
    const out = join(dir, 'page');
    await run('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      out,
    ]);
    return PNG.sync.read(await readFile(`${out}.png`));
  });
}

/** Page count and the fonts pdffonts lists, with whether each is embedded. */
export function pdfFacts(pdf: Buffer): Promise<{ pages: number; fonts: { name: string; embedded: boolean }[] }> {
  return withPdfFile(pdf, async (file) => {
    const info = (await run('pdfinfo', [file])).stdout;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    // pdffonts: two header lines, then "name type encoding emb sub uni object ID" columns.
    const lines = (await run('pdffonts', [file])).stdout
      .split('\n')
      .slice(2)
      .filter((l) => l.trim());
    const fonts = lines.map((l) => {
      const cols = l.trim().split(/\s+/);
      // From the right: object id (2 columns), uni, sub, emb.
      return { name: cols[0], embedded: cols[cols.length - 5] === 'yes' };
    });
    return { pages, fonts };
  });
}

/** Share of pixels darker than mid-grey in a rectangle given as fractions of the page. */
export function inkShare(
  img: PNG,
  box: { x0: number; y0: number; x1: number; y1: number } = { x0: 0, y0: 0, x1: 1, y1: 1 },
): number {
  const [xa, xb] = [Math.floor(box.x0 * img.width), Math.floor(box.x1 * img.width)];
  const [ya, yb] = [Math.floor(box.y0 * img.height), Math.floor(box.y1 * img.height)];
  let dark = 0;
  for (let y = ya; y < yb; y++) {
    for (let x = xa; x < xb; x++) {
      const i = (y * img.width + x) * 4;
      if (img.data[i] + img.data[i + 1] + img.data[i + 2] < 3 * 128) dark++;
    }
  }
  return dark / Math.max(1, (xb - xa) * (yb - ya));
}

/** The text of one page (1-based) as poppler's pdftotext reads it, in reading order (`-layout` keeps columns). */
export function pdfText(pdf: Buffer, opts: { page?: number; layout?: boolean } = {}): Promise<string> {
  const page = String(opts.page ?? 1);
  return withPdfFile(pdf, async (file) => {
    const args = ['-enc', 'UTF-8', '-f', page, '-l', page, ...(opts.layout ? ['-layout'] : []), file, '-'];
    return (await run('pdftotext', args)).stdout;
  });
}

/** Every word of one page with its box in points from the top left, as pdftotext -bbox reads it. */
export function pdfWords(
  pdf: Buffer,
  page = 1,
): Promise<Array<{ text: string; xMin: number; yMin: number; xMax: number; yMax: number }>> {
  return withPdfFile(pdf, async (file) => {
    const html = (await run('pdftotext', ['-enc', 'UTF-8', '-bbox', '-f', String(page), '-l', String(page), file, '-']))
      .stdout;
    const decodeEntities = (s: string) =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    return [
      ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    ].map((m) => ({ text: decodeEntities(m[5]), xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4] }));
  });
}

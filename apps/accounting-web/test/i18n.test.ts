import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bsFull } from '../src/i18n/full/bs.js';
import { enFull } from '../src/i18n/full/en.js';
import { hrFull } from '../src/i18n/full/hr.js';
import { srFull } from '../src/i18n/full/sr.js';

const SRC = join(import.meta.dirname, '..', 'src');
/** Words that read the same in every language (product names, abbreviations). */
const SAME_IN_EVERY_LANGUAGE = new Set(['Ledgerline', 'PDF', 'Status', 'Administrator']);

/**
 * The screen areas' catalogs (src/i18n/areas/<area>.<lang>.ts) are spread into their language's base
 * catalog, which is loaded as one chunk per language; two areas, or an area and the base catalog's own
 * messages, may not define the same key (the later one would silently win).
 */
const AREAS = join(SRC, 'i18n', 'areas');
const areaFiles = existsSync(AREAS) ? readdirSync(AREAS).filter((f) => /^\w+\.(en|sr|bs|hr)\.ts$/.test(f)) : [];
const seen: Record<string, Map<string, string>> = { en: new Map(), sr: new Map(), bs: new Map(), hr: new Map() };
const collisions: string[] = [];
for (const file of areaFiles) {
  const lang = file.split('.')[1];
  const messages = Object.values(await import(join(AREAS, file)))[0] as Record<string, string>;
  for (const k of Object.keys(messages)) {
    if (seen[lang].has(k)) collisions.push(`${file} and ${seen[lang].get(k)}: ${k}`);
    seen[lang].set(k, file);
  }
}
const ownSource = (lang: string) => readFileSync(join(SRC, 'i18n', `${lang}.ts`), 'utf8');
for (const lang of Object.keys(seen))
  for (const [k, file] of seen[lang])
    if (ownSource(lang).includes(`'${k}':`)) collisions.push(`${file} and ${lang}.ts: ${k}`);
const catalogs = { sr: srFull, bs: bsFull, hr: hrFull } as Record<string, Record<string, string>>;
const all = enFull as Record<string, string>;

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.generated.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('message catalogs', () => {
  for (const [lang, catalog] of Object.entries(catalogs)) {
    it(`${lang} has every key, none empty, none left in English`, () => {
      const missing = Object.keys(all).filter((k) => !catalog[k]?.trim());
      expect(missing, `${lang} is missing`).toEqual([]);
      const extra = Object.keys(catalog).filter((k) => !(k in all));
      expect(extra, `${lang} has keys English lacks`).toEqual([]);
      const english = Object.entries(all)
        .filter(([k, v]) => catalog[k] === v && !SAME_IN_EVERY_LANGUAGE.has(v))
        .map(([k]) => k);
      expect(english, `${lang} still shows English`).toEqual([]);
    });
    it(`${lang} keeps each message's {placeholders}`, () => {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [k, v] of Object.entries(all)) expect(names(catalog[k]), `${lang} ${k}`).toEqual(names(v));
    });
  }

  it('screen areas add keys, never redefine a base catalog key', () => {
    expect(collisions).toEqual([]);
  });

  it('every key the screens use exists in the catalog', () => {
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9]+\.[a-zA-Z0-9.]+)'/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !(k in all))).toEqual([]);
  });
});

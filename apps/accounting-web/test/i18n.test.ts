import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bs } from '../src/i18n/bs.js';
import { en } from '../src/i18n/en.js';
import { hr } from '../src/i18n/hr.js';
import { sr } from '../src/i18n/sr.js';

const SRC = join(import.meta.dirname, '..', 'src');
/** Words that read the same in every language (product names, abbreviations). */
const SAME_IN_EVERY_LANGUAGE = new Set(['Ledgerline', 'PDF', 'Status', 'Administrator']);

/**
 * The screen areas' catalogs (src/i18n/areas/<area>.<lang>.ts, added at run time by addMessages when
 * their screens load) are walked with the base ones; an area may not redefine a base key.
 */
const AREAS = join(SRC, 'i18n', 'areas');
const areaFiles = existsSync(AREAS) ? readdirSync(AREAS).filter((f) => /^\w+\.(en|sr|bs|hr)\.ts$/.test(f)) : [];
const base = { en, sr, bs, hr } as Record<string, Record<string, string>>;
const merged: Record<string, Record<string, string>> = { en: { ...en }, sr: { ...sr }, bs: { ...bs }, hr: { ...hr } };
const collisions: string[] = [];
for (const file of areaFiles) {
  const lang = file.split('.')[1];
  const messages = Object.values(await import(join(AREAS, file)))[0] as Record<string, string>;
  collisions.push(
    ...Object.keys(messages)
      .filter((k) => k in base[lang])
      .map((k) => `${file}: ${k}`),
  );
  Object.assign(merged[lang], messages);
}
const catalogs = { sr: merged.sr, bs: merged.bs, hr: merged.hr };
const all = merged.en;

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

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bs } from '../src/i18n/bs.js';
import { en } from '../src/i18n/en.js';
import { nb } from '../src/i18n/nb.js';
import { pl } from '../src/i18n/pl.js';
import { tr } from '../src/i18n/tr.js';
import { ur } from '../src/i18n/ur.js';

const SRC = join(import.meta.dirname, '..', 'src');
/** Words that read the same in some languages as in English (product name, country names, loan words). */
const SAME_AS_ENGLISH = new Set([
  'Ledgerline Send',
  'IBAN',
  'Pakistan',
  'Serbia',
  'Type',
  'Status',
  'Period',
  'Menu',
  'Türkiye',
]);

const catalogs = { nb, pl, tr, bs, ur } as Record<string, Record<string, string>>;

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.generated.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('message catalogs', () => {
  for (const [lang, catalog] of Object.entries(catalogs)) {
    it(`${lang} has every key, none empty, none left in English`, () => {
      const missing = Object.keys(en).filter((k) => !catalog[k]?.trim());
      expect(missing, `${lang} is missing`).toEqual([]);
      const extra = Object.keys(catalog).filter((k) => !(k in en));
      expect(extra, `${lang} has keys English lacks`).toEqual([]);
      const english = Object.entries(en)
        .filter(([k, v]) => catalog[k] === v && !SAME_AS_ENGLISH.has(v))
        .map(([k]) => k);
      expect(english, `${lang} still shows English`).toEqual([]);
    });
    it(`${lang} keeps each message's {placeholders}`, () => {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [k, v] of Object.entries(en)) expect(names(catalog[k]), `${lang} ${k}`).toEqual(names(v));
    });
  }

  it('Urdu is written in Arabic script (not a copy of another catalog)', () => {
    const arabic = Object.values(ur).filter((v) => /[\u0600-\u06ff]/.test(v)).length;
    expect(arabic / Object.keys(en).length).toBeGreaterThan(0.95);
  });

  it('every key the screens use exists in the catalog, dynamic families included', () => {
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9]+\.[a-zA-Z0-9._]+)'/g)) used.add(m[1]);
      for (const m of text.matchAll(/'((?:error|kyc|signIn\.fail|eta)\.[a-zA-Z]+)'/g)) used.add(m[1]);
    }
    // Keys built from API values: every value the API can send has its message.
    for (const s of ['processing', 'completed', 'failed']) used.add(`status.${s}`);
    for (const s of ['remittance', 'qr_payment']) used.add(`type.${s}`);
    for (const s of ['pending', 'active', 'revoked', 'expired']) used.add(`consent.${s}`);
    for (const c of ['RS', 'BA', 'PL', 'PK', 'TR']) used.add(`country.${c}`);
    for (const c of ['previous', 'next', 'first', 'last']) used.add(`pager.${c}`);
    for (const c of ['transaction', 'service', 'fees', 'privacy', 'technical', 'other'])
      used.add(`complaintCategory.${c}`);
    for (const c of ['terms', 'privacy', 'marketing', 'cookies_analytics', 'cookies_marketing'])
      used.add(`consentType.${c}`);
    expect(used.size).toBeGreaterThan(150);
    expect([...used].filter((k) => !(k in en))).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { localizeDetail, localizeDetails } from './detail-messages.js';

describe('error detail messages (issue 25 item 6)', () => {
  it('are translated in sr, bs and hr, with the field keys kept English', () => {
    const details = { email: ['is required'], name: ['must not have more than 200 characters'] };
    expect(localizeDetails(details, 'sr')).toEqual({ email: ['je obavezno'], name: ['sme imati najviše 200 znakova'] });
    expect(localizeDetails(details, 'hr')).toEqual({
      email: ['je obavezno'],
      name: ['smije imati najviše 200 znakova'],
    });
    expect(localizeDetails(details, 'en')).toBe(details);
  });

  it('keep the variable part of a validator message', () => {
    expect(localizeDetail('must be one of: send, mark-paid, cancel', 'bs')).toBe(
      'mora biti jedno od: send, mark-paid, cancel',
    );
    expect(localizeDetail('must match format "uuid"', 'hr')).toBe('mora biti u formatu uuid');
  });

  it('translate the messages built with their values (tax rates, transitions, exchange rates)', () => {
    expect(
      localizeDetail("must be 0 or one of the organization's tax rates (GET /settings/tax-rates): 20, 10, 0", 'sr'),
    ).toBe('mora biti 0 ili jedna od poreskih stopa organizacije (GET /settings/tax-rates): 20, 10, 0');
    expect(localizeDetail("'approve' is not allowed when the expense is paid", 'hr')).toBe(
      "'approve' nije dopušteno kada je trošak paid",
    );
    expect(localizeDetail('no exchange rate from USD to RSD on or before 1990-01-01', 'bs')).toBe(
      'nema kursa USD u RSD na dan 1990-01-01 ili ranije',
    );
    expect(localizeDetail('malformed multipart body: Unexpected end of form', 'sr')).toBe(
      'neispravno multipart telo: neočekivan kraj obrasca',
    );
  });

  it('leave a message without a translation in English', () => {
    expect(localizeDetail('a message nobody listed', 'sr')).toBe('a message nobody listed');
    expect(localizeDetail('line 3: a message nobody listed', 'hr')).toBe('redak 3: a message nobody listed');
  });
});

// Every detail message the service writes itself is translated: the literals of `field: ['...']`
// and addDetail(details, field, '...') in src/, in any of the three quotes (a message with an
// apostrophe is written in double quotes) (template parts filled with a sample value). A new
// English-only detail fails here until it gets its sr, bs and hr text.
describe('every detail message written in src/', () => {
  const SRC = fileURLToPath(new URL('..', import.meta.url));
  // Arrays of strings that are not detail messages: route tags, auth roles, content types, secret
  // paths, sort keys, SQL conditions, requiresTwoFactor's value "true" (A17: a flag, not text), and
  // enum value lists (ALERT_TYPES).
  const NOT_DETAILS = /^\s*(tags|auth|consumes|secretPaths|requiresTwoFactor|\w*SORT\w*|\w*_TYPES|where)\s*$/;
  const SKIP_FILES = /(\.test\.ts|catalog\.ts|detail-messages\.ts|\.generated\.ts|operation-docs\.ts)$/;
  const LITERALS = [
    /([\w$]+|\[[^\]\n]+\]|'[^'\n]+'|`[^`\n]+`)\s*[:=]\s*\[\s*(['"`])((?:(?!\2)[^\n])*)\2,?\s*\]/g,
    /addDetail\([^,]+,\s*([^,]+),\s*(['"`])((?:(?!\2)[^\n])*)\2\s*\)/g,
    // p.add(code, field, '...'), missing.add(field, '...'), bad(['field', ]'...'), problems.push('...'), { error: '...' },
    // and the statement importer's bad(line, '...') and fileError('...')
    /((?:\bp|missing|this)\.add\((?:'SVC-\d+',\s*)?[^,()]+,|\bbad\((?:'\w+',|line,)?|problems\.push\(|error: |fileError\()\s*(['"`])((?:(?!\2)[^\n])*)\2/g,
  ];

  function detailLiterals(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const e of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts') || SKIP_FILES.test(e.name)) continue;
      const file = join(e.parentPath, e.name);
      const src = readFileSync(file, 'utf8');
      for (const re of LITERALS) {
        for (const m of src.matchAll(re)) {
          if (NOT_DETAILS.test(m[1])) continue;
          // A template's ${...} parts get a sample value of the shape they carry (tax-ids.ts's
          // label: one of its two texts; the HR one is checked over HTTP in test/localized-details).
          const text = m[3].replace(/\$\{[^}]*\}/g, (part) => {
            if (/slice\(0, 4\)/.test(part)) return '2026';
            // the statement importer: a line number, a header error, the CSV parser's own words
            if (/^\$\{line\}$/.test(part)) return '3';
            if (/named\.error/.test(part))
              return 'the header row names no column for a description (Description, Opis, Svrha ...)';
            if (/e\.message/.test(part)) return 'Invalid Closing Quote';
            if (/profile/.test(part)) return 'PIB';
            if (/missing\.join/.test(part)) return 'date and amount';
            if (/why/.test(part)) return 'for a CIUS-HR e-invoice';
            if (/label/.test(part))
              return 'a valid Serbian PIB (9 digits with a correct check digit, "RS" prefix optional)';
            return /join|LIMITS|MAX_|decimals|Decimals|width|\.length/.test(part) ? '12' : 'X1';
          });
          out.push([`${relative(SRC, file)}: ${m[3]}`, text]);
        }
      }
    }
    return out;
  }

  it('are found (the scan itself works)', () => {
    const found = detailLiterals().map(([, text]) => text);
    expect(found).toContain('must not be blank');
    expect(found).toContain('is not an active customer');
    expect(found.length).toBeGreaterThan(60);
  });

  it('have a text in sr, bs and hr', () => {
    const english = detailLiterals().filter(([, text]) =>
      (['sr', 'bs', 'hr'] as const).some((lang) => localizeDetail(text, lang) === text),
    );
    expect(english.map(([where]) => where)).toEqual([]);
  });
});

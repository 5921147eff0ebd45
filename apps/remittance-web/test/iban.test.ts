import { isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { type COUNTRIES, isValidIban } from '../src/lib/iban.js';

// The form's IBAN check must agree with the service's (ibantools, R10) so a field the page accepts
// is never refused by the API and the other way round.
const SAMPLES = [
  'RS35260005601001611379',
  'BA391290079401028494',
  'PL61109010140000071219812874',
  'PK36SCBL0000001123456702',
  'TR330006100519786457841326',
];

describe('IBAN check', () => {
  it('accepts each corridor country’s valid IBAN, with spaces and in lower case', () => {
    for (const iban of SAMPLES) {
      const country = iban.slice(0, 2) as (typeof COUNTRIES)[number];
      expect(isValidIban(iban, country), iban).toBe(true);
      expect(isValidIban(iban.toLowerCase().replace(/(.{4})/g, '$1 '), country), iban).toBe(true);
    }
  });
  it('agrees with ibantools on every single-digit change of the samples', () => {
    for (const iban of SAMPLES) {
      const country = iban.slice(0, 2) as (typeof COUNTRIES)[number];
      for (let i = 2; i < iban.length; i++) {
        if (!/\d/.test(iban[i])) continue;
        const changed = iban.slice(0, i) + String((Number(iban[i]) + 3) % 10) + iban.slice(i + 1);
        expect(isValidIban(changed, country), changed).toBe(isValidIBAN(changed));
      }
    }
  });
  it('refuses an IBAN of another country than the recipient’s', () => {
    expect(isValidIban(SAMPLES[0], 'BA')).toBe(false);
  });
});

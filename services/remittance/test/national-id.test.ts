import { idnr } from '@navikt/fnrvalidator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageOn, centuryOf, parseNationalId, withCheckDigits } from '../src/lib/national-id.js';

const strict = { allowSynthetic: false };
const mock = { allowSynthetic: true };

describe('national id (R5)', () => {
  it('accepts valid birth numbers and derives the birth date from the century table', () => {
    expect(parseNationalId('13097248022', strict)).toEqual({ ok: true, kind: 'fnr', birthDate: '1972-09-13' }); // 000-499
    expect(parseNationalId('29020075838', strict)).toEqual({ ok: true, kind: 'fnr', birthDate: '2000-02-29' }); // 500-999, YY <= 39
    expect(parseNationalId('30108299920', strict)).toEqual({ ok: true, kind: 'fnr', birthDate: '1982-10-30' }); // 900-999, YY >= 40
  });

  it('places individual numbers 500-749 with YY >= 54 in the 1800s', () => {
    const n = withCheckDigits('150560600')!;
    expect(idnr(n).status).toBe('valid');
    expect(parseNationalId(n, strict)).toEqual({ ok: true, kind: 'fnr', birthDate: '1860-05-15' });
  });

  it('refuses a number whose individual number fits no century', () => {
    const n = withCheckDigits('010160800')!; // 750-899 with YY >= 40
    expect(n).not.toBeNull();
    expect(parseNationalId(n, strict)).toEqual({ ok: false, reason: 'date' });
  });

  it('refuses wrong check digits', () => {
    expect(parseNationalId('13097248032', strict)).toEqual({ ok: false, reason: 'checksum' });
    expect(parseNationalId('13097248023', strict)).toEqual({ ok: false, reason: 'checksum' });
    expect(parseNationalId('02013299987', strict)).toEqual({ ok: false, reason: 'checksum' });
    expect(parseNationalId('02013299996', strict)).toEqual({ ok: false, reason: 'checksum' });
  });

  it('refuses impossible dates, including 29 February 1900 which the checksum alone cannot catch', () => {
    expect(parseNationalId('32127248022', strict).ok).toBe(false);
    const feb29of1900 = withCheckDigits('290200123')!;
    expect(idnr(feb29of1900).status).toBe('valid'); // the package checks day and month only
    expect(parseNationalId(feb29of1900, strict)).toEqual({ ok: false, reason: 'date' });
  });

  it('refuses malformed input', () => {
    for (const v of ['', '1309724802', '130972480222', '1309724802a', ' 13097248022']) {
      expect(parseNationalId(v, strict)).toEqual({ ok: false, reason: 'format' });
    }
  });

  it('accepts the first check digits allowed for numbers issued from 2032 (remainders 1-3)', () => {
    expect(parseNationalId('02013299997', strict)).toEqual({ ok: true, kind: 'fnr', birthDate: '2032-01-02' });
    expect(parseNationalId('30108299939', strict)).toEqual({ ok: true, kind: 'fnr', birthDate: '1982-10-30' }); // remainder 1
    for (const remainder of [1, 2, 3]) {
      const n = withCheckDigits('150585123', remainder);
      if (n) expect(parseNationalId(n, strict)).toMatchObject({ ok: true, birthDate: '1985-05-15' });
    }
  });

  it('accepts D-numbers (day + 40)', () => {
    expect(parseNationalId('53097248016', strict)).toEqual({ ok: true, kind: 'dnr', birthDate: '1972-09-13' });
    expect(parseNationalId('70108299914', strict)).toEqual({ ok: true, kind: 'dnr', birthDate: '1982-10-30' });
  });

  it('accepts synthetic test numbers (month + 80) only when allowed (mock provider)', () => {
    expect(parseNationalId('10915596784', strict)).toEqual({ ok: false, reason: 'kind' });
    expect(parseNationalId('10915596784', mock)).toEqual({ ok: true, kind: 'synthetic', birthDate: '1955-11-10' });
    expect(parseNationalId('50846202355', mock)).toMatchObject({ ok: true, kind: 'synthetic' }); // D-number and synthetic
  });

  it('refuses H-numbers (month + 40): they identify no person', () => {
    expect(parseNationalId('13527248013', mock)).toEqual({ ok: false, reason: 'kind' });
  });

  it('agrees with @navikt/fnrvalidator on generated numbers and recovers their birth dates', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2039-12-31'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        (date, individual) => {
          const yy = date.getUTCFullYear() % 100;
          const century = centuryOf(individual, yy);
          fc.pre(century === Math.floor(date.getUTCFullYear() / 100) * 100);
          const iso = date.toISOString().slice(0, 10);
          const nine = `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(2, 4)}${String(individual).padStart(3, '0')}`;
          const n = withCheckDigits(nine);
          fc.pre(n !== null);
          expect(idnr(n!).status).toBe('valid');
          expect(parseNationalId(n!, strict)).toEqual({ ok: true, kind: 'fnr', birthDate: iso });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts age on the login date', () => {
    const today = new Date('2026-11-21T12:00:00Z');
    expect(ageOn('2008-11-21', today)).toBe(18);
    expect(ageOn('2008-11-22', today)).toBe(17);
    expect(ageOn('1985-05-15', today)).toBe(41);
  });
});

import { createHash, createHmac } from 'node:crypto';
import { idnr } from '@navikt/fnrvalidator';

/**
 * Norwegian national identity numbers (R5): DDMMYY + individual number (3 digits) + two mod-11
 * check digits. D-numbers add 40 to the day; synthetic Test Norge numbers add 80 to the month
 * and are accepted only when the caller allows them (mock provider). H-numbers (month + 40) are
 * auxiliary health-service numbers, not identities, and are refused.
 *
 * Check digits follow Skatteetaten's rule for numbers issued from 2032: the first check digit
 * may be any of the values that leave a remainder of 0, 1, 2 or 3 (so existing numbers, remainder
 * 0, stay valid); the second is computed as before over all ten preceding digits. The check-digit
 * arithmetic is @navikt/fnrvalidator's; the century comes from the individual-number table below,
 * because that package only checks day and month.
 */
export type NationalIdKind = 'fnr' | 'dnr' | 'synthetic';

export type NationalIdResult =
  | { ok: true; kind: NationalIdKind; birthDate: string }
  | { ok: false; reason: 'format' | 'checksum' | 'date' | 'kind' };

export function centuryOf(individual: number, yy: number): number | null {
  if (individual <= 499) return 1900;
  if (individual >= 900 && yy >= 40) return 1900;
  if (individual >= 500 && yy <= 39) return 2000;
  if (individual >= 500 && individual <= 749 && yy >= 54) return 1800;
  return null;
}

function isRealDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function parseNationalId(value: string, opts: { allowSynthetic: boolean }): NationalIdResult {
  if (!/^\d{11}$/.test(value)) return { ok: false, reason: 'format' };
  let day = Number(value.slice(0, 2));
  let month = Number(value.slice(2, 4));
  const yy = Number(value.slice(4, 6));
  const individual = Number(value.slice(6, 9));
  let kind: NationalIdKind = 'fnr';
  if (day > 40) {
    day -= 40;
    kind = 'dnr';
  }
  if (month > 80) {
    if (!opts.allowSynthetic) return { ok: false, reason: 'kind' };
    month -= 80;
    kind = 'synthetic';
  } else if (month > 40) {
    return { ok: false, reason: 'kind' };
  }
  const checked = idnr(value);
  if (checked.status === 'invalid' && checked.reasons.includes("checksums don't match"))
    return { ok: false, reason: 'checksum' };
  const century = centuryOf(individual, yy);
  if (century === null || !isRealDate(century + yy, month, day)) return { ok: false, reason: 'date' };
  const birthDate = `${century + yy}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { ok: true, kind, birthDate };
}

/** Whole years between an ISO birth date and the given day (UTC calendar). */
export function ageOn(birthDate: string, today: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** Fills in both check digits for 9 leading digits (first digit with remainder 0, the classic rule). */
export function withCheckDigits(nine: string, remainder = 0): string | null {
  const w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2];
  const w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const digits = nine.split('').map(Number);
  const s1 = w1.reduce((acc, w, i) => acc + w * digits[i], 0);
  const k1 = (11 + remainder - (s1 % 11)) % 11;
  if (k1 === 10) return null;
  digits.push(k1);
  const s2 = w2.reduce((acc, w, i) => acc + w * digits[i], 0);
  const k2 = (11 - (s2 % 11)) % 11;
  if (k2 === 10) return null;
  return nine + k1 + k2;
}

/**
 * users.national_id_hash (version 2): HMAC-SHA256 keyed with NATIONAL_ID_PEPPER over the SHA-256
 * hex of the number. An unkeyed hash of an 11-digit number with check digits is reversed by
 * trying the ~30 million valid numbers; without the pepper (kept out of the database) it is not.
 * Keyed over the old SHA-256 (version 1) so stored values are rewrapped without the numbers.
 */
export function nationalIdHash(pid: string, pepper: string): string {
  return rewrapNationalIdHash(createHash('sha256').update(pid).digest('hex'), pepper);
}

/** A version 1 value (SHA-256 hex) made version 2. */
export function rewrapNationalIdHash(sha256Hex: string, pepper: string): string {
  return createHmac('sha256', pepper).update(sha256Hex).digest('hex');
}

/** Corridors (R10): the currencies each receiving country allows. */
export const CORRIDORS = {
  RS: ['RSD', 'EUR'],
  BA: ['BAM', 'EUR'],
  PL: ['PLN', 'EUR'],
  PK: ['PKR'],
  TR: ['TRY', 'EUR'],
} as const;
export type Country = keyof typeof CORRIDORS;
export const COUNTRIES = Object.keys(CORRIDORS) as Country[];

/** IBAN lengths of the corridor countries. */
const LENGTHS: Record<Country, number> = { RS: 22, BA: 20, PL: 28, PK: 24, TR: 26 };

/** Spaces removed, upper case. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * The check the API makes (R10), done before sending so the form can say so at once: the country's
 * prefix and length, and the ISO 13616 mod-97 checksum.
 */
export function isValidIban(value: string, country: Country): boolean {
  const iban = normalizeIban(value);
  if (!iban.startsWith(country) || iban.length !== LENGTHS[country] || !/^[A-Z0-9]+$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

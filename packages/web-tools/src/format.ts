/**
 * Locale formatting for the web apps: amounts with the locale's separators (sr, bs, hr: decimal comma,
 * thousands dot) and the ISO currency code written out, dates in the locale's order.
 * Amounts arrive from the APIs as decimal strings ("1234.50"); they are formatted from the string, so
 * no binary rounding changes a cent.
 */
export type AppLocale = 'sr' | 'bs' | 'hr' | 'en';

/** BCP 47 tag per app language (Serbian in Latin script; Bosnian where the runtime has its data: bosnianIntl). */
export const INTL_LOCALE: Record<AppLocale, string> = {
  sr: 'sr-Latn-RS',
  bs: bosnianIntl(),
  hr: 'hr-HR',
  en: 'en-GB',
};

/**
 * Whether this runtime holds Bosnian locale data: Debian's Chromium claims `bs` but formats it as the
 * root locale ("2026 M11 28", currency names in English).
 */
function hasBosnianDates(): boolean {
  const month = new Intl.DateTimeFormat('bs-Latn-BA', { month: 'long', timeZone: 'UTC' });
  return month.format(new Date(Date.UTC(2026, 10, 15))) === 'novembar';
}

/**
 * The Intl locale for Bosnian dates and names: Bosnian where the runtime has its data, else Serbian
 * Latin as written in Bosnia ("28. 11. 2026.", "prije 5 minuta": the same words; of 22 currency names
 * 20 are Bosnian's, against 17 for Croatian).
 */
export function bosnianIntl(hasData = hasBosnianDates()): string {
  return hasData ? 'bs-Latn-BA' : 'sr-Latn-BA';
}

function separators(locale: AppLocale): { group: string; decimal: string } {
  // The Balkan locales group with a dot and separate decimals with a comma (ICU agrees; fixed here
  // so a browser with a reduced ICU prints the same figures).
  return locale === 'en' ? { group: ',', decimal: '.' } : { group: '.', decimal: ',' };
}

/** A locale's digit grouping and decimal mark. */
export interface Separators {
  group: string;
  decimal: string;
}

/**
 * "1234.5" -> "1.234,50" with the given separators (any app's locales: nb groups with a space);
 * `fraction` digits, rounded half away from zero from the decimal string, never through a float.
 */
export function formatDecimal(value: string | number, seps: Separators, fraction = 2): string {
  const text = typeof value === 'number' ? value.toFixed(fraction) : value.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole = '0', decimals = ''] = match;
  let digits = (whole || '0') + decimals.padEnd(fraction + 1, '0').slice(0, fraction);
  // Half away from zero on the first dropped digit.
  if (Number(decimals.padEnd(fraction + 1, '0')[fraction]) >= 5) {
    digits = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  }
  const intPart = digits.slice(0, digits.length - fraction).replace(/^0+(?=\d)/, '') || '0';
  const fracPart = fraction ? digits.slice(digits.length - fraction) : '';
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, seps.group);
  const negative = sign === '-' && /[1-9]/.test(digits);
  return `${negative ? '-' : ''}${grouped}${fracPart ? seps.decimal + fracPart : ''}`;
}

/** "1234.5" -> "1.234,50" (sr/bs/hr) or "1,234.50" (en); `fraction` digits, rounded half away from zero. */
export function formatNumber(value: string | number, locale: AppLocale, fraction = 2): string {
  return formatDecimal(value, separators(locale), fraction);
}

/** "1234.5", "RSD" -> "1.234,50 RSD": the amount, then the ISO code. */
export function formatMoney(value: string | number, currency: string, locale: AppLocale): string {
  return `${formatNumber(value, locale)} ${currency}`;
}

/** "2026-11-28" (or an ISO timestamp) -> "28.11.2026." (sr, bs, hr), "28/11/2026" (en). */
export function formatDate(value: string, locale: AppLocale): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  const [, y, mo, d] = m;
  return locale === 'en' ? `${d}/${mo}/${y}` : `${d}.${mo}.${y}.`;
}

/**
 * An instant (an ISO timestamp) on the calendar and clock where the browser is: "28.11.2026. 17:05", or
 * the date alone. formatDate on a timestamp would give its UTC date: a sign-in at 00:30 in Belgrade is
 * the day before in UTC.
 */
export function formatInstant(value: string, locale: AppLocale, withTime = true): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = formatDate(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, locale);
  return withTime ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}` : day;
}

/**
 * A decimal typed by a person -> "1234.5"; null if not a number. sr/bs/hr: "1.234,5" and also "12.5"
 * (one dot followed by one or two digits reads as a decimal point, as people type on a numeric keypad).
 */
export function parseAmount(input: string, locale: AppLocale): string | null {
  const { group, decimal } = separators(locale);
  let text = input.trim().replaceAll(' ', '');
  if (text.includes(decimal)) text = text.replaceAll(group, '').replace(decimal, '.');
  else if (!(locale !== 'en' && /^-?\d+\.\d{1,2}$/.test(text))) text = text.replaceAll(group, '');
  return /^-?\d+(\.\d+)?$/.test(text) ? text : null;
}

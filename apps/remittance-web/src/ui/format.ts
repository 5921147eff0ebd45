import { bosnianIntl, formatDecimal, type Separators } from '@app/web-tools/format';
import type { Locale } from '../i18n/locales.js';

/** Digit grouping per language: nb and pl group with a space, tr and bs with a dot, en and ur with a comma. */
const SEPARATORS: Record<Locale, Separators> = {
  nb: { group: ' ', decimal: ',' },
  pl: { group: ' ', decimal: ',' },
  tr: { group: '.', decimal: ',' },
  bs: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
  ur: { group: ',', decimal: '.' },
};

/** An amount as the language writes it: `1 234,50 kr` in nb (NOK), `1 234,50 RSD`, `1,234.50 NOK` in en. */
export function money(value: number | string, currency: string, locale: Locale): string {
  const figure = formatDecimal(typeof value === 'number' ? value.toFixed(2) : value, SEPARATORS[locale]);
  const text = currency === 'NOK' && locale === 'nb' ? `${figure} kr` : `${figure} ${currency}`;
  // In right-to-left text an amount stays one left-to-right unit (the minus sign before the digits,
  // the code after): a Unicode isolate, as <bdi> would do, that survives in attributes and titles.
  return RTL_LOCALES.has(locale) ? `\u2066${text}\u2069` : text;
}

const RTL_LOCALES: ReadonlySet<Locale> = new Set(['ur']);

/** An exchange rate (up to 6 decimals, trailing zeros kept to 4). */
export function rate(value: number, locale: Locale): string {
  return formatDecimal(value.toFixed(6).replace(/(\.\d{4}\d*?)0+$/, '$1'), SEPARATORS[locale], 4);
}

const INTL: Record<Locale, string> = {
  nb: 'nb-NO',
  en: 'en-GB',
  pl: 'pl-PL',
  tr: 'tr-TR',
  bs: bosnianIntl(),
  ur: 'ur-PK',
};

/** Date and time in Oslo time, as the language writes it. */
export function dateTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '–';
  return new Intl.DateTimeFormat(INTL[locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Oslo',
  }).format(new Date(iso));
}

export function date(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '–';
  return new Intl.DateTimeFormat(INTL[locale], { dateStyle: 'medium', timeZone: 'Europe/Oslo' }).format(new Date(iso));
}

/** "5 minutes ago" in the language (how old a balance is). */
export function ago(iso: string | null | undefined, locale: Locale, now = Date.now()): string {
  if (!iso) return '–';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(INTL[locale], { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}

import { formatDate, formatInstant, formatMoney, formatNumber } from '@app/web-tools/format';
import { useI18n } from '../i18n/index.js';

/** Formatters bound to the current locale. */
export function useFormat() {
  const { locale } = useI18n();
  return {
    money: (value: string | number, currency: string) => formatMoney(value, currency, locale),
    number: (value: string | number, fraction = 2) => formatNumber(value, locale, fraction),
    /** A calendar date (YYYY-MM-DD): no time zone moves it. */
    date: (value: string) => formatDate(value, locale),
    /** An instant (a timestamp) where the browser is, with the time. */
    dateTime: (value: string) => formatInstant(value, locale),
    /** The day of an instant where the browser is. */
    day: (value: string) => formatInstant(value, locale, false),
  };
}

import { formatDate, formatMoney, formatNumber } from '@app/web-tools/format';
import { useI18n } from '../i18n/index.js';

/** Formatters bound to the current locale. */
export function useFormat() {
  const { locale } = useI18n();
  return {
    money: (value: string | number, currency: string) => formatMoney(value, currency, locale),
    number: (value: string | number, fraction = 2) => formatNumber(value, locale, fraction),
    date: (value: string) => formatDate(value, locale),
  };
}

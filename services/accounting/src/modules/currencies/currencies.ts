import { type Dec, formatAmount } from '@app/shared/money';
import { AppError } from '../../lib/errors.js';

/**
 * Minor units of the currencies the service knows (ISO 4217), mirroring the `currencies` table
 * seeded by migration 20261121000200_books.sql (a test checks that the two agree). Synchronous so
 * that presenting an amount never costs a query.
 */
export const CURRENCY_DECIMALS: Readonly<Record<string, number>> = Object.freeze({
  EUR: 2,
  RSD: 2,
  BAM: 2,
  HRK: 2,
  USD: 2,
  CHF: 2,
  GBP: 2,
});

export const CURRENCY_CODES = Object.keys(CURRENCY_DECIMALS);

export function isKnownCurrency(code: string): boolean {
  return Object.hasOwn(CURRENCY_DECIMALS, code);
}

/** Decimal places of a currency; 2 for a code the table does not know. */
export function currencyDecimals(code: string): number {
  return CURRENCY_DECIMALS[code] ?? 2;
}

/** An amount as the API shows it: a string with the currency's decimal places (A3). */
export function formatMoney(value: string | Dec, currencyCode: string): string {
  return formatAmount(value, currencyDecimals(currencyCode));
}

/** 422 SVC-9003 on `field` unless `code` is a currency the service knows. */
export function assertCurrency(code: string, field = 'currencyCode'): void {
  if (!isKnownCurrency(code))
    throw new AppError('SVC-9003', { [field]: [`must be one of ${CURRENCY_CODES.join(', ')}`] });
}

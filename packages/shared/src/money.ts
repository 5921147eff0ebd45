import { Decimal } from 'decimal.js';

/**
 * Money is decimal, never binary floating point (A3): amounts travel as strings, are computed
 * with decimal.js and are rounded half-up to the currency's decimals.
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

export function dec(value: string | number | Dec): Dec {
  // Numbers are converted through their shortest decimal representation (12.34 -> "12.34").
  return new D(typeof value === 'number' ? String(value) : value);
}

export function roundHalfUp(value: Dec, decimals: number): Dec {
  return value.toDecimalPlaces(decimals, D.ROUND_HALF_UP);
}

/** Fixed-point string with exactly `decimals` places, rounded half-up ("1234.50"). */
export function formatAmount(value: string | number | Dec, decimals = 2): string {
  return roundHalfUp(dec(value), decimals).toFixed(decimals);
}

export function sum(values: Array<string | Dec>): Dec {
  return values.reduce<Dec>((acc, v) => acc.plus(v), new D(0));
}

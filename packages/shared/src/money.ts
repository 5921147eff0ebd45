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

const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.(\d*))?$/;

/** Fixed-point string with exactly `decimals` places, rounded half-up ("1234.50"). */
export function formatAmount(value: string | number | Dec, decimals = 2): string {
  // Fast path for what the database returns (numeric as plain text): when no digit beyond
  // `decimals` is set, formatting is only padding, so no Decimal is built. List pages format
  // every row's amounts; this keeps them out of the allocator.
  if (typeof value === 'string') {
    const m = PLAIN_DECIMAL.exec(value);
    if (m) {
      const fraction = m[1] ?? '';
      if (fraction.length <= decimals || /^0*$/.test(fraction.slice(decimals))) {
        const whole = fraction === '' && !value.includes('.') ? value : value.slice(0, value.indexOf('.'));
        const digits = (fraction + '0'.repeat(decimals)).slice(0, decimals);
        const text = decimals === 0 ? whole : `${whole}.${digits}`;
        // "-0.00" is written "0.00", as Decimal does.
        return /^-0(?:\.0*)?$/.test(text) ? text.slice(1) : text;
      }
    }
  }
  return roundHalfUp(dec(value), decimals).toFixed(decimals);
}

export function sum(values: Array<string | Dec>): Dec {
  return values.reduce<Dec>((acc, v) => acc.plus(v), new D(0));
}

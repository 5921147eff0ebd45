import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, formatAmount, roundHalfUp } from './money.js';

/** The reference: always through Decimal. */
const slow = (value: string, decimals: number) => roundHalfUp(new D(value), decimals).toFixed(decimals);

describe('formatAmount', () => {
  it.each([
    ['12', 2, '12.00'],
    ['12.5', 2, '12.50'],
    ['12.50', 2, '12.50'],
    ['12.5000', 2, '12.50'],
    ['12.505', 2, '12.51'],
    ['12.504', 2, '12.50'],
    ['-12.505', 2, '-12.51'],
    ['-0.004', 2, '0.00'],
    ['-0.00', 2, '0.00'],
    ['0', 0, '0'],
    ['1234.5', 0, '1235'],
    ['1234.000', 0, '1234'],
    ['7.', 2, '7.00'],
    ['007.5', 2, '7.50'],
  ])('%s with %i decimals is %s', (value, decimals, expected) => {
    expect(formatAmount(value, decimals)).toBe(expected);
  });

  it('numbers and Decimals still go through Decimal', () => {
    expect(formatAmount(0.1 + 0.2, 2)).toBe('0.30');
    expect(formatAmount(new D('2.345'), 2)).toBe('2.35');
  });

  it('the fast path agrees with Decimal on any plain numeric text', () => {
    const numeric = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.option(fc.stringMatching(/^\d{0,6}$/), { nil: undefined }),
      )
      .map(([neg, whole, frac]) => `${neg ? '-' : ''}${whole}${frac === undefined ? '' : `.${frac}`}`);
    fc.assert(
      fc.property(numeric, fc.integer({ min: 0, max: 4 }), (value, decimals) => {
        expect(formatAmount(value, decimals)).toBe(slow(value, decimals));
      }),
      { numRuns: 2000 },
    );
  });
});

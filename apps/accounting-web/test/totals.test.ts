import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeTotals as serverTotals } from '../../../services/accounting/src/modules/invoices/invoice-totals.js';
import { computeTotals } from '../src/lib/totals.js';

const decimalText = (maxWhole: number, places: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxWhole }), fc.integer({ min: 0, max: 10 ** places - 1 }))
    .map(([w, f]) => `${w}.${String(f).padStart(places, '0')}`);

describe('the editor computes totals as the service does', () => {
  it('matches invoice-totals.ts on random invoices (line totals, VAT, discount, total)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: decimalText(1000, 3),
            unitPrice: decimalText(100_000, 4),
            taxRate: fc.constantFrom('0', '5', '10', '13', '17', '20', '25'),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        decimalText(500, 2),
        (items, discount) => {
          const ours = computeTotals(items, 2, discount);
          const theirs = serverTotals(items, {
            decimals: 2,
            baseDecimals: 2,
            exchangeRate: '1',
            discountAmount: discount,
          });
          expect(ours.lines.map((l) => l.lineTotal)).toEqual(theirs.lines.map((l) => l.lineTotal.toFixed(2)));
          expect(ours.taxAmount).toBe(theirs.taxAmount.toFixed(2));
          expect(ours.totalAmount).toBe(theirs.totalAmount.toFixed(2));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rounds each line before summing (0.005 per line adds up)', () => {
    const t = computeTotals(
      [
        { quantity: '1', unitPrice: '0.025', taxRate: '20' },
        { quantity: '1', unitPrice: '0.025', taxRate: '20' },
      ],
      2,
    );
    expect(t.lines.map((l) => l.lineTotal)).toEqual(['0.03', '0.03']);
    expect(t.subtotal).toBe('0.06');
    expect(t.taxAmount).toBe('0.02');
  });
});

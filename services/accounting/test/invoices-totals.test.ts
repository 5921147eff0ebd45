import { dec, sum } from '@app/shared/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveStatus, nextStatus } from '../src/modules/invoices/invoice-status.js';
import { computeTotals, splitSale } from '../src/modules/invoices/invoice-totals.js';

const two = { decimals: 2, baseDecimals: 2, exchangeRate: '1' };
const fixed = (t: ReturnType<typeof computeTotals>) => ({
  lines: t.lines.map((l) => [l.lineTotal.toFixed(2), l.lineTax.toFixed(2)]),
  subtotal: t.subtotal.toFixed(2),
  taxAmount: t.taxAmount.toFixed(2),
  totalAmount: t.totalAmount.toFixed(2),
  baseAmount: t.baseAmount.toFixed(2),
});

describe('invoice totals (A3)', () => {
  it('rounds each line total half-up at the 0.005 boundary', () => {
    const t = computeTotals(
      [
        { quantity: '1', unitPrice: '0.005', taxRate: '0' },
        { quantity: '3', unitPrice: '0.335', taxRate: '0' },
      ],
      two,
    );
    // 0.005 -> 0.01; 1.005 -> 1.01 (a binary float would give 1.00)
    expect(fixed(t).lines).toEqual([
      ['0.01', '0.00'],
      ['1.01', '0.00'],
    ]);
    expect(fixed(t).subtotal).toBe('1.02');
  });

  it('rounds tax per line, then sums the rounded taxes (not the tax of the sum)', () => {
    // Three lines of 0.25 at 10%: each tax 0.025 -> 0.03, sum 0.09; the tax of the sum (0.075) would be 0.08.
    const items = Array.from({ length: 3 }, () => ({ quantity: '1', unitPrice: '0.25', taxRate: '10' }));
    const t = computeTotals(items, two);
    expect(fixed(t)).toMatchObject({ subtotal: '0.75', taxAmount: '0.09', totalAmount: '0.84' });
  });

  it('handles many lines and several tax rates without drift', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({
      quantity: '0.1',
      unitPrice: '0.7',
      taxRate: ['20', '10', '0', '8.5'][i % 4],
    }));
    const t = computeTotals(items, two);
    // Each line: 0.07; 200 lines = 14.00. Taxes: 20% 0.014->0.01, 10% 0.007->0.01, 0% 0, 8.5% 0.00595->0.01
    expect(fixed(t)).toMatchObject({ subtotal: '14.00', taxAmount: '1.50', totalAmount: '15.50' });
    expect(t.taxByRate.map((r) => [r.rate, r.base.toFixed(2), r.tax.toFixed(2)])).toEqual([
      ['20', '3.50', '0.50'],
      ['10', '3.50', '0.50'],
      ['8.5', '3.50', '0.50'],
      ['0', '3.50', '0.00'],
    ]);
  });

  it('deducts the discount and converts with the rate, rounding the base amount half-up', () => {
    const t = computeTotals([{ quantity: '2', unitPrice: '49.995', taxRate: '20' }], {
      ...two,
      exchangeRate: '117.172500',
      discountAmount: '0.99',
    });
    // 99.99 + 20.00 - 0.99 = 119.00; x 117.1725 = 13943.5275 -> 13943.53
    expect(fixed(t)).toMatchObject({
      subtotal: '99.99',
      taxAmount: '20.00',
      totalAmount: '119.00',
      baseAmount: '13943.53',
    });
  });

  it('computes 0.1 x 3 exactly (no binary floating point)', () => {
    expect(fixed(computeTotals([{ quantity: '3', unitPrice: '0.1', taxRate: '0' }], two)).subtotal).toBe('0.30');
  });

  it('property: the totals identity holds and the ledger split always sums to totalAmount', () => {
    const amount = fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 1000).toFixed(3));
    const item = fc.record({
      quantity: fc.integer({ min: 1, max: 5000 }).map((n) => (n / 100).toString()),
      unitPrice: amount,
      taxRate: fc.constantFrom('0', '5', '8.5', '10', '13', '17', '20', '25'),
      accountId: fc.constantFrom('rev-a', 'rev-b', 'rev-c'),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (items, share) => {
          const pre = computeTotals(items, two);
          const discount = pre.subtotal.plus(pre.taxAmount).times(share).toDecimalPlaces(2, 1).toFixed(2);
          const t = computeTotals(items, { ...two, discountAmount: discount });
          expect(t.totalAmount.eq(t.subtotal.plus(t.taxAmount).minus(discount))).toBe(true);
          expect(t.subtotal.eq(sum(t.lines.map((l) => l.lineTotal)))).toBe(true);
          const split = splitSale(items, t);
          const parts = sum([...split.revenue.map((r) => r.amount), split.tax]);
          expect(parts.eq(t.totalAmount)).toBe(true);
          expect(split.revenue.every((r) => r.amount.gte(0)) && split.tax.gte(0)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the discount from the largest revenue account first, then the next, then the tax', () => {
    const items = [{ accountId: 'small' }, { accountId: 'large' }];
    const lines = [
      { lineTotal: dec('100'), lineTax: dec('0') },
      { lineTotal: dec('300'), lineTax: dec('0') },
    ];
    const a = splitSale(items, { lines, taxAmount: dec('80'), discountAmount: dec('50') });
    expect(a.revenue.map((r) => [r.accountId, r.amount.toFixed(2)])).toEqual([
      ['large', '250.00'],
      ['small', '100.00'],
    ]);
    const b = splitSale(items, { lines, taxAmount: dec('80'), discountAmount: dec('450') });
    expect(b.revenue.map((r) => r.amount.toFixed(2))).toEqual(['0.00', '0.00']);
    expect(b.tax.toFixed(2)).toBe('30.00');
  });
});

describe('invoice totals: tax per rate and the split of equal accounts (mutation run, issue 34)', () => {
  it('groups the tax breakdown by rate (20 and 20.00 are one rate), sums base and tax per rate, highest rate first', () => {
    const t = computeTotals(
      [
        { quantity: '1', unitPrice: '100', taxRate: '10' },
        { quantity: '2', unitPrice: '50.005', taxRate: '20' },
        { quantity: '1', unitPrice: '10', taxRate: '0' },
        { quantity: '3', unitPrice: '1.10', taxRate: '20.00' },
      ],
      two,
    );
    expect(t.taxByRate.map((r) => [r.rate, r.base.toFixed(2), r.tax.toFixed(2)])).toEqual([
      ['20', '103.31', '20.66'],
      ['10', '100.00', '10.00'],
      ['0', '10.00', '0.00'],
    ]);
    expect(t.discountAmount.toFixed(2)).toBe('0.00');
  });

  it('rounds the discount half-up to the currency and keeps the base amount to the base currency decimals', () => {
    const t = computeTotals([{ quantity: '1', unitPrice: '100', taxRate: '0' }], {
      decimals: 2,
      baseDecimals: 0,
      exchangeRate: '1.5',
      discountAmount: '0.125',
    });
    // 100.00 - 0.13 = 99.87; x 1.5 = 149.805 -> 150 with no decimals
    expect([t.discountAmount.toFixed(2), t.totalAmount.toFixed(2), t.baseAmount.toFixed(2)]).toEqual([
      '0.13',
      '99.87',
      '150.00',
    ]);
  });

  it('splits equal revenue accounts in the order they first appear, and sums lines of one account', () => {
    const items = [{ accountId: 'first' }, { accountId: 'second' }, { accountId: 'first' }];
    const lines = [
      { lineTotal: dec('100'), lineTax: dec('0') },
      { lineTotal: dec('150'), lineTax: dec('0') },
      { lineTotal: dec('50'), lineTax: dec('0') },
    ];
    const s = splitSale(items, { lines, taxAmount: dec('0'), discountAmount: dec('20') });
    expect(s.revenue.map((r) => [r.accountId, r.amount.toFixed(2)])).toEqual([
      ['first', '130.00'],
      ['second', '150.00'],
    ]);
    const none = splitSale(items, { lines, taxAmount: dec('60'), discountAmount: dec('0') });
    expect(none.revenue.map((r) => r.amount.toFixed(2))).toEqual(['150.00', '150.00']);
    expect(none.tax.toFixed(2)).toBe('60.00');
  });
});

describe('status machine (A10)', () => {
  it('allows exactly the transitions of the spec', () => {
    const statuses = ['draft', 'sent', 'viewed', 'paid', 'overdue', 'cancelled'] as const;
    const allowed: Record<string, string[]> = {
      send: ['draft'],
      'mark-paid': ['sent', 'viewed', 'overdue'],
      cancel: ['draft', 'sent', 'viewed', 'overdue', 'paid'],
      view: ['sent'],
      expire: ['sent', 'viewed'],
      bogus: [],
      constructor: [],
      __proto__: [],
    };
    for (const [action, from] of Object.entries(allowed)) {
      for (const s of statuses) {
        if (from.includes(s)) expect(() => nextStatus(s, action)).not.toThrow();
        else expect(() => nextStatus(s, action)).toThrowError(expect.objectContaining({ code: 'SVC-3004' }));
      }
    }
  });

  it('derives overdue from the due date', () => {
    expect(effectiveStatus('sent', '2026-01-01', '2026-01-02')).toBe('overdue');
    expect(effectiveStatus('viewed', '2026-01-02', '2026-01-02')).toBe('viewed');
    expect(effectiveStatus('paid', '2020-01-01', '2026-01-02')).toBe('paid');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  BEGINNING,
  monthEnd,
  monthStart,
  sumPieces,
  sumRanges,
  sumRangesUpTo,
} from '../src/modules/ledger/period-ranges.js';

/** How many times each day is counted by the pieces (month rows count every day of their month). */
function counts(_from: string, _to: string, pieces: ReturnType<typeof sumPieces>) {
  const n = new Map<string, number>();
  for (const p of pieces) {
    const last = p.grain === 'month' ? monthEnd(p.to) : p.to;
    for (let d = p.from; d <= last; d = addDays(d, 1)) n.set(d, (n.get(d) ?? 0) + p.sign);
  }
  return n;
}

describe('the pieces a report reads (months, added and subtracted edge days)', () => {
  it('count every day of the range once and every other day not at all, with few day rows', () => {
    const day = fc.integer({ min: 0, max: 900 }).map((n) => addDays('2024-01-01', n));
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const pieces = sumPieces(sumRanges(from, to));
        const n = counts(from, to, pieces);
        for (let d = addDays(from, -40); d <= addDays(to, 40); d = addDays(d, 1)) {
          expect(n.get(d) ?? 0, d).toBe(d >= from && d <= to ? 1 : 0);
        }
        expect(pieces.filter((p) => p.grain === 'month').length).toBeLessThanOrEqual(1);
        for (const p of pieces) {
          expect(p.from <= p.to).toBe(true);
          if (p.grain === 'month') expect([p.from, p.to]).toEqual([monthStart(p.from), monthStart(p.to)]);
        }
        // Each month at an edge costs at most half its days in day rows.
        const dayRows = pieces
          .filter((p) => p.grain === 'day')
          .reduce((s, p) => s + (new Date(p.to).getTime() - new Date(p.from).getTime()) / 86_400_000 + 1, 0);
        expect(dayRows).toBeLessThanOrEqual(32);
      }),
      { numRuns: 100 },
    );
  });

  it('read as of the 23rd: the months up to this one less the days after the 23rd', () => {
    expect(monthStart(BEGINNING)).toBe(BEGINNING);
    expect(monthStart('0099-12-15', 1)).toBe('0100-01-01');
    expect(sumPieces(sumRangesUpTo('2026-11-23'))).toEqual([
      { grain: 'month', from: BEGINNING, to: '2026-11-01', sign: 1 },
      { grain: 'day', from: '2026-11-24', to: '2026-11-30', sign: -1 },
    ]);
    expect(sumPieces(sumRanges('2026-11-01', '2026-11-05'))).toEqual([
      { grain: 'day', from: '2026-11-01', to: '2026-11-05', sign: 1 },
    ]);
    expect(sumPieces(sumRanges('2024-05-23', '2026-11-23'))).toEqual([
      { grain: 'month', from: '2024-06-01', to: '2026-11-01', sign: 1 },
      { grain: 'day', from: '2024-05-23', to: '2024-05-31', sign: 1 },
      { grain: 'day', from: '2026-11-24', to: '2026-11-30', sign: -1 },
    ]);
  });
});

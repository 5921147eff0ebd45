/**
 * How a date range maps onto account_period_sums: the calendar months that lie wholly inside it
 * (month rows) plus the days before the first and after the last of them (day rows). A range of
 * any length therefore reads at most its months and about 60 days per account pair.
 */
export interface SumRanges {
  /** The inclusive range itself (the moves not folded yet are read over it). */
  from: string;
  to: string;
  /** First days of the first and last whole month, or null when no month lies wholly inside. */
  months: [string, string] | null;
  /** At most two inclusive day ranges at the edges. */
  days: Array<[string, string]>;
}

/** The earliest date a posting can carry (the type's lower bound is far below any real ledger). */
export const BEGINNING = '0001-01-01';

const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(date: string, n: number): string {
  const d = toDate(date);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
}

/** First day of the month `n` months after the month of `date` (n may be negative). */
export function monthStart(date: string, n = 0): string {
  const d = toDate(date);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999 (0001-01-01 would become 1901).
  const m = new Date(0);
  m.setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
  return iso(m);
}

/** Last day of the month of `date`. */
export function monthEnd(date: string): string {
  return addDays(monthStart(date, 1), -1);
}

/** Inclusive range [from, to] (from <= to, ISO dates) as month and edge-day pieces. */
export function sumRanges(from: string, to: string): SumRanges {
  const firstMonth = from === monthStart(from) ? from : monthStart(from, 1);
  const lastMonth = to === monthEnd(to) ? monthStart(to) : monthStart(to, -1);
  if (firstMonth > lastMonth) return { from, to, months: null, days: [[from, to]] };
  const days: Array<[string, string]> = [];
  if (from < firstMonth) days.push([from, addDays(firstMonth, -1)]);
  const afterLast = monthStart(lastMonth, 1);
  if (afterLast <= to) days.push([afterLast, to]);
  return { from, to, months: [firstMonth, lastMonth], days };
}

/** Everything dated on or before `date`. */
export function sumRangesUpTo(date: string): SumRanges {
  return sumRanges(BEGINNING, date);
}

/** One read of account_period_sums: the rows of `grain` with period_start in [from, to], added or subtracted. */
export interface SumPiece {
  grain: 'day' | 'month';
  from: string;
  to: string;
  sign: 1 | -1;
}

/**
 * The pieces to read for `r`, with fewer day rows: an edge of days that fills most of its month
 * is read as that month's row less the month's other days (as of the 23rd: the month less the
 * days after the 23rd, which as of today hold nothing yet). Each segment of edge days within one
 * month is read whichever way counts fewer days; the months come out as one contiguous range.
 * Every day of the range is still counted exactly once (property-tested).
 */
export function sumPieces(r: SumRanges): SumPiece[] {
  const months: string[] = [];
  const days: SumPiece[] = [];
  for (const [d1, d2] of r.days) {
    for (let a = d1; a <= d2; a = monthStart(a, 1)) {
      const first = monthStart(a);
      const last = monthEnd(a);
      const b = d2 < last ? d2 : last;
      const kept = dayCount(a, b);
      const others = dayCount(first, a) - 1 + (dayCount(b, last) - 1);
      if (others < kept) {
        months.push(first);
        if (first < a) days.push({ grain: 'day', from: first, to: addDays(a, -1), sign: -1 });
        if (b < last) days.push({ grain: 'day', from: addDays(b, 1), to: last, sign: -1 });
      } else {
        days.push({ grain: 'day', from: a, to: b, sign: 1 });
      }
    }
  }
  if (r.months) months.push(r.months[0], r.months[1]);
  if (months.length === 0) return days;
  months.sort();
  return [{ grain: 'month', from: months[0], to: months[months.length - 1], sign: 1 }, ...days];
}

/** Days from `a` to `b`, both included. */
function dayCount(a: string, b: string): number {
  return Math.round((toDate(b).getTime() - toDate(a).getTime()) / 86_400_000) + 1;
}

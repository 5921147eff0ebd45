/**
 * How a date range maps onto account_period_sums: the calendar months that lie wholly inside it
 * (month rows) plus the days before the first and after the last of them (day rows). A range of
 * any length therefore reads at most its months and about 60 days per account pair.
 */
export interface SumRanges {
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
  return iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)));
}

/** Last day of the month of `date`. */
export function monthEnd(date: string): string {
  return addDays(monthStart(date, 1), -1);
}

/** Inclusive range [from, to] (from <= to, ISO dates) as month and edge-day pieces. */
export function sumRanges(from: string, to: string): SumRanges {
  const firstMonth = from === monthStart(from) ? from : monthStart(from, 1);
  const lastMonth = to === monthEnd(to) ? monthStart(to) : monthStart(to, -1);
  if (firstMonth > lastMonth) return { months: null, days: [[from, to]] };
  const days: Array<[string, string]> = [];
  if (from < firstMonth) days.push([from, addDays(firstMonth, -1)]);
  const afterLast = monthStart(lastMonth, 1);
  if (afterLast <= to) days.push([afterLast, to]);
  return { months: [firstMonth, lastMonth], days };
}

/** Everything dated on or before `date`. */
export function sumRangesUpTo(date: string): SumRanges {
  return sumRanges(BEGINNING, date);
}

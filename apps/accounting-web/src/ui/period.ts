import dayjs from 'dayjs';

/** Calendar helpers for the period pickers (ISO dates, local calendar). */
export const isoDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Today on the browser's calendar (ISO), the default of every date field. */
export const today = (): string => isoDay(new Date());

/** The ISO day n calendar days after an ISO day (n may be negative), on the local calendar. */
export const addDays = (day: string, n: number): string => dayjs(day).add(n, 'day').format('YYYY-MM-DD');

/** Calendar days from one ISO day to another (negative when the second is earlier; a clock change counts as a day). */
export const daysBetween = (from: string, to: string): number => dayjs(to).diff(dayjs(from), 'day');

export type PeriodPreset = 'thisMonth' | 'lastMonth' | 'thisQuarter' | 'thisYear' | 'lastYear';

export function presetRange(preset: PeriodPreset, today = new Date()): { from: string; to: string } {
  const y = today.getFullYear();
  const m = today.getMonth();
  switch (preset) {
    case 'thisMonth':
      return { from: isoDay(new Date(y, m, 1)), to: isoDay(new Date(y, m + 1, 0)) };
    case 'lastMonth':
      return { from: isoDay(new Date(y, m - 1, 1)), to: isoDay(new Date(y, m, 0)) };
    case 'thisQuarter': {
      const q = Math.floor(m / 3) * 3;
      return { from: isoDay(new Date(y, q, 1)), to: isoDay(new Date(y, q + 3, 0)) };
    }
    case 'thisYear':
      return { from: isoDay(new Date(y, 0, 1)), to: isoDay(new Date(y, 11, 31)) };
    case 'lastYear':
      return { from: isoDay(new Date(y - 1, 0, 1)), to: isoDay(new Date(y - 1, 11, 31)) };
  }
}

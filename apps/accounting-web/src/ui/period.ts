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

/**
 * A date typed into a date field, as the app writes dates or as ISO: `5.12.2026`, `05. 12. 2026.`,
 * `5/12/2026`, `2026-12-05`. Day first, as in the four languages (English is en-GB). The ISO day, or
 * null when the text is not a whole date or names no such day (31.4.2026).
 */
export function parseTypedDate(text: string): string | null {
  const s = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const dayFirst = iso ? null : /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})\.?$/.exec(s);
  const parts = iso ? [iso[1], iso[2], iso[3]] : dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1]] : null;
  if (!parts) return null;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

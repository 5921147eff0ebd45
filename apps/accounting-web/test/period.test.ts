import { afterEach, describe, expect, it } from 'vitest';
import { addDays, daysBetween, isoDay, parseTypedDate, presetRange } from '../src/ui/period.js';

// The calendar helpers work on the browser's calendar day. Node reads TZ at each date operation, so each test
// sets the zone it is about and puts the old one back.
const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('calendar days in the browser zone', () => {
  it("is Belgrade's day just after its midnight, when UTC still says yesterday", () => {
    process.env.TZ = 'Europe/Belgrade';
    const halfPastMidnight = new Date('2026-11-28T23:30:00Z');
    expect(isoDay(halfPastMidnight)).toBe('2026-11-29');
    expect(halfPastMidnight.toISOString().slice(0, 10)).toBe('2026-11-28');
  });

  it('adds and counts days across month ends, a leap day and both clock changes', () => {
    process.env.TZ = 'Europe/Zagreb';
    expect(addDays('2026-11-29', 30)).toBe('2026-12-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    // Summer time starts 2026-03-29 and ends 2026-10-25: a 23-hour and a 25-hour day.
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-10-24', 2)).toBe('2026-10-26');
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-10-24', '2026-10-26')).toBe(2);
    expect(daysBetween('2026-10-01', '2026-10-31')).toBe(30);
    expect(daysBetween('2026-10-31', '2026-10-01')).toBe(-30);
    for (const day of ['2026-03-29', '2026-10-25', '2028-02-29'])
      expect(addDays(day, daysBetween(day, '2027-01-15'))).toBe('2027-01-15');
  });

  it('gives the presets as whole calendar months, quarters and years', () => {
    process.env.TZ = 'Europe/Sarajevo';
    const today = new Date(2026, 10, 29, 0, 30);
    expect(presetRange('thisMonth', today)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetRange('lastMonth', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(presetRange('thisQuarter', today)).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(presetRange('lastYear', today)).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });
});

describe('parseTypedDate', () => {
  it('takes a day-first date as the four languages write it, and ISO', () => {
    expect(parseTypedDate('5.12.2026')).toBe('2026-12-05');
    expect(parseTypedDate(' 05. 12. 2026. ')).toBe('2026-12-05');
    expect(parseTypedDate('5/12/2026')).toBe('2026-12-05');
    expect(parseTypedDate('5-12-2026')).toBe('2026-12-05');
    expect(parseTypedDate('2026-12-05')).toBe('2026-12-05');
    expect(parseTypedDate('29.2.2028')).toBe('2028-02-29');
  });
  it('refuses a day that does not exist and text that is not a whole date', () => {
    for (const text of [
      '31.4.2026',
      '29.2.2026',
      '0.1.2026',
      '1.13.2026',
      '5.12.',
      '5.12.26',
      '12/5',
      '',
      'danas',
      '2026-02-30',
    ])
      expect(parseTypedDate(text), text).toBeNull();
  });
});

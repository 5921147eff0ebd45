import { describe, expect, it } from 'vitest';
import { formatDate, formatDecimal, formatInstant, formatMoney, formatNumber, parseAmount } from './format.js';

describe('locale formatting', () => {
  it('writes amounts with decimal comma and thousands dot in sr/bs/hr, the code after', () => {
    expect(formatMoney('1234567.5', 'RSD', 'sr')).toBe('1.234.567,50 RSD');
    expect(formatMoney('-1000', 'EUR', 'hr')).toBe('-1.000,00 EUR');
    expect(formatMoney('1234.5', 'BAM', 'en')).toBe('1,234.50 BAM');
  });
  it('rounds half away from zero from the decimal string, never through a float', () => {
    expect(formatNumber('0.005', 'bs')).toBe('0,01');
    expect(formatNumber('1.005', 'en')).toBe('1.01');
    expect(formatNumber('99.995', 'sr')).toBe('100,00');
    expect(formatNumber('-0.001', 'sr')).toBe('0,00');
  });
  it('formats dates in the locale order', () => {
    expect(formatDate('2026-11-28', 'sr')).toBe('28.11.2026.');
    expect(formatDate('2026-11-28T10:00:00Z', 'en')).toBe('28/11/2026');
  });
  it('writes an instant on the calendar and clock of the time zone the browser is in, not UTC', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Europe/Belgrade';
    try {
      // 23:30 UTC on 28 November is 00:30 on the 29th in Belgrade (CET, UTC+1).
      expect(formatInstant('2026-11-28T23:30:00.000Z', 'sr')).toBe('29.11.2026. 00:30');
      expect(formatInstant('2026-11-28T23:30:00.000Z', 'en', false)).toBe('29/11/2026');
      // Summer time: UTC+2.
      expect(formatInstant('2026-07-01T08:05:00Z', 'hr')).toBe('01.07.2026. 10:05');
      expect(formatInstant('not a time', 'bs')).toBe('not a time');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
  it('reads amounts typed either way', () => {
    expect(parseAmount('1.234,5', 'sr')).toBe('1234.5');
    expect(parseAmount('12.5', 'hr')).toBe('12.5');
    expect(parseAmount('1,234.5', 'en')).toBe('1234.5');
    expect(parseAmount('abc', 'en')).toBeNull();
  });
});

describe('formatDecimal', () => {
  it('groups and marks decimals with any separators (nb: space and comma)', () => {
    expect(formatDecimal('1234.5', { group: ' ', decimal: ',' })).toBe('1 234,50');
    expect(formatDecimal(1234567.891, { group: ' ', decimal: ',' })).toBe('1 234 567,89');
    expect(formatDecimal('-0.004', { group: ' ', decimal: ',' })).toBe('0,00');
  });
});

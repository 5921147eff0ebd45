import { describe, expect, it } from 'vitest';
import { formatDate, formatDecimal, formatMoney, formatNumber, parseAmount } from './format.js';

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

import { bosnianIntl } from '@app/web-tools/format';
import { describe, expect, it } from 'vitest';
import { parseTypedAmount } from '../src/lib/amount.js';
import { money } from '../src/ui/format.js';

describe('amounts', () => {
  it('reads what people type in nb, en, pl, tr, bs', () => {
    expect(parseTypedAmount('1 234,50')).toBe(1234.5);
    expect(parseTypedAmount('1234.5')).toBe(1234.5);
    expect(parseTypedAmount('1.234,50')).toBe(1234.5);
    expect(parseTypedAmount('1,234.50')).toBe(1234.5);
    expect(parseTypedAmount('500')).toBe(500);
    expect(parseTypedAmount('12,345')).toBe(12345);
    expect(parseTypedAmount('abc')).toBeNull();
    expect(parseTypedAmount('1,2,3')).toBeNull();
    expect(parseTypedAmount('')).toBeNull();
  });
  it('writes amounts as each language does (nb: 1 234,50 kr)', () => {
    expect(money(1234.5, 'NOK', 'nb')).toBe('1 234,50 kr');
    expect(money(1234.5, 'RSD', 'nb')).toBe('1 234,50 RSD');
    expect(money(1234.5, 'NOK', 'en')).toBe('1,234.50 NOK');
    expect(money(1234.5, 'PLN', 'pl')).toBe('1 234,50 PLN');
    expect(money(1234.5, 'TRY', 'tr')).toBe('1.234,50 TRY');
    expect(money(0.005, 'EUR', 'bs')).toBe('0,01 EUR');
  });
});

describe('amounts in Urdu (right to left)', () => {
  it('are isolated as one left-to-right unit so the minus sign and the code stay in place', () => {
    expect(money(-1000, 'NOK', 'ur')).toBe('\u2066-1,000.00 NOK\u2069');
  });
});

describe('Bosnian dates', () => {
  const write = (l: string) =>
    new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeZone: 'Europe/Oslo' }).format(
      new Date('2026-11-28T10:00:00Z'),
    );
  it('are Bosnian where the runtime has the data (Node has it), else Serbian Latin as written in Bosnia', () => {
    expect(bosnianIntl()).toBe('bs-Latn-BA');
    expect(bosnianIntl(false)).toBe('sr-Latn-BA');
    expect(write(bosnianIntl(false))).toMatch(/^28\. ?11\. ?2026\.$/);
    expect(new Intl.RelativeTimeFormat(bosnianIntl(false), { numeric: 'auto' }).format(-5, 'minute')).toBe(
      'prije 5 minuta',
    );
  });
});

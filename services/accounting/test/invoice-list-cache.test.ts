import { describe, expect, it } from 'vitest';
import { InvoiceListCache } from '../src/modules/invoices/invoice-list-cache.js';

const page = { offset: 0, perPage: 20, page: 1, sort: 'invoiceDate', order: 'desc' } as const;
const ORG_A = '00000000-0000-4000-8000-00000000000a';
const ORG_B = '00000000-0000-4000-8000-00000000000b';

describe('InvoiceListCache', () => {
  it('keys a page by organization, day, sort, order, page and every filter', () => {
    const base = InvoiceListCache.key(ORG_A, {}, page, '2026-11-25');
    const variants = [
      InvoiceListCache.key(ORG_B, {}, page, '2026-11-25'),
      InvoiceListCache.key(ORG_A, {}, page, '2026-11-26'), // overdue is computed against the day
      InvoiceListCache.key(ORG_A, {}, { ...page, sort: 'dueDate' }, '2026-11-25'),
      InvoiceListCache.key(ORG_A, {}, { ...page, order: 'asc' }, '2026-11-25'),
      InvoiceListCache.key(ORG_A, {}, { ...page, perPage: 21 }, '2026-11-25'),
      InvoiceListCache.key(ORG_A, {}, { ...page, offset: 20, page: 2 }, '2026-11-25'),
      InvoiceListCache.key(ORG_A, { customerId: ORG_B }, page, '2026-11-25'),
      InvoiceListCache.key(ORG_A, { fromDate: '2026-01-01' }, page, '2026-11-25'),
      InvoiceListCache.key(ORG_A, { toDate: '2026-01-01' }, page, '2026-11-25'),
      InvoiceListCache.key(ORG_A, { status: 'paid' }, page, '2026-11-25'),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
    expect(InvoiceListCache.key(ORG_A, {}, { ...page }, '2026-11-25')).toBe(base);
  });

  it('drops the least recently used page past its bound and never keeps an oversized one', () => {
    const cache = new InvoiceListCache(2, 10);
    cache.set('a', '1', 'A');
    cache.set('b', '1', 'B');
    expect(cache.get('a')?.text).toBe('A'); // a is now the most recent
    cache.set('c', '1', 'C');
    expect([cache.get('a')?.text, cache.get('b'), cache.get('c')?.text]).toEqual(['A', undefined, 'C']);
    cache.set('a', '2', 'x'.repeat(11)); // too large: the old page of that key goes too
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { readPage, totalPages } from './pagination.js';
import { newId, newOpaqueToken, safeEqual, sha256Hex } from './secrets.js';

describe('shared pagination', () => {
  it('defaults to the first page and the default size, and computes the offset', () => {
    expect(readPage({}, 20, 100)).toEqual({ ok: true, window: { page: 1, size: 20, offset: 0 } });
    expect(readPage({ page: '3', size: '50' }, 20, 100)).toEqual({
      ok: true,
      window: { page: 3, size: 50, offset: 100 },
    });
    expect(totalPages(101, 50)).toBe(3);
  });

  it('names every field out of range, page first', () => {
    expect(readPage({ page: '0', size: '101' }, 20, 100)).toEqual({ ok: false, invalid: ['page', 'size'] });
    expect(readPage({ size: '0' }, 20, 100)).toEqual({ ok: false, invalid: ['size'] });
    expect(readPage({ page: 1.5 }, 20, 100)).toEqual({ ok: false, invalid: ['page'] });
  });
});

describe('shared secrets and ids', () => {
  it('compares secrets by value, also when the lengths differ', () => {
    expect(safeEqual('state-123', 'state-123')).toBe(true);
    expect(safeEqual('state-123', 'state-124')).toBe(false);
    expect(safeEqual('state-123', 'state-1234')).toBe(false);
  });

  it('makes prefixed ids and opaque tokens whose stored hash is their sha256', () => {
    expect(newId('noti', 8)).toMatch(/^noti_[0-9a-f]{16}$/);
    expect(newId('usr')).toMatch(/^usr_[0-9a-f]{24}$/);
    const { token, hash } = newOpaqueToken();
    expect(hash).toBe(sha256Hex(token));
    expect(newOpaqueToken().token).not.toBe(token);
  });

  it('never hands out the same id twice across refills of its random pool', () => {
    // 4 KiB pool: 20,000 ids of 12 bytes cross it about 60 times, ids of odd sizes straddle its end.
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(newId('x', 8 + (i % 13)));
    expect(seen.size).toBe(20_000);
    const long = newId('big', 5000);
    expect(long).toMatch(/^big_[0-9a-f]{10000}$/);
  });
});

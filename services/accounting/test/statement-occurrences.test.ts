import { describe, expect, it } from 'vitest';
import { OccurrenceCounter } from '../src/modules/banking/statement-csv.js';

/** The rule as a Map of whole keys would count it: the reference the compact counter must equal. */
function naive(rows: Array<[string, string, string, string]>) {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const key = r.join('\u0000');
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n;
  });
}

function random(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

const fnv1a = (text: string) => {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text)) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
};

describe('OccurrenceCounter (A14 n-th occurrence rule)', () => {
  it('keeps two keys with one 32-bit hash apart', () => {
    // Two descriptions whose whole keys share the counter's hash (FNV-1a), found by search.
    const key = (d: string) => ['2026-01-01', '10', d, ''].join('\u0000');
    const byHash = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const d = `d${i}`;
      const h = fnv1a(key(d));
      const other = byHash.get(h);
      if (other) pair = [other, d];
      else byHash.set(h, d);
    }
    const [a, b] = pair;
    const c = new OccurrenceCounter();
    expect([a, b, a, b, b, a].map((d) => c.add('2026-01-01', '10', d, ''))).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('counts repeated keys and tells apart keys that differ only in where a field ends', () => {
    const c = new OccurrenceCounter();
    expect(c.add('2026-01-01', '10', 'ab', 'c')).toBe(1);
    expect(c.add('2026-01-01', '10', 'a', 'bc')).toBe(1);
    expect(c.add('2026-01-01', '10', 'ab', 'c')).toBe(2);
    expect(c.add('2026-01-01', '10', 'ab', 'c')).toBe(3);
    expect(c.add('2026-01-01', '1', '0ab', 'c')).toBe(1);
    expect(c.add('2026-01-01', '10', 'Čačak 😀', '')).toBe(1);
    expect(c.add('2026-01-01', '10', 'Čačak 😀', '')).toBe(2);
    expect(c.add('2026-01-02', '10', 'ab', 'c')).toBe(1);
  });

  it('equals the whole-key count over 300,000 rows with growth of every part', () => {
    // 300,000 rows over up to 250,000 keys, repeats at random distances, some keys 400 bytes long.
    const rnd = random(42);
    const rows: Array<[string, string, string, string]> = [];
    for (let i = 0; i < 300_000; i++) {
      const k = Math.floor(rnd() * 250_000);
      const long = k % 97 === 0 ? 'x'.repeat(400) : '';
      rows.push([
        `2026-0${(k % 9) + 1}-1${k % 10}`,
        String((k % 5000) - 2500 || 1),
        `Uplata ${k} ž${long}`,
        k % 3 ? `RF${k}` : '',
      ]);
    }
    const c = new OccurrenceCounter();
    const got = rows.map((r) => c.add(...r));
    const want = naive(rows);
    expect(got).toEqual(want);
    expect(want.reduce((a, b) => Math.max(a, b), 0)).toBeGreaterThan(3);
  });
});

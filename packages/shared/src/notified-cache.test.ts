import { describe, expect, it } from 'vitest';
import { NotifiedCache } from './notified-cache.js';

function cache(opts: { maxEntries?: number; maxAgeMs?: number } = {}) {
  let now = 1_000;
  const c = new NotifiedCache<string>({
    maxEntries: opts.maxEntries ?? 10,
    maxAgeMs: opts.maxAgeMs ?? 60_000,
    now: () => now,
  });
  c.setListening(true);
  return { c, advance: (ms: number) => (now += ms) };
}

describe('NotifiedCache', () => {
  it('serves what it stored until a tag of the entry is invalidated', () => {
    const { c } = cache();
    expect(c.set('s1', 'alice', ['s:1', 'u:a'], c.ticket())).toBe(true);
    expect(c.set('s2', 'alice again', ['s:2', 'u:a'], c.ticket())).toBe(true);
    expect(c.set('s3', 'bob', ['s:3', 'u:b'], c.ticket())).toBe(true);
    c.invalidate('s:1');
    expect(c.get('s1')).toBeUndefined();
    expect(c.get('s2')).toBe('alice again');
    c.invalidate('u:a');
    expect(c.get('s2')).toBeUndefined();
    expect(c.get('s3')).toBe('bob');
    c.invalidate('u:nobody');
    expect(c.get('s3')).toBe('bob');
    expect(c.size).toBe(1);
  });

  it('refuses a value read before an invalidation it has not seen', () => {
    const { c } = cache();
    const ticket = c.ticket();
    // The read is under way when another session's change arrives: its value may be older.
    c.invalidate('u:someone-else');
    expect(c.set('s1', 'stale?', ['s:1'], ticket)).toBe(false);
    expect(c.get('s1')).toBeUndefined();
    expect(c.set('s1', 'fresh', ['s:1'], c.ticket())).toBe(true);
    expect(c.get('s1')).toBe('fresh');
  });

  it('serves and stores nothing while no connection listens, and starts empty when one does', () => {
    const { c } = cache();
    c.set('s1', 'alice', ['s:1'], c.ticket());
    c.setListening(false);
    expect(c.get('s1')).toBeUndefined();
    expect(c.ticket()).toBe(-1);
    expect(c.set('s1', 'alice', ['s:1'], c.ticket())).toBe(false);
    const before = c.ticket();
    c.setListening(true);
    // Entries kept from before, or read while nobody listened, might have missed a change.
    expect(c.get('s1')).toBeUndefined();
    expect(c.set('s1', 'read while deaf', ['s:1'], before)).toBe(false);
    expect(c.set('s1', 'alice', ['s:1'], c.ticket())).toBe(true);
  });

  it('lets an entry expire after maxAgeMs', () => {
    const { c, advance } = cache({ maxAgeMs: 5_000 });
    c.set('s1', 'alice', ['s:1'], c.ticket());
    advance(4_999);
    expect(c.get('s1')).toBe('alice');
    advance(1);
    expect(c.get('s1')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('lets an entry stored with a shorter maxAgeMs expire sooner, never later than the cache allows', () => {
    const { c, advance } = cache({ maxAgeMs: 5_000 });
    c.set('short', 'profile', ['u:a'], c.ticket(), 1_000);
    c.set('long', 'session', ['u:a'], c.ticket(), 60_000);
    advance(1_000);
    expect(c.get('short')).toBeUndefined();
    expect(c.get('long')).toBe('session');
    advance(4_000);
    expect(c.get('long')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest stored, and its tags with it', () => {
    const { c } = cache({ maxEntries: 2 });
    c.set('s1', 'one', ['u:a'], c.ticket());
    c.set('s2', 'two', ['u:a'], c.ticket());
    c.set('s3', 'three', ['u:b'], c.ticket());
    expect(c.get('s1')).toBeUndefined();
    expect([c.get('s2'), c.get('s3')]).toEqual(['two', 'three']);
    // Storing a key again replaces it and moves it to the back.
    c.set('s2', 'two again', ['u:c'], c.ticket());
    c.set('s4', 'four', ['u:d'], c.ticket());
    expect(c.get('s3')).toBeUndefined();
    expect(c.get('s2')).toBe('two again');
    // s2's old tag no longer reaches it.
    c.invalidate('u:a');
    expect(c.get('s2')).toBe('two again');
    c.invalidate('u:c');
    expect(c.get('s2')).toBeUndefined();
  });

  it('stores nothing with maxEntries 0', () => {
    const { c } = cache({ maxEntries: 0 });
    expect(c.set('s1', 'one', ['u:a'], c.ticket())).toBe(false);
    expect(c.get('s1')).toBeUndefined();
  });
});

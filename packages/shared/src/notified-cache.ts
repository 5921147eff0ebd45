import type { RawPool } from './db/raw-client.js';

/**
 * A per-instance cache of rows that PostgreSQL tells it about: triggers on the rows' tables
 * `pg_notify` a tag (`u:<user id>`, `s:<session id>`...) at commit, and every entry stored with
 * that tag is dropped. Used for the signed-in caller (both services' session look-ups), which
 * every authenticated request would otherwise read.
 *
 * What makes it safe to answer from:
 * - The instance that commits a change drops the entries before its COMMIT resolves (the
 *   connection that committed delivers its own notifications first, RawPool.listen), so the
 *   request that revoked a session, changed a role or deactivated a user has already taken
 *   effect here when it answers. Other instances drop them when the notification reaches them
 *   (a few milliseconds: it is pushed to their idle connections as the commit completes).
 * - A read that was under way when something changed is not stored: `ticket()` is taken before
 *   the read and `set` refuses it once any tag was dropped since (one generation counter for the
 *   whole cache: coarse, so a busy write load stores less, but never a value read before a change
 *   it has not seen).
 * - While no connection listens (at start, or after the pool closed its idle connections) nothing
 *   is served or stored, and the cache starts empty when one listens again: no notification can
 *   have been missed for an entry that is served.
 * - Entries expire after `maxAgeMs` whatever happens, and the cache holds at most `maxEntries`
 *   (the oldest stored goes first).
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, { value: V; tags: readonly string[]; expiresAt: number }>();
  private readonly byTag = new Map<string, Set<string>>();
  private generation = 0;
  private live = false;

  constructor(private readonly opts: { maxEntries: number; maxAgeMs: number; now?: () => number }) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before the read whose result `set` may store. */
  ticket(): number {
    return this.live ? this.generation : -1;
  }

  /**
   * Stores `value` unless something was dropped since `ticket` was taken. Returns whether it did.
   * `maxAgeMs` shortens the cache's own for this entry (a value whose changes are not notified).
   */
  set(key: string, value: V, tags: readonly string[], ticket: number, maxAgeMs = this.opts.maxAgeMs): boolean {
    if (!this.live || ticket !== this.generation || this.opts.maxEntries <= 0) return false;
    if (this.entries.has(key)) this.delete(key);
    else if (this.entries.size >= this.opts.maxEntries) this.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, tags, expiresAt: this.now() + Math.min(maxAgeMs, this.opts.maxAgeMs) });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.byTag.set(tag, keys);
      }
      keys.add(key);
    }
    return true;
  }

  /** Drops every entry stored with `tag`, and makes reads under way store nothing. */
  invalidate(tag: string): void {
    this.generation++;
    const keys = this.byTag.get(tag);
    if (keys) for (const key of [...keys]) this.delete(key);
  }

  /** Serves and stores only while `up`; empty either way (what happened before is unknown). */
  setListening(up: boolean): void {
    this.generation++;
    this.entries.clear();
    this.byTag.clear();
    this.live = up;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byTag.delete(tag);
    }
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }
}

/**
 * Connects a cache to a channel of the pool: each notification's payload is a tag to drop. With
 * `enabled` false the cache never serves (SESSION_CACHE=off: every request reads the database).
 */
export async function listenForInvalidations(
  pool: RawPool,
  channel: string,
  cache: NotifiedCache<unknown>,
  enabled = true,
): Promise<() => void> {
  if (!enabled) return () => {};
  const stop = await pool.listen(channel, {
    notify: (tag) => cache.invalidate(tag),
    listening: (up) => cache.setListening(up),
  });
  return () => {
    stop();
    cache.setListening(false);
  };
}

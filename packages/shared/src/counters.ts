import type { Redis } from 'ioredis';

/**
 * Shared state for limits and revocations (G4): Redis when REDIS_URL is set, so several
 * instances enforce one limit; otherwise process memory (single instance).
 */
export interface CounterStore {
  /** Adds one hit to `key` in a fixed window; returns the count and when the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** Sets `key` until `ms` from now. */
  flag(key: string, ms: number): Promise<void>;
  /** When a flag ends (epoch ms), or null. */
  flaggedUntil(key: string): Promise<number | null>;
  close(): Promise<void>;
}

export function memoryCounterStore(): CounterStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const flags = new Map<string, number>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, v] of windows) if (v.resetAt <= now) windows.delete(k);
    for (const [k, v] of flags) if (v <= now) flags.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, resetAt: w.resetAt };
    },
    async flag(key, ms) {
      flags.set(key, Date.now() + ms);
    },
    async flaggedUntil(key) {
      const until = flags.get(key);
      return until && until > Date.now() ? until : null;
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

export function redisCounterStore(redis: Redis, prefix: string): CounterStore {
  return {
    async hit(key, windowMs) {
      const k = `${prefix}:w:${key}`;
      const [[, count], [, ttl]] = (await redis.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
      let remaining = ttl;
      if (ttl < 0) {
        await redis.pexpire(k, windowMs);
        remaining = windowMs;
      }
      return { count, resetAt: Date.now() + remaining };
    },
    async flag(key, ms) {
      await redis.set(`${prefix}:f:${key}`, String(Date.now() + ms), 'PX', ms);
    },
    async flaggedUntil(key) {
      const v = await redis.get(`${prefix}:f:${key}`);
      return v ? Number(v) : null;
    },
    async close() {},
  };
}

/**
 * The Redis client of both services (G4). A command waits for at most one reconnection, so an
 * unreachable Redis fails a request (or is skipped, see registerRateLimits) instead of hanging it.
 */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded on use: without REDIS_URL the client's ~60 modules never enter the process.
  const { Redis } = await import('ioredis');
  return new Redis(url, {
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
}

export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

import { createRequire } from 'node:module';
import rateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

export interface RateLimitOptions {
  /** config.rateLimits: RATE_LIMITS=off switches every limit off (G6). */
  enabled: boolean;
  /** Counters in Redis when REDIS_URL is set, so several instances enforce one limit (G4). */
  redis: Redis | null;
  /** Key prefix of the counters in Redis. */
  nameSpace: string;
  /** Requests per minute, for every route or per request. */
  max: number | ((request: FastifyRequest) => number);
  /** With Redis unreachable: let requests through (true) or fail them (false); see memoryFallback. */
  skipOnError: boolean;
  /**
   * With Redis unreachable: count in this process's memory until Redis answers again (each
   * instance then enforces the limit on its own); skipOnError no longer applies.
   */
  memoryFallback?: boolean;
  keyGenerator?: (request: FastifyRequest) => string;
  allowList?: (request: FastifyRequest) => boolean;
  /** The service's own 429 error; retryAfterSeconds is at least 1. */
  tooMany: (retryAfterSeconds: number) => Error;
}

/**
 * Per-minute limits on every route (a route's own `config.rateLimit` overrides them), answered
 * with the service's 429 error. Off: logs the warning G6 asks for and registers nothing.
 * Returns whether the limits are on.
 */
export async function registerRateLimits(app: FastifyInstance, opts: RateLimitOptions): Promise<boolean> {
  if (!opts.enabled) {
    app.log.warn('RATE_LIMITS=off: every rate limit is disabled');
    return false;
  }
  await app.register(rateLimit, {
    global: true,
    max: opts.max,
    timeWindow: 60_000,
    ...(opts.redis && opts.memoryFallback
      ? { store: fallbackStore(opts.redis, opts.nameSpace, app.log) }
      : { redis: opts.redis ?? undefined, nameSpace: opts.nameSpace, skipOnError: opts.skipOnError }),
    ...(opts.keyGenerator ? { keyGenerator: opts.keyGenerator } : {}),
    ...(opts.allowList ? { allowList: opts.allowList } : {}),
    errorResponseBuilder: (_request, context) => opts.tooMany(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  return true;
}

type Store = FastifyRateLimitStore & {
  read?(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
};
type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];
type StoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => Store;

// The plugin's own stores (CommonJS, not in its type declarations).
const requireStore = createRequire(import.meta.url);
const RedisStore = requireStore('@fastify/rate-limit/store/RedisStore.js') as StoreClass;
const LocalStore = requireStore('@fastify/rate-limit/store/LocalStore.js') as StoreClass;

/**
 * Counters in Redis while it answers; while it does not (not connected, or a command fails), in
 * this process's memory, so an outage weakens the limits to per instance instead of lifting them.
 * A disconnected client is not waited for: the memory store answers at once.
 */
function fallbackStore(redis: Redis, nameSpace: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  let degraded = false;
  const fallBack = (err: Error | null) => {
    if (!degraded) log.warn({ err: err?.message }, 'Redis unreachable: rate limits counted in memory (per instance)');
    degraded = true;
  };
  const recovered = () => {
    if (degraded) log.info('Redis reachable again: rate limits shared through Redis');
    degraded = false;
  };

  class FallbackStore implements Store {
    constructor(
      private readonly remote: Store,
      private readonly local: Store,
    ) {}

    private call(method: 'incr' | 'read', key: string, cb: StoreCallback, timeWindow: number, max: number): void {
      const local = () => (this.local[method] ?? this.local.incr).call(this.local, key, cb, timeWindow, max);
      if (redis.status !== 'ready') {
        fallBack(null);
        local();
        return;
      }
      const remote = this.remote[method] ?? this.remote.incr;
      remote.call(
        this.remote,
        key,
        (err, res) => {
          if (err) {
            fallBack(err);
            local();
            return;
          }
          recovered();
          cb(null, res);
        },
        timeWindow,
        max,
      );
    }

    incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void {
      this.call('incr', key, cb, timeWindow, max);
    }

    read(key: string, cb: StoreCallback, timeWindow: number, max: number): void {
      this.call('read', key, cb, timeWindow, max);
    }

    child(routeOptions: RouteOptions): Store {
      return new FallbackStore(this.remote.child(routeOptions), this.local.child(routeOptions));
    }
  }

  // The plugin constructs its store with `new store(globalParams)`.
  return class extends FallbackStore {
    constructor(options: FastifyRateLimitOptions) {
      const o = options as { continueExceeding?: boolean; exponentialBackoff?: boolean };
      const ce = o.continueExceeding === true;
      const eb = o.exponentialBackoff === true;
      super(new RedisStore(ce, eb, redis, nameSpace), new LocalStore(ce, eb));
    }
  };
}

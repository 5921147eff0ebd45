import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  /** With Redis unreachable: let requests through (true) or fail them (false). */
  skipOnError: boolean;
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
    redis: opts.redis ?? undefined,
    nameSpace: opts.nameSpace,
    skipOnError: opts.skipOnError,
    ...(opts.keyGenerator ? { keyGenerator: opts.keyGenerator } : {}),
    ...(opts.allowList ? { allowList: opts.allowList } : {}),
    errorResponseBuilder: (_request, context) => opts.tooMany(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  return true;
}

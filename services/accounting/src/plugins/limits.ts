import type { CounterStore } from '@app/shared/counters';
import { registerRateLimits } from '@app/shared/rate-limits';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/errors.js';

export interface LimitsOptions {
  enabled: boolean;
  redis: Redis | null;
  counters: CounterStore;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requests per minute for this route (spec Limits); default 100. */
    perMinute?: number;
    /** Register and login: the shared per-IP lockout window (A17). */
    lockout?: boolean;
  }
}

export const LOCKOUT = { max: 5, windowMs: 60_000, lockMs: 900_000 } as const;

/**
 * Per-route limits per user (per IP before sign-in), 429 SVC-9005 with Retry-After; and the
 * sign-in lockout: register and login share one per-IP window of 5 requests per 60 s, the 6th is
 * answered 429 SVC-1007 and the IP stays locked for 900 s. RATE_LIMITS=off disables both (G6).
 */
export const limitsPlugin = fp(async (app: FastifyInstance, opts: LimitsOptions) => {
  const on = await registerRateLimits(app, {
    enabled: opts.enabled,
    redis: opts.redis,
    nameSpace: 'acc-rl-',
    max: (request: FastifyRequest) => request.routeOptions.config?.perMinute ?? 100,
    skipOnError: false,
    // Register and login are limited by the lockout window below (5/min per IP), not twice.
    allowList: (request: FastifyRequest) => request.routeOptions.config?.lockout === true,
    keyGenerator: (request: FastifyRequest) =>
      `${request.method}:${request.routeOptions.url}:${request.auth?.userId ?? request.ip}`,
    tooMany: (retryAfter) => new AppError('SVC-9005', undefined, { 'retry-after': retryAfter }),
  });
  // RATE_LIMITS=off switches the sign-in lockout off too.
  if (!on) return;

  const { counters } = opts;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.lockout) return;
    const key = `lockout:${request.ip}`;
    const lockedUntil = await counters.flaggedUntil(key);
    const locked = (until: number) =>
      new AppError('SVC-1007', undefined, {
        'retry-after': Math.max(1, Math.ceil((until - Date.now()) / 1000)),
        'x-ratelimit-limit': LOCKOUT.max,
        'x-ratelimit-remaining': 0,
        'x-ratelimit-reset': Math.ceil(until / 1000),
      });
    if (lockedUntil) throw locked(lockedUntil);
    const { count, resetAt } = await counters.hit(`signin:${request.ip}`, LOCKOUT.windowMs);
    if (count > LOCKOUT.max) {
      const until = Date.now() + LOCKOUT.lockMs;
      await counters.flag(key, LOCKOUT.lockMs);
      const err = locked(until);
      (err.headers as Record<string, number>)['retry-after'] = LOCKOUT.lockMs / 1000;
      throw err;
    }
    reply.header('x-ratelimit-limit', LOCKOUT.max);
    reply.header('x-ratelimit-remaining', LOCKOUT.max - count);
    reply.header('x-ratelimit-reset', Math.ceil(resetAt / 1000));
  });
});

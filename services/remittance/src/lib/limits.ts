import type { FastifyInstance, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requests per minute for this route, per IP here (R15); default 100 (accounting counts per user). */
    perMinute?: number;
  }
}

/** Per-IP limits of R15 (the plugin's default is 100/min), named in the routes' config. */
export const LIMIT_AUTH = { perMinute: 10 };
/** Remittance and QR payment: 10/min per IP (spec Limits). */
export const LIMIT_PAYMENTS = { perMinute: 10 };
export const LIMIT_RATES = { perMinute: 120 };

/**
 * A route's `config.perMinute` becomes the rate-limit plugin's own per-route limit (`config.rateLimit`, a
 * counter per route and IP). Added before the plugin is registered, so the plugin's onRoute hook sees it.
 */
export function perMinuteLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const perMinute = route.config?.perMinute;
    if (perMinute !== undefined) route.config = { ...route.config, rateLimit: { max: perMinute, timeWindow: 60_000 } };
  });
}

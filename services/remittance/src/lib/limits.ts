/** Per-IP limits of R15 (the plugin's default is 100/min), named in the routes' config. */
export const LIMIT_AUTH = { rateLimit: { max: 10, timeWindow: 60_000 } };
/** Remittance and QR payment: 10/min per IP (spec Limits). */
export const LIMIT_PAYMENTS = { rateLimit: { max: 10, timeWindow: 60_000 } };
export const LIMIT_RATES = { rateLimit: { max: 120, timeWindow: 60_000 } };

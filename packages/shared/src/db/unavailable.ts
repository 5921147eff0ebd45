/**
 * G15: a database that cannot be reached, or a connection lost mid-request, is an outage the
 * client should retry, not an unhandled error. The raw pools (raw-client.ts) turn every such
 * failure into DatabaseUnavailableError; each service maps it to its outage answer
 * (accounting 500 SVC-9006, remittance 503 service_unavailable, both with Retry-After: 1).
 * A query that fails for another reason (constraint, syntax, serialization) keeps its error.
 */
export class DatabaseUnavailableError extends Error {
  readonly code = 'DB_UNAVAILABLE';
  constructor(cause: unknown) {
    super(`database unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** Seconds a client should wait before retrying after an outage answer. */
export const OUTAGE_RETRY_AFTER_SECONDS = 1;

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now,
// 53300 too_many_connections; class 08 is connection exceptions.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

// What node-postgres and PGlite say when the socket or the pool is gone; they carry no code.
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Cannot use a pool after calling end|PGlite is closed|Connection refused/i;

/** True for an error that means "the database is not reachable right now". */
export function isConnectivityError(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  // AggregateError from a connect that tried several addresses (IPv4 and IPv6).
  if (err instanceof AggregateError && err.errors.some(isConnectivityError)) return true;
  return MESSAGES.test(err.message);
}

/** Rethrows a connectivity failure as DatabaseUnavailableError, anything else unchanged. */
export function classifyDatabaseError(err: unknown): unknown {
  return isConnectivityError(err) && !(err instanceof DatabaseUnavailableError)
    ? new DatabaseUnavailableError(err)
    : err;
}

/** The outage error anywhere in a cause chain (services may wrap the database's error). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
  }
  return false;
}

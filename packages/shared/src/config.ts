import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

/** Thrown at boot; server.ts prints the one-line reason and exits. */
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** '2s', '15m', '7d', '500ms' -> milliseconds. */
export function parseDuration(name: string, value: string | undefined, fallback: string): number {
  const text = (value ?? fallback).trim();
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!m) throw new ConfigError(`${name} must look like 15m, 7d or 30s (got "${text}")`);
  return Number(m[1]) * UNITS[m[2]];
}

export function parseBool(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
}

export function parsePort(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number`);
  return n;
}

export type NodeEnv = 'production' | 'development' | 'test';

export function parseNodeEnv(value: string | undefined): NodeEnv {
  const v = value ?? 'development';
  if (v !== 'production' && v !== 'development' && v !== 'test') {
    throw new ConfigError(`NODE_ENV must be production, development or test (got "${v}")`);
  }
  return v;
}

/**
 * A secret from the environment; outside production a missing one is generated once and kept
 * in DATA_DIR so restarts keep sessions valid. Production refuses to start without it (G8).
 */
export function loadSecret(opts: {
  name: string;
  value: string | undefined;
  nodeEnv: NodeEnv;
  dataDir: string;
}): string {
  const { name, value, nodeEnv, dataDir } = opts;
  if (value) {
    if (value.length < 32) throw new ConfigError(`${name} must be at least 32 characters`);
    return value;
  }
  if (nodeEnv === 'production') throw new ConfigError(`${name} is required in production`);
  const file = join(dataDir, 'secrets', `${name.toLowerCase()}`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Non-negative whole number from the environment (counts, seconds). */
export function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer`);
  return n;
}

/** BCRYPT_COST: 4-15, default 10; production refuses a cost below 10 (a cheap hash is a weak one). */
export function parseBcryptCost(value: string | undefined, nodeEnv: NodeEnv): number {
  const cost = value ? Number(value) : 10;
  if (!Number.isInteger(cost) || cost < 4 || cost > 15)
    throw new ConfigError('BCRYPT_COST must be an integer from 4 to 15');
  if (nodeEnv === 'production' && cost < 10) throw new ConfigError('BCRYPT_COST below 10 is refused in production');
  return cost;
}

/** A setting production must be given (G8); elsewhere the development fallback. */
export function requiredInProduction(
  nodeEnv: NodeEnv,
  name: string,
  value: string | undefined,
  fallback: string,
): string {
  if (value) return value;
  if (nodeEnv === 'production') throw new ConfigError(`${name} is required in production`);
  return fallback;
}

/** The `version` of the package.json in `dir` (the service's root): health and /docs report it. */
export function packageVersion(dir: string): string {
  try {
    return String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version);
  } catch {
    return '0.0.0';
  }
}

/**
 * TRUST_PROXY: false (the socket address is the client), a number of proxy hops in front of the
 * service, or a comma-separated list of the proxies' addresses or CIDR ranges. Fastify then takes
 * as the client the first X-Forwarded-For entry, from the right, not added by a trusted hop; the
 * entries left of it are the client's own writing and are never used. `true` means one hop: trusting
 * every hop made the leftmost entry, which the client writes, the address of every limit (issue 33).
 * A hop count trusts the socket peer without checking it: only for a service reachable solely
 * through its proxies; the addresses of the proxies are the safer form.
 */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || /^(false|off|no)$/i.test(text)) return false;
  if (/^(true|on|yes)$/i.test(text)) return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 16) throw new ConfigError('TRUST_PROXY must be at most 16 hops');
    return hops === 0 ? false : hops;
  }
  const entries = text.split(',').map((s) => s.trim());
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !bitsOk || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a hop count, or proxy addresses/CIDR ranges separated by commas (got "${entry}")`,
      );
    }
  }
  return entries;
}

/** The variables both services read the same way (G1b, G2 host, G3 DATA_DIR, G4, G5, G6). */
export interface CommonConfig {
  nodeEnv: NodeEnv;
  host: string;
  dataDir: string;
  redisUrl: string | null;
  /** Which hops in front of the service are trusted to set X-Forwarded-For (parseTrustProxy). */
  trustProxy: TrustProxy;
  /** RATE_LIMITS=off (or false, 0, no) switches every limit off (G6). */
  rateLimits: boolean;
  logLevel: string;
  /**
   * The signed-in caller kept in memory between requests, dropped when PostgreSQL notifies a change
   * (notified-cache.ts). SESSION_CACHE=off reads the session from the database on every request;
   * SESSION_CACHE_MAX_AGE bounds how long an entry is served even without a change (default 60s).
   */
  sessionCache: { enabled: boolean; maxAgeMs: number };
  /**
   * The weak settings production was told to accept (ALLOW_* variables, issue 33 item 7), one line
   * each; the app logs every one as a warning at start-up.
   */
  acceptedWeaknesses: string[];
}

export function loadCommonConfig(env: Env): CommonConfig {
  const nodeEnv = parseNodeEnv(env.NODE_ENV);
  const acceptedWeaknesses: string[] = [];
  const rateLimits = parseBool('RATE_LIMITS', env.RATE_LIMITS, true);
  if (!rateLimits) acceptWeakness(env, nodeEnv, acceptedWeaknesses, 'ALLOW_RATE_LIMITS_OFF', 'RATE_LIMITS=off');
  return {
    acceptedWeaknesses,
    nodeEnv,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    redisUrl: env.REDIS_URL || null,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimits,
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    sessionCache: {
      enabled: parseBool('SESSION_CACHE', env.SESSION_CACHE, true),
      maxAgeMs: parseDuration('SESSION_CACHE_MAX_AGE', env.SESSION_CACHE_MAX_AGE, '60s'),
    },
  };
}

/**
 * Production refuses a weak setting (issue 33 item 7) unless its own opt-in variable is true; an
 * accepted one is added to `accepted`, which the app logs as a warning at start-up. Outside
 * production nothing is refused.
 */
export function acceptWeakness(env: Env, nodeEnv: NodeEnv, accepted: string[], optIn: string, weakness: string): void {
  if (nodeEnv !== 'production') return;
  if (!parseBool(optIn, env[optIn], false))
    throw new ConfigError(`${weakness} is refused in production (set ${optIn}=true to accept it)`);
  accepted.push(`${optIn}=true: ${weakness}`);
}

/** The embedded database (PGlite) in production: one process, no replication (ALLOW_EMBEDDED_DATABASE). */
export function checkDatabaseUrl(common: CommonConfig, env: Env, name: string, url: string): void {
  if (/^postgres(ql)?:\/\//i.test(url)) return;
  acceptWeakness(
    env,
    common.nodeEnv,
    common.acceptedWeaknesses,
    'ALLOW_EMBEDDED_DATABASE',
    `${name} unset: the embedded database`,
  );
}

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;

/**
 * Origins allowed to call with credentials (cookies, CORS with credentials): in production a plain
 * http:// origin or a local one (localhost, 127.x, [::1]) lets any page a developer's browser runs
 * there act as the signed-in user (ALLOW_LOCALHOST_ORIGINS).
 */
export function checkCredentialedOrigins(
  common: CommonConfig,
  env: Env,
  name: string,
  origins: readonly string[],
): void {
  const weak = origins.filter((origin) => {
    try {
      const u = new URL(origin);
      return u.protocol !== 'https:' || LOCAL_HOST.test(u.hostname);
    } catch {
      throw new ConfigError(`${name}: "${origin}" is not an origin`);
    }
  });
  if (weak.length)
    acceptWeakness(
      env,
      common.nodeEnv,
      common.acceptedWeaknesses,
      'ALLOW_LOCALHOST_ORIGINS',
      `${name} allows ${weak.join(', ')} with credentials`,
    );
}

/** Freezes a configuration and everything in it, so no module can change a setting after boot. */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Embedded database location: postgres:// URL, memory://, or DATA_DIR/<name>. */
export function databaseUrl(value: string | undefined, dataDir: string, name: string): string {
  if (value) return value;
  return join(dataDir, name);
}

/** Loads the configuration at boot; a ConfigError stops the process with its one-line reason (G8). */
export function configOrExit<T>(service: string, load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${service}: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

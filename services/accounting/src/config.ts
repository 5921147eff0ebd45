import { resolve } from 'node:path';
import {
  ConfigError,
  databaseUrl,
  loadSecret,
  parseBool,
  parseDuration,
  parseNodeEnv,
  parsePort,
  type Env,
  type NodeEnv,
} from '@app/shared/config';

export interface Config {
  nodeEnv: NodeEnv;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string | null;
  trustProxy: boolean;
  rateLimits: boolean;
  logLevel: string;
  jwtSecret: string;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  refreshTokenTtlRememberMs: number;
  inviteTtlMs: number;
  webOrigin: string;
  corsOrigins: string[];
  bcryptCost: number;
  /** EXCHANGE_RATE_FEED=on imports the ECB daily reference rates at start-up and hourly (A6). */
  exchangeRateFeed: { enabled: boolean; url: string | null };
  /** Invoice e-mail (A11): smtp://user:pass@host:587; null writes .eml files to DATA_DIR/outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Absolute base of links put in e-mails (the public invoice view link, A10). */
  publicBaseUrl: string;
  /** Receipt virus scan (A13): clamd over a Unix socket or TCP; neither set: the built-in EICAR check. */
  clamav: { socket: string | null; host: string | null; port: number; timeoutMs: number };
}

/** Read and validate the environment once (STYLE 13); the result is frozen. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const nodeEnv = parseNodeEnv(env.NODE_ENV);
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const webOrigin = env.WEB_ORIGIN ?? 'http://localhost:5173';
  const bcryptCost = env.BCRYPT_COST ? Number(env.BCRYPT_COST) : 10;
  if (!Number.isInteger(bcryptCost) || bcryptCost < 4 || bcryptCost > 15) throw new ConfigError('BCRYPT_COST must be 4-15');
  if (nodeEnv === 'production' && bcryptCost < 10) throw new ConfigError('BCRYPT_COST below 10 is refused in production');
  return Object.freeze({
    nodeEnv,
    host: env.HOST ?? '127.0.0.1',
    port: parsePort('ACCOUNTING_PORT', env.ACCOUNTING_PORT, 3000),
    dataDir,
    databaseUrl: databaseUrl(env.ACCOUNTING_DATABASE_URL, dataDir, 'accounting'),
    redisUrl: env.REDIS_URL || null,
    trustProxy: parseBool('TRUST_PROXY', env.TRUST_PROXY, false),
    rateLimits: (env.RATE_LIMITS ?? 'on').toLowerCase() !== 'off',
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    jwtSecret: loadSecret({ name: 'JWT_SECRET', value: env.JWT_SECRET, nodeEnv, dataDir }),
    accessTokenTtlMs: parseDuration('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, '15m'),
    refreshTokenTtlMs: parseDuration('REFRESH_TOKEN_TTL', env.REFRESH_TOKEN_TTL, '7d'),
    refreshTokenTtlRememberMs: parseDuration('REFRESH_TOKEN_TTL_REMEMBER', env.REFRESH_TOKEN_TTL_REMEMBER, '30d'),
    inviteTtlMs: parseDuration('INVITE_TTL', env.INVITE_TTL, '7d'),
    webOrigin,
    // The production web origin and the local development origin (spec: Authentication 10).
    corsOrigins: [webOrigin, ...(env.CORS_DEV_ORIGIN ?? 'http://localhost:5173').split(',').map((s) => s.trim())].filter(
      (v, i, a) => v && a.indexOf(v) === i,
    ),
    bcryptCost,
    exchangeRateFeed: {
      enabled: parseBool('EXCHANGE_RATE_FEED', env.EXCHANGE_RATE_FEED, false),
      url: env.EXCHANGE_RATE_FEED_URL || null,
    },
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Ledgerline <invoices@localhost>',
    clamav: {
      socket: env.CLAMAV_SOCKET || null,
      host: env.CLAMAV_HOST || null,
      port: parsePort('CLAMAV_PORT', env.CLAMAV_PORT, 3310),
      timeoutMs: parseDuration('CLAMAV_TIMEOUT', env.CLAMAV_TIMEOUT, '30s'),
    },
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${env.HOST ?? '127.0.0.1'}:${env.ACCOUNTING_PORT || 3000}`).replace(/\/+$/, ''),
  });
}

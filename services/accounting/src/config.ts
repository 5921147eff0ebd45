import { join } from 'node:path';
import {
  acceptWeakness,
  type CommonConfig,
  ConfigError,
  checkCredentialedOrigins,
  checkDatabaseUrl,
  databaseUrl,
  deepFreeze,
  type Env,
  loadCommonConfig,
  loadSecret,
  packageVersion,
  parseBcryptCost,
  parseBool,
  parseDuration,
  parsePort,
} from '@app/shared/config';

/** The NBS credentials come as a set: some without the others stop start-up, naming what is missing. */
function nbsFeedConfig(env: Env): Config['exchangeRateFeed']['nbs'] {
  const names = ['NBS_USERNAME', 'NBS_PASSWORD', 'NBS_LICENCE_ID'] as const;
  const missing = names.filter((n) => !env[n]);
  if (missing.length > 0 && missing.length < names.length) {
    throw new ConfigError(`${missing.join(', ')} must be set with the other NBS credentials`);
  }
  const listType = Number(env.NBS_RATE_LIST ?? '3');
  if (!Number.isInteger(listType) || listType < 1) throw new ConfigError('NBS_RATE_LIST must be a positive integer');
  return {
    url: env.NBS_URL || null,
    credentials:
      missing.length === 0
        ? { username: env.NBS_USERNAME!, password: env.NBS_PASSWORD!, licenceId: env.NBS_LICENCE_ID! }
        : null,
    listType,
  };
}

export interface Config extends CommonConfig {
  /** package.json version, reported by /health and /docs. */
  version: string;
  port: number;
  databaseUrl: string;
  jwtSecret: string;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  refreshTokenTtlRememberMs: number;
  inviteTtlMs: number;
  /** Step-up: disabling 2FA needs a sign-in at most this old (REAUTH_MAX_AGE). */
  reauthMaxAgeMs: number;
  webOrigin: string;
  corsOrigins: string[];
  /** The built web app served at / (W1): WEB_DIR, default apps/accounting-web/dist. */
  webDir: string;
  bcryptCost: number;
  /**
   * EXCHANGE_RATE_FEED=on imports the ECB daily reference rates at start-up and hourly (A6), and
   * the NBS middle rates when NBS_USERNAME, NBS_PASSWORD and NBS_LICENCE_ID are set (all three or
   * none); NBS_URL overrides the NBS service, NBS_RATE_LIST its list type (default 3, middle).
   */
  exchangeRateFeed: {
    enabled: boolean;
    url: string | null;
    nbs: {
      url: string | null;
      credentials: { username: string; password: string; licenceId: string } | null;
      listType: number;
    };
  };
  /** Invoice e-mail (A11): smtp://user:pass@host:587; null writes .eml files to DATA_DIR/outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Absolute base of links put in e-mails (the public invoice view link, A10). */
  publicBaseUrl: string;
  /**
   * How often the postings' moves are folded into the running totals and the day and month sums
   * (LEDGER_FOLD_INTERVAL, default 1s; 0s: never, the reads add every move themselves).
   */
  ledgerFoldIntervalMs: number;
  /** Receipt virus scan (A13): clamd over a Unix socket or TCP; neither set: the built-in EICAR check. */
  clamav: { socket: string | null; host: string | null; port: number; timeoutMs: number };
  /**
   * E-invoice delivery (CONTRACT D): the key that encrypts stored SEF API keys and certificates
   * (SEF_KEY_ENCRYPTION_KEY), SEF_BASE_URL replacing both SEF environments' base URL, the
   * delivery job's tick (SEF_DELIVERY_INTERVAL, 0s: off), the status and intake sync
   * (SEF_SYNC_INTERVAL, 0s: off) and the per-call timeout (SEF_TIMEOUT).
   */
  sef: {
    keyEncryptionKey: string | null;
    baseUrl: string | null;
    deliveryIntervalMs: number;
    syncIntervalMs: number;
    timeoutMs: number;
  };
  /**
   * Croatian fiscalization (D5): FISCALIZATION_BASE_URL replaces the Tax Administration's endpoints;
   * FISCALIZATION_DELIVERY_INTERVAL the tick of the job that sends due messages (0s: off).
   */
  fiscalization: { baseUrl: string | null; timeoutMs: number; deliveryIntervalMs: number };
  /**
   * Croatian e-invoice exchange through an information intermediary (issue 28):
   * INTERMEDIARY_BASE_URL replaces the provider's API base URL of both environments,
   * INTERMEDIARY_SYNC_INTERVAL the tick of the intake of received e-invoices and of the status
   * checks of sent ones, INTERMEDIARY_DELIVERY_INTERVAL the tick of the job that sends due
   * e-invoices (0s: off).
   */
  intermediary: { baseUrl: string | null; timeoutMs: number; syncIntervalMs: number; deliveryIntervalMs: number };
}

/** Read and validate the environment once (STYLE 13); the result is deeply frozen. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const common = loadCommonConfig(env);
  const { nodeEnv, dataDir } = common;
  const port = parsePort('ACCOUNTING_PORT', env.ACCOUNTING_PORT, 3000);
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://${common.host}:${port}`).replace(/\/+$/, '');
  // W1: the app is served by this service, so invitation links open it here unless told otherwise.
  const webOrigin = env.WEB_ORIGIN ?? publicBaseUrl;
  // W1: the Vite development origin is allowed outside production only (unless set explicitly).
  const devOrigins = env.CORS_DEV_ORIGIN ?? (nodeEnv === 'production' ? '' : 'http://localhost:5173');
  const config: Config = {
    ...common,
    version: packageVersion(join(import.meta.dirname, '..')),
    port,
    databaseUrl: databaseUrl(env.ACCOUNTING_DATABASE_URL, dataDir, 'accounting'),
    jwtSecret: loadSecret({ name: 'JWT_SECRET', value: env.JWT_SECRET, nodeEnv, dataDir }),
    accessTokenTtlMs: parseDuration('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, '15m'),
    refreshTokenTtlMs: parseDuration('REFRESH_TOKEN_TTL', env.REFRESH_TOKEN_TTL, '7d'),
    refreshTokenTtlRememberMs: parseDuration('REFRESH_TOKEN_TTL_REMEMBER', env.REFRESH_TOKEN_TTL_REMEMBER, '30d'),
    inviteTtlMs: parseDuration('INVITE_TTL', env.INVITE_TTL, '7d'),
    reauthMaxAgeMs: parseDuration('REAUTH_MAX_AGE', env.REAUTH_MAX_AGE, '10m'),
    webOrigin,
    // The production web origin and the local development origin (spec: Authentication 10).
    corsOrigins: [webOrigin, ...devOrigins.split(',').map((s) => s.trim())].filter(
      (v, i, a) => v && a.indexOf(v) === i,
    ),
    webDir: env.WEB_DIR || join(import.meta.dirname, '..', '..', '..', 'apps', 'accounting-web', 'dist'),
    bcryptCost: parseBcryptCost(env.BCRYPT_COST, nodeEnv),
    exchangeRateFeed: {
      enabled: parseBool('EXCHANGE_RATE_FEED', env.EXCHANGE_RATE_FEED, false),
      url: env.EXCHANGE_RATE_FEED_URL || null,
      nbs: nbsFeedConfig(env),
    },
    ledgerFoldIntervalMs: parseDuration('LEDGER_FOLD_INTERVAL', env.LEDGER_FOLD_INTERVAL, '1s'),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Ledgerline <invoices@localhost>',
    clamav: {
      socket: env.CLAMAV_SOCKET || null,
      host: env.CLAMAV_HOST || null,
      port: parsePort('CLAMAV_PORT', env.CLAMAV_PORT, 3310),
      timeoutMs: parseDuration('CLAMAV_TIMEOUT', env.CLAMAV_TIMEOUT, '30s'),
    },
    publicBaseUrl,
    sef: {
      // Optional in production: without it, SEF keys and certificates cannot be stored (422).
      keyEncryptionKey:
        env.SEF_KEY_ENCRYPTION_KEY || nodeEnv !== 'production'
          ? loadSecret({ name: 'SEF_KEY_ENCRYPTION_KEY', value: env.SEF_KEY_ENCRYPTION_KEY, nodeEnv, dataDir })
          : null,
      baseUrl: env.SEF_BASE_URL ? env.SEF_BASE_URL.replace(/\/+$/, '') : null,
      deliveryIntervalMs: parseDuration('SEF_DELIVERY_INTERVAL', env.SEF_DELIVERY_INTERVAL, '10s'),
      syncIntervalMs: parseDuration('SEF_SYNC_INTERVAL', env.SEF_SYNC_INTERVAL, '15m'),
      timeoutMs: parseDuration('SEF_TIMEOUT', env.SEF_TIMEOUT, '30s'),
    },
    fiscalization: {
      baseUrl: env.FISCALIZATION_BASE_URL ? env.FISCALIZATION_BASE_URL.replace(/\/+$/, '') : null,
      timeoutMs: parseDuration('FISCALIZATION_TIMEOUT', env.FISCALIZATION_TIMEOUT, '30s'),
      deliveryIntervalMs: parseDuration('FISCALIZATION_DELIVERY_INTERVAL', env.FISCALIZATION_DELIVERY_INTERVAL, '10s'),
    },
    intermediary: {
      baseUrl: env.INTERMEDIARY_BASE_URL ? env.INTERMEDIARY_BASE_URL.replace(/\/+$/, '') : null,
      timeoutMs: parseDuration('INTERMEDIARY_TIMEOUT', env.INTERMEDIARY_TIMEOUT, '30s'),
      syncIntervalMs: parseDuration('INTERMEDIARY_SYNC_INTERVAL', env.INTERMEDIARY_SYNC_INTERVAL, '15m'),
      deliveryIntervalMs: parseDuration('INTERMEDIARY_DELIVERY_INTERVAL', env.INTERMEDIARY_DELIVERY_INTERVAL, '10s'),
    },
  };
  // Weak settings production refuses unless accepted by name (issue 33 item 7).
  checkDatabaseUrl(config, env, 'ACCOUNTING_DATABASE_URL', config.databaseUrl);
  checkCredentialedOrigins(config, env, 'WEB_ORIGIN/CORS_DEV_ORIGIN', config.corsOrigins);
  if (!config.clamav.socket && !config.clamav.host)
    acceptWeakness(
      env,
      nodeEnv,
      config.acceptedWeaknesses,
      'ALLOW_BUILTIN_SCANNER',
      'no CLAMAV_SOCKET or CLAMAV_HOST: receipts checked for the EICAR test file only',
    );
  return deepFreeze(config);
}

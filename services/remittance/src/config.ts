import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CommonConfig,
  ConfigError,
  checkCredentialedOrigins,
  checkDatabaseUrl,
  databaseUrl,
  deepFreeze,
  type Env,
  loadCommonConfig,
  loadSecret,
  type NodeEnv,
  packageVersion,
  parseBcryptCost,
  parseBool,
  parseCount,
  parseDuration,
  parsePort,
  requiredInProduction,
} from '@app/shared/config';
import { isValidOrgNumber } from './lib/org-number.js';

export type JwtKeys =
  | { algorithm: 'HS256'; secret: string }
  | { algorithm: 'RS256'; privateKeyPem: string; publicKeyPem: string };

export interface EidConfig {
  mock: boolean;
  /** Name stored in users.auth_provider. */
  provider: string;
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  callbackUrlMobile: string;
  issuer: string | null;
  authorizeUrl: string | null;
  tokenUrl: string | null;
  jwksUrl: string | null;
  /** Pinned ID token signature algorithm. */
  idTokenAlg: string;
  scope: string;
  /** Lifetime of a started sign-in (state, nonce, PKCE verifier). */
  flowTtlMs: number;
  mockCodeTtlMs: number;
  /** Synthetic (Test Norge, month + 80) numbers: only with the mock provider (R5). */
  allowSynthetic: boolean;
}

export interface Config extends CommonConfig {
  /** package.json version, reported by /health and /docs. */
  version: string;
  port: number;
  databaseUrl: string;
  /** Key prefix of the rate-limit counters in Redis (instances sharing limits share it). */
  rateLimitPrefix: string;
  /**
   * Public base URL of this service: the default eID callback, the allowed origin (R4) and the
   * mock provider's and sandbox bank's redirects derive from it, so they name one host.
   */
  publicUrl: string;
  allowedOrigins: string[];
  jwt: JwtKeys & { expiryMs: number; expiryMobileMs: number };
  sessions: {
    /** A login (its first session and every refresh of it) ends this long after the eID sign-in. */
    maxLifetimeMs: number;
    /** Erasure needs an eID sign-in at most this old (step-up). */
    reauthMaxAgeMs: number;
    /** A refreshed token presented again within this long answers 401 without ending the login. */
    refreshGraceMs: number;
  };
  /** Secret key of the national id HMAC (users.national_id_hash). */
  nationalIdPepper: string;
  /** Anti-money-laundering retention of an erased account's kept records. */
  retention: { years: number; purgeIntervalMs: number };
  eid: EidConfig;
  openBanking: {
    provider: 'sandbox' | 'enablebanking';
    /** Set when provider is enablebanking (docs/remittance/open-banking.md). */
    enableBanking: EnableBankingConfig | null;
    consentDays: number;
    unattendedReadsPerDay: number;
    sandboxSettlementMs: number;
    /** Interval of the consent-expiry job; 0 disables the timer (tests call the job directly). */
    expiryJobIntervalMs: number;
    /**
     * A consent expiring within this long is due for renewal: shown as `renewalDue`, and the
     * consent-renewal job (run with the expiry job's interval) notifies its user once.
     */
    renewalWindowMs: number;
    /** Interval of the unattended balance sync (counts against 4 reads a day); 0 disables it. */
    balanceSyncIntervalMs: number;
    /** Interval of the payment settlement job (status of processing remittances); 0 disables it. */
    settlementIntervalMs: number;
  };
  features: {
    notifications: boolean;
    /** R14: card routes exist only while on; each sub-feature also needs `cards`. */
    cards: boolean;
    physicalCards: boolean;
    cardPin: boolean;
    spendingLimits: boolean;
  };
  /** bcrypt cost of card PINs (4-15; production refuses below 10). */
  bcryptCost: number;
  rates: {
    feed: boolean;
    feedUrl: string;
    refreshIntervalMs: number;
    staleAfterMs: number;
  };
  /** The built web app served at / (W2): REMITTANCE_WEB_DIR, default apps/remittance-web/dist. */
  webDir: string;
  /** The company that issues the receipts (D-PDF4): printed on every receipt PDF. */
  receiptIssuer: { name: string; orgNumber: string; address: string; contact: string };
}

export interface EnableBankingConfig {
  appId: string;
  /** PEM; never logged. */
  privateKeyPem: string;
  apiUrl: string;
  /** The callback to register in Enable Banking's control panel: REMITTANCE_PUBLIC_URL + /api/open-banking/callback. */
  redirectUrl: string;
  aspsp: { name: string; country: string } | null;
  timeoutMs: number;
}

/**
 * OPEN_BANKING_PROVIDER=enablebanking: the application id and private key (inline, or a file
 * with _FILE) and the bank consents start at. Each missing one is named in one line.
 */
function loadEnableBanking(env: Env, publicUrl: string): EnableBankingConfig {
  const appId = env.ENABLE_BANKING_APP_ID?.trim();
  if (!appId) throw new ConfigError('ENABLE_BANKING_APP_ID is required with OPEN_BANKING_PROVIDER=enablebanking');
  let privateKeyPem = env.ENABLE_BANKING_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (!privateKeyPem && env.ENABLE_BANKING_PRIVATE_KEY_FILE) {
    try {
      privateKeyPem = readFileSync(env.ENABLE_BANKING_PRIVATE_KEY_FILE, 'utf8');
    } catch {
      throw new ConfigError(`ENABLE_BANKING_PRIVATE_KEY_FILE cannot be read (${env.ENABLE_BANKING_PRIVATE_KEY_FILE})`);
    }
  }
  if (!privateKeyPem?.includes('PRIVATE KEY'))
    throw new ConfigError(
      'ENABLE_BANKING_PRIVATE_KEY (or ENABLE_BANKING_PRIVATE_KEY_FILE) is required with OPEN_BANKING_PROVIDER=enablebanking (PEM)',
    );
  // Optional: the bank a consent starts at when the user chose none (the web app always asks).
  const aspspName = env.ENABLE_BANKING_ASPSP?.trim() || null;
  const aspspCountry = (env.ENABLE_BANKING_ASPSP_COUNTRY || 'NO').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(aspspCountry))
    throw new ConfigError(`ENABLE_BANKING_ASPSP_COUNTRY must be a two-letter country code (got "${aspspCountry}")`);
  const apiUrl = (env.ENABLE_BANKING_API_URL || 'https://api.enablebanking.com').replace(/\/$/, '');
  try {
    new URL(apiUrl);
  } catch {
    throw new ConfigError(`ENABLE_BANKING_API_URL must be an absolute URL (got "${apiUrl}")`);
  }
  return {
    appId,
    privateKeyPem,
    apiUrl,
    redirectUrl: `${publicUrl}/api/open-banking/callback`,
    aspsp: aspspName ? { name: aspspName, country: aspspCountry } : null,
    timeoutMs: parseDuration('ENABLE_BANKING_TIMEOUT', env.ENABLE_BANKING_TIMEOUT, '15s'),
  };
}

/** The receipt issuer; name and organization number are required in production, the number mod-11 checked. */
function loadReceiptIssuer(env: Env, nodeEnv: NodeEnv): Config['receiptIssuer'] {
  const orgNumber = requiredInProduction(
    nodeEnv,
    'RECEIPT_ISSUER_ORG_NUMBER',
    env.RECEIPT_ISSUER_ORG_NUMBER,
    '999999999',
  ).replace(/\s/g, '');
  if (!isValidOrgNumber(orgNumber))
    throw new ConfigError('RECEIPT_ISSUER_ORG_NUMBER must be a Norwegian organisation number (9 digits, mod-11)');
  return {
    name: requiredInProduction(nodeEnv, 'RECEIPT_ISSUER_NAME', env.RECEIPT_ISSUER_NAME, 'Ledgerline Remittance AS'),
    orgNumber,
    address: env.RECEIPT_ISSUER_ADDRESS || 'Oslo, Norway',
    contact: env.RECEIPT_ISSUER_CONTACT || 'support@ledgerline.example',
  };
}

function loadJwt(env: Env, nodeEnv: NodeEnv, dataDir: string): JwtKeys {
  const algorithm = (env.JWT_ALGORITHM ?? 'HS256').toUpperCase();
  if (algorithm === 'HS256') {
    return {
      algorithm,
      secret: loadSecret({ name: 'JWT_SECRET', value: env.JWT_SECRET, nodeEnv, dataDir: join(dataDir, 'remittance') }),
    };
  }
  if (algorithm === 'RS256') {
    const privateKeyPem = env.JWT_PRIVATE_KEY?.replace(/\\n/g, '\n');
    const publicKeyPem = env.JWT_PUBLIC_KEY?.replace(/\\n/g, '\n');
    if (!privateKeyPem || !publicKeyPem)
      throw new ConfigError('JWT_ALGORITHM=RS256 needs JWT_PRIVATE_KEY and JWT_PUBLIC_KEY (PEM)');
    return { algorithm, privateKeyPem, publicKeyPem };
  }
  throw new ConfigError(`JWT_ALGORITHM must be HS256 or RS256 (got "${algorithm}")`);
}

/** Reads and validates the environment once (STYLE 13); throws ConfigError with a one-line reason. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const common = loadCommonConfig(env);
  const { nodeEnv, dataDir } = common;
  const production = nodeEnv === 'production';
  const port = parsePort('REMITTANCE_PORT', env.REMITTANCE_PORT, 3001);
  // The README's address by default (HOST, else 127.0.0.1): a cookie set on one host never
  // reaches another, so the callback and the page that starts the sign-in must share it.
  const defaultHost = !common.host || common.host === '0.0.0.0' || common.host === '::' ? '127.0.0.1' : common.host;
  const publicUrl = (env.REMITTANCE_PUBLIC_URL || `http://${defaultHost}:${port}`).replace(/\/$/, '');
  let publicOrigin: string;
  try {
    publicOrigin = new URL(publicUrl).origin;
  } catch {
    throw new ConfigError(`REMITTANCE_PUBLIC_URL must be an absolute URL (got "${publicUrl}")`);
  }

  const eidMock = parseBool('EID_MOCK', env.EID_MOCK, !production);
  if (production && eidMock) throw new ConfigError('EID_MOCK=true is refused in production');

  const eidSecretRequired = production && !eidMock;
  const clientSecret = env.EID_CLIENT_SECRET || '';
  if (eidSecretRequired && clientSecret.length < 32)
    throw new ConfigError('EID_CLIENT_SECRET is required in production (at least 32 characters)');
  const issuer = env.EID_ISSUER || null;
  const explicit = env.EID_AUTHORIZE_URL && env.EID_TOKEN_URL && env.EID_JWKS_URL;
  if (!eidMock && !issuer && !explicit) {
    throw new ConfigError(
      'EID_MOCK=false needs EID_ISSUER (discovery) or EID_AUTHORIZE_URL, EID_TOKEN_URL and EID_JWKS_URL',
    );
  }

  const cards = parseBool('FEATURE_CARDS', env.FEATURE_CARDS, false);

  const config: Config = {
    ...common,
    version: packageVersion(join(import.meta.dirname, '..')),
    port,
    databaseUrl: databaseUrl(env.REMITTANCE_DATABASE_URL, dataDir, 'remittance/db'),
    rateLimitPrefix: env.RATE_LIMIT_PREFIX || 'remittance-rl:',
    publicUrl,
    webDir: env.REMITTANCE_WEB_DIR || join(import.meta.dirname, '..', '..', '..', 'apps', 'remittance-web', 'dist'),
    allowedOrigins: (env.ALLOWED_ORIGINS || publicOrigin)
      .split(',')
      .map((o) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    jwt: {
      ...loadJwt(env, nodeEnv, dataDir),
      expiryMs: parseDuration('JWT_EXPIRY', env.JWT_EXPIRY, '24h'),
      expiryMobileMs: parseDuration('JWT_EXPIRY_MOBILE', env.JWT_EXPIRY_MOBILE, '7d'),
    },
    sessions: {
      maxLifetimeMs: parseDuration('SESSION_MAX_LIFETIME', env.SESSION_MAX_LIFETIME, '30d'),
      reauthMaxAgeMs: parseDuration('REAUTH_MAX_AGE', env.REAUTH_MAX_AGE, '10m'),
      refreshGraceMs: parseDuration('REFRESH_REUSE_GRACE', env.REFRESH_REUSE_GRACE, '10s'),
    },
    // Read below, after the settings whose absence production reports first.
    nationalIdPepper: '',
    retention: {
      years: 5,
      purgeIntervalMs: parseDuration('RETENTION_PURGE_INTERVAL', env.RETENTION_PURGE_INTERVAL, '24h'),
    },
    eid: {
      mock: eidMock,
      provider: env.EID_PROVIDER_NAME || (eidMock ? 'mock-eid' : 'eid'),
      clientId: requiredInProduction(nodeEnv, 'EID_CLIENT_ID', env.EID_CLIENT_ID, 'remittance-dev'),
      clientSecret,
      callbackUrl: requiredInProduction(
        nodeEnv,
        'EID_CALLBACK_URL',
        env.EID_CALLBACK_URL,
        `${publicUrl}/api/auth/eid/callback`,
      ),
      callbackUrlMobile: requiredInProduction(
        nodeEnv,
        'EID_CALLBACK_URL_MOBILE',
        env.EID_CALLBACK_URL_MOBILE,
        'app://auth/callback',
      ),
      issuer,
      authorizeUrl: env.EID_AUTHORIZE_URL || null,
      tokenUrl: env.EID_TOKEN_URL || null,
      jwksUrl: env.EID_JWKS_URL || null,
      idTokenAlg: env.EID_ID_TOKEN_ALG || 'RS256',
      scope: env.EID_SCOPE || 'openid profile',
      flowTtlMs: parseDuration('EID_FLOW_TTL', env.EID_FLOW_TTL, '10m'),
      mockCodeTtlMs: parseDuration('EID_MOCK_CODE_TTL', env.EID_MOCK_CODE_TTL, '60s'),
      allowSynthetic: eidMock,
    },
    openBanking: {
      provider: 'sandbox',
      enableBanking: null,
      consentDays: 90,
      unattendedReadsPerDay: 4,
      sandboxSettlementMs: parseCount('SANDBOX_SETTLEMENT_SECONDS', env.SANDBOX_SETTLEMENT_SECONDS, 5) * 1000,
      expiryJobIntervalMs: parseDuration('CONSENT_EXPIRY_INTERVAL', env.CONSENT_EXPIRY_INTERVAL, '1h'),
      renewalWindowMs: parseDuration('CONSENT_RENEWAL_WINDOW', env.CONSENT_RENEWAL_WINDOW, '7d'),
      balanceSyncIntervalMs: parseDuration('BALANCE_SYNC_INTERVAL', env.BALANCE_SYNC_INTERVAL, '6h'),
      settlementIntervalMs: parseDuration('SETTLEMENT_INTERVAL', env.SETTLEMENT_INTERVAL, '5s'),
    },
    features: {
      notifications: parseBool('FEATURES_NOTIFICATIONS', env.FEATURES_NOTIFICATIONS, true),
      cards,
      physicalCards: cards && parseBool('FEATURE_PHYSICAL_CARDS', env.FEATURE_PHYSICAL_CARDS, false),
      cardPin: cards && parseBool('FEATURE_CARD_PIN', env.FEATURE_CARD_PIN, false),
      spendingLimits: cards && parseBool('FEATURE_SPENDING_LIMITS', env.FEATURE_SPENDING_LIMITS, false),
    },
    bcryptCost: parseBcryptCost(env.BCRYPT_COST, nodeEnv),
    rates: {
      feed: parseBool('RATES_FEED', env.RATES_FEED, false),
      feedUrl:
        env.RATES_FEED_URL ||
        'https://data.norges-bank.no/api/data/EXR/B.EUR+PLN+TRY+PKR.NOK.SP?format=sdmx-json&lastNObservations=1&locale=en',
      refreshIntervalMs: parseDuration('RATES_REFRESH_INTERVAL', env.RATES_REFRESH_INTERVAL, '1h'),
      staleAfterMs: 24 * 3_600_000,
    },
    receiptIssuer: loadReceiptIssuer(env, nodeEnv),
  };
  // Production requires it; development keeps a generated one in DATA_DIR (like JWT_SECRET).
  config.nationalIdPepper = loadSecret({
    name: 'NATIONAL_ID_PEPPER',
    value: env.NATIONAL_ID_PEPPER,
    nodeEnv,
    dataDir: join(dataDir, 'remittance'),
  });
  // Weak settings production refuses unless accepted by name (issue 33 item 7).
  checkDatabaseUrl(config, env, 'REMITTANCE_DATABASE_URL', config.databaseUrl);
  checkCredentialedOrigins(config, env, 'ALLOWED_ORIGINS', config.allowedOrigins);
  // Checked last so that missing secrets are reported first.
  const obProvider = env.OPEN_BANKING_PROVIDER || (production ? '' : 'sandbox');
  if (production && (obProvider === 'sandbox' || obProvider === '')) {
    throw new ConfigError('OPEN_BANKING_PROVIDER must name a real provider in production (sandbox is refused)');
  }
  if (obProvider === 'enablebanking') {
    config.openBanking.provider = 'enablebanking';
    config.openBanking.enableBanking = loadEnableBanking(env, publicUrl);
  } else if (obProvider !== 'sandbox') {
    throw new ConfigError(`OPEN_BANKING_PROVIDER must be sandbox or enablebanking (got "${obProvider}")`);
  }
  return deepFreeze(config);
}

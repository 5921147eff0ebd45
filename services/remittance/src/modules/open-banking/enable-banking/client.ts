import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { ProviderError } from '../providers/provider.js';

/** Settings of the Enable Banking adapter (docs/remittance/open-banking.md). */
export interface EnableBankingSettings {
  /** Application id from the Enable Banking control panel: the JWT's `kid`. */
  appId: string;
  /** The application's RSA private key (PEM, PKCS#8 or PKCS#1). Never logged. */
  privateKeyPem: string;
  /** https://api.enablebanking.com unless told otherwise (tests point it at a mock). */
  apiUrl: string;
  /**
   * The default bank (ASPSP): where a consent starts when the user chose none (name and country as
   * GET /aspsps lists them). Null: the user chooses from the bank list.
   */
  aspsp: { name: string; country: string } | null;
  /** Timeout of each HTTP call to the API. */
  timeoutMs: number;
  /** Lifetime of the signed JWT (the API accepts at most 24 h). */
  tokenTtlSeconds?: number;
}

/** The API's error body: `{code, message, error, detail}` (error: e.g. EXPIRED_SESSION). */
interface ApiErrorBody {
  code?: number;
  message?: string;
  error?: string;
  detail?: unknown;
}

const CONSENT_ERRORS = new Set([
  'EXPIRED_SESSION',
  'REVOKED_SESSION',
  'CLOSED_SESSION',
  'SESSION_DOES_NOT_EXIST',
  'WRONG_SESSION_STATUS',
  'EXPIRED_AUTHORIZATION_CODE',
  'WRONG_AUTHORIZATION_CODE',
  'ALREADY_AUTHORIZED',
  'ASPSP_PSU_ACTION_REQUIRED',
]);
const ACCOUNT_ERRORS = new Set(['ACCOUNT_DOES_NOT_EXIST', 'ASPSP_ACCOUNT_NOT_ACCESSIBLE', 'PAYMENT_NOT_FOUND']);
/** Codes of a payment the bank refuses for good: not retried, the payment fails with the bank's message. */
const INSUFFICIENT = new Set(['INSUFFICIENT_FUNDS', 'ASPSP_INSUFFICIENT_FUNDS']);
const REFUSED = new Set([
  'WRONG_REQUEST_PARAMETERS',
  'ASPSP_PAYMENT_REJECTED',
  'PAYMENT_LIMIT_EXCEEDED',
  'WRONG_ASPSP_PROVIDED',
]);

/** A refusal or failure of the Enable Banking API, mapped onto the provider's reasons. */
export class EnableBankingError extends ProviderError {
  constructor(
    reason: ProviderError['reason'],
    message: string,
    /** HTTP status of the answer (0: no answer: timeout or network). */
    readonly status: number,
    /** The API's `error` code (e.g. EXPIRED_SESSION), when it gave one. */
    readonly apiError: string | null,
  ) {
    super(reason, message);
    this.name = 'EnableBankingError';
  }
}

/** Maps an error answer: the session's end is a consent problem, a gone account unknown, the rest unavailable. */
export function mapApiError(status: number, body: ApiErrorBody | null): EnableBankingError {
  const apiError = typeof body?.error === 'string' ? body.error : null;
  // The API's message is the bank's or the aggregator's wording, never one of our secrets.
  const detail = typeof body?.message === 'string' ? body.message.slice(0, 200) : `HTTP ${status}`;
  if (apiError && CONSENT_ERRORS.has(apiError))
    return new EnableBankingError('consent_invalid', `consent is not valid at the bank: ${detail}`, status, apiError);
  if (apiError && ACCOUNT_ERRORS.has(apiError))
    return new EnableBankingError('unknown_account', `unknown at the bank: ${detail}`, status, apiError);
  if (apiError && INSUFFICIENT.has(apiError))
    return new EnableBankingError('insufficient_funds', `the bank refused: ${detail}`, status, apiError);
  if (apiError && REFUSED.has(apiError))
    return new EnableBankingError('refused', `the bank refused: ${detail}`, status, apiError);
  if (status === 429)
    return new EnableBankingError('unavailable', 'the bank aggregator is rate limiting', status, apiError);
  return new EnableBankingError('unavailable', `the bank aggregator failed: ${detail}`, status, apiError);
}

/**
 * The HTTP client: every request carries a JWT signed RS256 with the application's key
 * (`kid` = application id, iss enablebanking.com, aud api.enablebanking.com), reused until
 * a minute before it expires.
 */
export function createEnableBankingClient(settings: EnableBankingSettings, fetchImpl: typeof fetch = fetch) {
  let key: KeyObject;
  try {
    key = createPrivateKey(settings.privateKeyPem);
  } catch {
    // The PEM itself must not reach a log line.
    throw new Error('ENABLE_BANKING_PRIVATE_KEY is not a valid PEM private key');
  }
  const ttl = settings.tokenTtlSeconds ?? 3600;
  let cached: { token: string; expiresAt: number } | null = null;

  async function token(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    if (cached && cached.expiresAt - 60 > now) return cached.token;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: settings.appId })
      .setIssuer('enablebanking.com')
      .setAudience('api.enablebanking.com')
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .sign(key);
    cached = { token: jwt, expiresAt: now + ttl };
    return jwt;
  }

  async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const url = new URL(path, `${settings.apiUrl.replace(/\/$/, '')}/`);
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method,
        headers: {
          authorization: `Bearer ${await token()}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'manual',
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new EnableBankingError(
        'unavailable',
        timeout
          ? `the bank aggregator did not answer within ${settings.timeoutMs} ms`
          : 'the bank aggregator is unreachable',
        0,
        null,
      );
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) throw mapApiError(res.status, (parsed ?? null) as ApiErrorBody | null);
    if (parsed === null || typeof parsed !== 'object')
      throw new EnableBankingError('unavailable', 'the bank aggregator answered with no JSON body', res.status, null);
    return parsed as T;
  }

  return { request, token };
}

export type EnableBankingClient = ReturnType<typeof createEnableBankingClient>;

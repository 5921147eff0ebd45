import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';

/** Signing keys: a shared HS256 secret, or an RS256 key pair (PEM). */
export type JwtKeys =
  | { algorithm: 'HS256'; secret: string }
  | { algorithm: 'RS256'; privateKeyPem: string; publicKeyPem: string };

/** Why a token was refused; each service maps this to its own error. */
export type TokenFailure = 'expired' | 'invalid';

export type Verified<C> = { ok: true; claims: C } | { ok: false; reason: TokenFailure };

export interface SignOptions {
  ttlSeconds: number;
  subject?: string;
  issuer?: string;
  audience?: string;
}

export interface VerifyProfile<C> {
  issuer?: string;
  audience?: string;
  requiredClaims?: string[];
  /** Checks the claims beyond signature and expiry; null makes the token invalid. */
  claims: (payload: JWTPayload) => C | null;
  /** Most verified tokens kept; 0 turns the cache off. */
  cacheSize?: number;
}

export interface TokenVerifier<C> {
  verify(token: string): Promise<Verified<C>>;
}

const EXPIRED = { ok: false, reason: 'expired' } as const;
const INVALID = { ok: false, reason: 'invalid' } as const;

interface CacheEntry<C> {
  result: { ok: true; claims: C };
  expiresAtMs: number;
}

/**
 * JWT signing and verification over `jose`, algorithm pinned on verify. Keys are Node KeyObjects
 * made once: jose would otherwise import a raw secret on every call.
 */
export class TokenService {
  private readonly signKey: KeyObject;
  private readonly verifyKey: KeyObject;
  readonly algorithm: JwtKeys['algorithm'];

  constructor(keys: JwtKeys) {
    this.algorithm = keys.algorithm;
    if (keys.algorithm === 'HS256') {
      this.signKey = this.verifyKey = createSecretKey(Buffer.from(keys.secret, 'utf8'));
    } else {
      this.signKey = createPrivateKey(keys.privateKeyPem);
      this.verifyKey = createPublicKey(keys.publicKeyPem);
    }
  }

  /** Signs `claims` with iat, exp and a random jti (two tokens of one second stay distinct). */
  async sign(claims: JWTPayload, options: SignOptions): Promise<{ token: string; expiresAt: Date }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + Math.max(1, Math.floor(options.ttlSeconds));
    let builder = new SignJWT(claims)
      .setProtectedHeader({ alg: this.algorithm, typ: 'JWT' })
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(exp);
    if (options.subject !== undefined) builder = builder.setSubject(options.subject);
    if (options.issuer !== undefined) builder = builder.setIssuer(options.issuer);
    if (options.audience !== undefined) builder = builder.setAudience(options.audience);
    return { token: await builder.sign(this.signKey), expiresAt: new Date(exp * 1000) };
  }

  /**
   * A verifier for one kind of token. Verified tokens are cached by their exact text (a client
   * reuses one token for many requests, and jose verifies through WebCrypto on the thread pool);
   * expiry is still checked on every use and the cache is bounded (oldest entry evicted first).
   */
  verifier<C>(profile: VerifyProfile<C>): TokenVerifier<C> {
    const options = {
      algorithms: [this.algorithm],
      requiredClaims: ['exp', ...(profile.requiredClaims ?? [])],
      ...(profile.issuer !== undefined ? { issuer: profile.issuer } : {}),
      ...(profile.audience !== undefined ? { audience: profile.audience } : {}),
    };
    const key = this.verifyKey;
    const maxSize = profile.cacheSize ?? 10_000;
    const cache = new Map<string, CacheEntry<C>>();

    async function verifyUncached(token: string): Promise<{ claims: C; exp: number } | TokenFailure> {
      try {
        const { payload } = await jwtVerify(token, key, options);
        const claims = profile.claims(payload);
        return claims === null ? 'invalid' : { claims, exp: payload.exp! };
      } catch (err) {
        return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
      }
    }

    return {
      async verify(token) {
        const hit = cache.get(token);
        if (hit) {
          if (hit.expiresAtMs > Date.now()) return hit.result;
          cache.delete(token);
          return EXPIRED;
        }
        const verified = await verifyUncached(token);
        if (verified === 'expired') return EXPIRED;
        if (verified === 'invalid') return INVALID;
        const result = { ok: true as const, claims: verified.claims };
        if (maxSize > 0) {
          if (cache.size >= maxSize) cache.delete(cache.keys().next().value!);
          cache.set(token, { result, expiresAtMs: verified.exp * 1000 });
        }
        return result;
      },
    };
  }
}

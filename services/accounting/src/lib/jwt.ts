import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';
import { AppError } from './errors.js';

export type Role = 'owner' | 'admin' | 'accountant' | 'viewer';
export const ROLES: readonly Role[] = ['owner', 'admin', 'accountant', 'viewer'];

export interface AccessClaims {
  sub: string;
  org: string;
  role: Role;
  /** The login (refresh-token family) the token belongs to; logout revokes it. */
  sid: string;
  jti: string;
  exp: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Access tokens (A17): HS256 with claims sub, org, role, exp; algorithm pinned on verify. */
export class AccessTokens {
  // A KeyObject made once: jose would otherwise import the raw secret on every verification.
  private readonly key: KeyObject;
  constructor(
    secret: string,
    private readonly ttlMs: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  async sign(claims: { sub: string; org: string; role: Role; sid: string }): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ org: claims.org, role: claims.role, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + Math.max(1, Math.round(this.ttlMs / 1000)))
      .sign(this.key);
  }

  // Verified tokens, by their exact text: a client reuses one token for up to 15 minutes, and
  // jose verifies HMAC through WebCrypto on the thread pool (about 30 us and a thread hop each).
  // Expiry is still checked on every use; the cache is bounded.
  private readonly verified = new Map<string, AccessClaims>();

  async verify(token: string): Promise<AccessClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.exp * 1000 <= Date.now()) {
        this.verified.delete(token);
        throw new AppError('SVC-1003');
      }
      return cached;
    }
    const claims = await this.verifyUncached(token);
    if (this.verified.size >= 10_000) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return claims;
  }

  private async verifyUncached(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const { sub, org, role, sid, jti, exp } = payload as Partial<AccessClaims>;
      if (
        typeof sub !== 'string' || !UUID.test(sub) ||
        typeof org !== 'string' || !UUID.test(org) ||
        typeof sid !== 'string' || !UUID.test(sid) || typeof jti !== 'string' || typeof exp !== 'number' ||
        !ROLES.includes(role as Role)
      ) {
        throw new AppError('SVC-1004');
      }
      return { sub, org, role: role as Role, sid, jti, exp };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof errors.JWTExpired) throw new AppError('SVC-1003');
      throw new AppError('SVC-1004');
    }
  }
}

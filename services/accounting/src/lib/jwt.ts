import { randomUUID } from 'node:crypto';
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
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlMs: number,
  ) {
    this.key = new TextEncoder().encode(secret);
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

  async verify(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const { sub, org, role, sid, jti, exp } = payload as Partial<AccessClaims>;
      if (
        typeof sub !== 'string' || !UUID.test(sub) ||
        typeof org !== 'string' || !UUID.test(org) ||
        typeof sid !== 'string' || typeof jti !== 'string' || typeof exp !== 'number' ||
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

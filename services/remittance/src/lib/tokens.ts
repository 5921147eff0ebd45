import { randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8, importSPKI, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';
import type { Config } from '../config.js';

export type Surface = 'web' | 'api';

export interface TokenClaims {
  userId: string;
  email: string | null;
  role: 'user' | 'merchant';
}

/** Spec Authentication 5: iss/aud only on the standalone API, which also requires them (R1). */
export const API_ISSUER = 'app-api';
export const API_AUDIENCE = 'app';

export interface TokenService {
  sign(claims: TokenClaims, surface: Surface): Promise<{ token: string; expiresAt: Date }>;
  /** Signature, expiry and surface claims; throws on any failure. */
  verify(token: string, surface: Surface): Promise<JWTPayload & TokenClaims>;
}

export async function createTokenService(config: Config): Promise<TokenService> {
  const jwt = config.jwt;
  let signKey: CryptoKey | Uint8Array;
  let verifyKey: CryptoKey | Uint8Array;
  if (jwt.algorithm === 'HS256') {
    signKey = verifyKey = new TextEncoder().encode(jwt.secret);
  } else {
    signKey = await importPKCS8(jwt.privateKeyPem, 'RS256');
    verifyKey = await importSPKI(jwt.publicKeyPem, 'RS256');
  }
  const alg = jwt.algorithm;
  return {
    async sign(claims, surface) {
      const ttl = surface === 'web' ? jwt.expiryMs : jwt.expiryMobileMs;
      const now = Math.floor(Date.now() / 1000);
      const exp = now + Math.floor(ttl / 1000);
      // jti keeps two tokens issued in the same second distinct (their hashes key the sessions).
      let builder = new SignJWT({ userId: claims.userId, email: claims.email, role: claims.role })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .setJti(randomUUID());
      if (surface === 'api') builder = builder.setIssuer(API_ISSUER).setAudience(API_AUDIENCE);
      return { token: await builder.sign(signKey), expiresAt: new Date(exp * 1000) };
    },
    async verify(token, surface) {
      const { payload } = await jwtVerify(token, verifyKey, {
        algorithms: [alg],
        ...(surface === 'api' ? { issuer: API_ISSUER, audience: API_AUDIENCE } : {}),
        requiredClaims: ['exp', 'iat'],
      });
      if (surface === 'web' && (payload.iss !== undefined || payload.aud !== undefined)) {
        throw new Error('a standalone API token is not a web session');
      }
      if (typeof payload.userId !== 'string') throw new Error('token without userId');
      return payload as JWTPayload & TokenClaims;
    },
  };
}

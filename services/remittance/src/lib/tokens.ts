import { type JwtKeys, TokenService as SharedTokens, type TokenFailure, type TokenVerifier } from '@app/shared/tokens';
import type { JWTPayload } from 'jose';

export type Surface = 'web' | 'api';

/** The remittance roles, listed once (the users.role CHECK constraint holds the same two). */
export const ROLES = ['user', 'merchant'] as const;
export type Role = (typeof ROLES)[number];

export interface TokenClaims {
  userId: string;
  email: string | null;
  role: Role;
}

export type VerifiedToken = JWTPayload & TokenClaims;

/** Spec Authentication 5: iss/aud only on the standalone API, which also requires them (R1). */
export const API_ISSUER = 'app-api';
export const API_AUDIENCE = 'app';

export interface TokenService {
  /** `notAfter` cuts the surface's lifetime short (the login's absolute end). */
  sign(claims: TokenClaims, surface: Surface, notAfter?: Date): Promise<{ token: string; expiresAt: Date }>;
  /** Signature, expiry and surface claims. */
  verify(
    token: string,
    surface: Surface,
  ): Promise<{ ok: true; claims: VerifiedToken } | { ok: false; reason: TokenFailure }>;
}

function userClaims(payload: JWTPayload): VerifiedToken | null {
  return typeof payload.userId === 'string' ? (payload as VerifiedToken) : null;
}

/** `jwt`: the service's keys and the two lifetimes (config.jwt). */
export function createTokenService(jwt: JwtKeys & { expiryMs: number; expiryMobileMs: number }): TokenService {
  const shared = new SharedTokens(jwt);
  const verifiers: Record<Surface, TokenVerifier<VerifiedToken>> = {
    // A standalone API token is not a web session.
    web: shared.verifier({
      requiredClaims: ['iat'],
      claims: (p) => (p.iss === undefined && p.aud === undefined ? userClaims(p) : null),
    }),
    api: shared.verifier({ requiredClaims: ['iat'], issuer: API_ISSUER, audience: API_AUDIENCE, claims: userClaims }),
  };
  return {
    sign(claims, surface, notAfter) {
      const full = surface === 'web' ? jwt.expiryMs : jwt.expiryMobileMs;
      // Whole seconds, at least one: the JWT's exp has a one-second resolution.
      const ttl = notAfter
        ? Math.max(1000, Math.min(full, Math.floor((notAfter.getTime() - Date.now()) / 1000) * 1000))
        : full;
      return shared.sign(
        { userId: claims.userId, email: claims.email, role: claims.role },
        { ttlSeconds: ttl / 1000, ...(surface === 'api' ? { issuer: API_ISSUER, audience: API_AUDIENCE } : {}) },
      );
    },
    verify: (token, surface) => verifiers[surface].verify(token),
  };
}

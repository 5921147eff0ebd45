import { TokenService, type TokenVerifier } from '@app/shared/tokens';
import { AppError } from './errors.js';

/** Every role, the one list of them (route configs, schemas and token checks read it). */
export const ROLES = ['owner', 'admin', 'accountant', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/** The roles an invitation or a role change can give (the owner is only made at registration). */
export const INVITABLE_ROLES = ['admin', 'accountant', 'viewer'] as const satisfies readonly Role[];
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export interface AccessClaims {
  sub: string;
  org: string;
  role: Role;
  /** The login (refresh-token family) the token belongs to; logout revokes it. */
  sid: string;
  jti: string;
  exp: number;
}

/**
 * Who signs accounting access tokens and for whom (issue 33 item 12): a token of another service
 * signed with the same secret (the remittance `/v1` tokens carry `app-api`/`app`), or one without
 * these claims, is refused.
 */
export const TOKEN_ISSUER = 'ledgerline-accounting';
export const TOKEN_AUDIENCE = 'ledgerline-accounting-api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Access tokens (A17): HS256 with claims iss, aud, sub, org, role, sid, exp, over the shared token service. */
export class AccessTokens {
  private readonly service: TokenService;
  private readonly verifier: TokenVerifier<AccessClaims>;

  constructor(
    secret: string,
    private readonly ttlMs: number,
  ) {
    this.service = new TokenService({ algorithm: 'HS256', secret });
    this.verifier = this.service.verifier({
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['iss', 'aud'],
      claims: ({ sub, org, role, sid, jti, exp }) =>
        typeof sub === 'string' &&
        UUID.test(sub) &&
        typeof org === 'string' &&
        UUID.test(org) &&
        typeof sid === 'string' &&
        UUID.test(sid) &&
        typeof jti === 'string' &&
        typeof exp === 'number' &&
        ROLES.includes(role as Role)
          ? { sub, org, role: role as Role, sid, jti, exp }
          : null,
    });
  }

  async sign(claims: { sub: string; org: string; role: Role; sid: string }): Promise<string> {
    const { token } = await this.service.sign(
      { org: claims.org, role: claims.role, sid: claims.sid },
      {
        subject: claims.sub,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        ttlSeconds: Math.round(this.ttlMs / 1000),
      },
    );
    return token;
  }

  /** SVC-1003 for an expired token, SVC-1004 for any other failure. */
  async verify(token: string): Promise<AccessClaims> {
    const result = await this.verifier.verify(token);
    if (result.ok) return result.claims;
    throw new AppError(result.reason === 'expired' ? 'SVC-1003' : 'SVC-1004');
  }
}

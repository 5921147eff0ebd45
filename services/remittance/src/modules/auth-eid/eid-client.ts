import { createHash } from 'node:crypto';
import { safeEqual } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import * as oidc from 'openid-client';
import type { EidConfig } from '../../config.js';
import type { DB } from '../../db/types.js';
import { consumeMockCode } from './eid.repository.js';

export interface AuthorizeParams {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

export interface ExchangeParams {
  code: string;
  state: string;
  /** RFC 9207 issuer of the authorization response, when the provider sends one. */
  iss?: string;
  redirectUri: string;
  nonce: string;
  codeVerifier: string;
}

/** Verified ID token claims. */
export type EidClaims = Record<string, unknown>;

/** What the sign-in flow needs from an identity provider (a real OpenID provider or the mock). */
export interface EidClient {
  authorizationUrl(params: AuthorizeParams): Promise<URL>;
  /** Exchanges the code (PKCE) and returns the claims of a verified ID token; throws on failure. */
  exchange(params: ExchangeParams): Promise<EidClaims>;
}

/**
 * Standard OpenID Connect relying party (R3) through openid-client: discovery from EID_ISSUER or
 * explicit endpoints, code flow with PKCE S256, state and nonce, ID token signature checked
 * against the provider's key set with the algorithm pinned (EID_ID_TOKEN_ALG).
 */
export function createOidcClient(cfg: EidConfig, opts: { allowHttp: boolean }): EidClient {
  let configuration: Promise<oidc.Configuration> | null = null;
  const clientMetadata: Partial<oidc.ClientMetadata> = {
    client_secret: cfg.clientSecret || undefined,
    id_token_signed_response_alg: cfg.idTokenAlg,
  };
  const auth = cfg.clientSecret ? oidc.ClientSecretBasic(cfg.clientSecret) : oidc.None();

  async function load(): Promise<oidc.Configuration> {
    let c: oidc.Configuration;
    if (cfg.authorizeUrl && cfg.tokenUrl && cfg.jwksUrl) {
      c = new oidc.Configuration(
        {
          issuer: cfg.issuer ?? new URL(cfg.authorizeUrl).origin,
          authorization_endpoint: cfg.authorizeUrl,
          token_endpoint: cfg.tokenUrl,
          jwks_uri: cfg.jwksUrl,
        },
        cfg.clientId,
        clientMetadata,
        auth,
      );
      if (opts.allowHttp) oidc.allowInsecureRequests(c);
    } else {
      c = await oidc.discovery(new URL(cfg.issuer!), cfg.clientId, clientMetadata, auth, {
        execute: opts.allowHttp ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
    }
    c.timeout = 10;
    return c;
  }

  function getConfiguration(): Promise<oidc.Configuration> {
    // Cached once it works; a failed discovery (provider down) is retried on the next sign-in.
    configuration ??= load().catch((err) => {
      configuration = null;
      throw err;
    });
    return configuration;
  }

  return {
    async authorizationUrl(p) {
      const c = await getConfiguration();
      return oidc.buildAuthorizationUrl(c, {
        redirect_uri: p.redirectUri,
        scope: cfg.scope,
        response_type: 'code',
        state: p.state,
        nonce: p.nonce,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async exchange(p) {
      const c = await getConfiguration();
      const current = new URL(p.redirectUri);
      current.searchParams.set('code', p.code);
      current.searchParams.set('state', p.state);
      if (p.iss) current.searchParams.set('iss', p.iss);
      const tokens = await oidc.authorizationCodeGrant(
        c,
        current,
        { pkceCodeVerifier: p.codeVerifier, expectedState: p.state, expectedNonce: p.nonce, idTokenExpected: true },
        { redirect_uri: p.redirectUri },
      );
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      return { ...claims };
    },
  };
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function same(a: string | null, b: string): boolean {
  return a !== null && safeEqual(a, b);
}

/**
 * The mock provider of R3 (EID_MOCK=true): its authorize page lives on this service and stores a
 * single-use code with the claims; the exchange consumes the code and applies the same checks a
 * real provider and relying party would (client, redirect URI, PKCE, nonce, expiry).
 */
export function createMockClient(cfg: EidConfig, db: Kysely<DB>, publicUrl: string): EidClient {
  return {
    async authorizationUrl(p) {
      const url = new URL('/api/auth/eid/mock/authorize', publicUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: cfg.clientId,
        redirect_uri: p.redirectUri,
        scope: cfg.scope,
        state: p.state,
        nonce: p.nonce,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url;
    },
    async exchange(p) {
      const row = await consumeMockCode(db, p.code);
      if (!row) throw new Error('invalid_grant: unknown or already used code');
      if (row.expires_at.getTime() <= Date.now()) throw new Error('invalid_grant: code expired');
      if (row.client_id !== cfg.clientId || row.redirect_uri !== p.redirectUri)
        throw new Error('invalid_grant: client mismatch');
      if (!same(row.code_challenge, s256(p.codeVerifier))) throw new Error('invalid_grant: PKCE verification failed');
      if (!same(row.nonce, p.nonce)) throw new Error('ID token nonce mismatch');
      // Written by this mock's own authorize page from EidClaims (the column is plain jsonb).
      return row.claims as EidClaims;
    },
  };
}

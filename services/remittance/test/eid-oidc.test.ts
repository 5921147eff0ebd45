import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigits } from '../src/lib/national-id.js';
import { bearer, buildTestApp, idHash, initiateMobile, setCookies, web } from './helpers.js';

/**
 * The web sign-in against a real OpenID provider (oidc-provider) started here: discovery, code
 * flow with PKCE, ID token signed with the provider's RSA key and carrying the pid claim.
 */
const CLIENT_ID = 'remittance-test';
const CLIENT_SECRET = 'a-client-secret-that-is-long-enough-0123456789';
const CALLBACK = 'http://localhost:3001/api/auth/eid/callback';
/** A claimed https link (universal link / app link) the app opens, not a custom scheme. */
const MOBILE_CALLBACK = 'https://app.example.no/auth/eid/callback';

let server: Server;
let issuer: string;
/** Claims of whoever logs in next at the provider. */
let nextLogin: { sub: string; pid: string; given_name: string; family_name: string };

async function startProvider() {
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const accounts = new Map<string, Record<string, unknown>>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [CALLBACK, MOBILE_CALLBACK],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' } as any] },
    cookies: { keys: ['cookie-signing-key-for-tests'] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['given_name', 'family_name', 'pid'] },
    // ID-porten style: the national id travels in the ID token, not only in userinfo.
    conformIdTokenClaims: false,
    ttl: { AccessToken: 300, IdToken: 300, AuthorizationCode: 60, Interaction: 300, Session: 600, Grant: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...accounts.get(sub) }),
    }),
    // Consent is implied: every sign-in gets a grant for the scopes and claims it asks for.
    loadExistingGrant: async (ctx: any) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid profile');
      await grant.save();
      return grant;
    },
  });
  // Auto-login: the interaction logs in `nextLogin` without a page.
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    if (!/^\/interaction\/[^/]+$/.test(ctx.path)) return next();
    const { sub, ...claims } = nextLogin;
    accounts.set(sub, claims);
    const to = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId: sub } },
      { mergeWithLastSubmission: false },
    );
    ctx.redirect(to);
  });
  server.on('request', provider.callback());
}

/** Drives the browser part: provider authorize -> interaction -> back to our callback URL. */
async function browseToCallback(authorizeUrl: string, callback = CALLBACK): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url}: ${res.status} ${await res.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(callback)) return next;
    url = next.href;
  }
  throw new Error('too many redirects');
}

let env: Awaited<ReturnType<typeof buildTestApp>>;
let counter = 0;
function person(pid: string) {
  nextLogin = { sub: `sub-${++counter}`, pid, given_name: 'Nora', family_name: 'Hansen' };
}

async function startSignIn() {
  const res = await env.app.inject({ method: 'GET', url: '/api/auth/eid' });
  expect(res.statusCode).toBe(200);
  return { redirectUrl: res.json().redirectUrl as string, stateCookie: setCookies(res).eid_state.value };
}

/** Our callback with the provider's redirect parameters (code, state, iss), state optionally replaced. */
async function callback(back: URL, stateCookie: string, state = back.searchParams.get('state')!) {
  const query = new URLSearchParams(back.searchParams);
  query.set('state', state);
  return env.app.inject({ method: 'GET', url: `/api/auth/eid/callback?${query}`, cookies: { eid_state: stateCookie } });
}

const OIDC_ENV = {
  EID_MOCK: 'false',
  EID_CLIENT_ID: CLIENT_ID,
  EID_CLIENT_SECRET: CLIENT_SECRET,
  EID_CALLBACK_URL: CALLBACK,
  EID_CALLBACK_URL_MOBILE: MOBILE_CALLBACK,
  EID_PROVIDER_NAME: 'test-oidc',
};

beforeAll(async () => {
  await startProvider();
  env = await buildTestApp({ ...OIDC_ENV, EID_ISSUER: issuer });
});
afterAll(async () => {
  await env?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('web eID sign-in against a real OpenID provider', () => {
  it('signs in through discovery, code flow with PKCE S256, and a verified ID token carrying pid', async () => {
    const pid = '13097248022';
    person(pid);
    const { redirectUrl, stateCookie } = await startSignIn();
    const authorize = new URL(redirectUrl);
    expect(authorize.origin).toBe(issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await browseToCallback(redirectUrl);
    const res = await callback(back, stateCookie);
    expect(res.headers.location).toBe('/dashboard');
    const cookie = setCookies(res).app_token.value;
    const me = await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(cookie) });
    expect(me.json().data).toMatchObject({ firstName: 'Nora', lastName: 'Hansen', kycStatus: 'approved' });
    const user = await env.db.system
      .selectFrom('users')
      .selectAll()
      .where('national_id_hash', '=', idHash(pid))
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ auth_provider: 'test-oidc', kyc_method: 'eid', date_of_birth: '1972-09-13' });
  });

  it('refuses a tampered state', async () => {
    person('30108299920');
    const { redirectUrl, stateCookie } = await startSignIn();
    const back = await browseToCallback(redirectUrl);
    const res = await callback(back, stateCookie, `${back.searchParams.get('state')}tampered`);
    expect(res.headers.location).toMatch(/^\/login\?error=state_mismatch&reason=/);
    expect(setCookies(res).app_token).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    person('30108299920');
    const { redirectUrl, stateCookie } = await startSignIn();
    const back = await browseToCallback(redirectUrl);
    await env.db.system
      .updateTable('eid_auth_requests')
      .set({ nonce: 'a-different-nonce' })
      .where('state', '=', back.searchParams.get('state')!)
      .execute();
    const res = await callback(back, stateCookie);
    expect(res.headers.location).toBe('/login?error=eid_provider_error');
  });

  it('refuses a code that was already exchanged', async () => {
    person('30108299920');
    const first = await startSignIn();
    const back = await browseToCallback(first.redirectUrl);
    expect((await callback(back, first.stateCookie)).headers.location).toBe('/dashboard');
    const second = await startSignIn();
    const freshState = new URL(second.redirectUrl).searchParams.get('state')!;
    const replay = await callback(back, second.stateCookie, freshState);
    expect(replay.headers.location).toBe('/login?error=eid_provider_error');
  });

  it('refuses a person under 18', async () => {
    const yy = String(new Date().getUTCFullYear() - 2012).padStart(2, '0');
    let pid: string | null = null;
    for (let i = 500; !pid; i++) pid = withCheckDigits(`0101${yy}${i}`);
    person(pid);
    const { redirectUrl, stateCookie } = await startSignIn();
    const res = await callback(await browseToCallback(redirectUrl), stateCookie);
    expect(res.headers.location).toBe('/login?error=age_restricted');
    expect(
      await env.db.system
        .selectFrom('users')
        .select('id')
        .where('national_id_hash', '=', idHash(pid))
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses a synthetic test number from a real provider', async () => {
    person('10915596784');
    const { redirectUrl, stateCookie } = await startSignIn();
    const res = await callback(await browseToCallback(redirectUrl), stateCookie);
    expect(res.headers.location).toBe('/login?error=invalid_national_id');
  });

  it('pins the ID token algorithm: a token signed with another one is refused', async () => {
    const pinned = await buildTestApp({ ...OIDC_ENV, EID_ISSUER: issuer, EID_ID_TOKEN_ALG: 'PS256' });
    try {
      person('13097248022');
      const start = await pinned.app.inject({ method: 'GET', url: '/api/auth/eid' });
      const back = await browseToCallback(start.json().redirectUrl);
      const res = await pinned.app.inject({
        method: 'GET',
        url: `/api/auth/eid/callback?${back.searchParams}`,
        cookies: { eid_state: setCookies(start).eid_state.value },
      });
      expect(res.headers.location).toBe('/login?error=eid_provider_error');
    } finally {
      await pinned.close();
    }
  });
});

describe('mobile eID sign-in against a real OpenID provider (RFC 8252: the app holds the PKCE verifier)', () => {
  const post = (payload: object) => env.app.inject({ method: 'POST', url: '/v1/auth/eid/callback', payload });

  it('signs in when the app sends the verifier of its own challenge; the provider checks it too', async () => {
    person('13097248022');
    const app = await initiateMobile(env.app);
    const back = await browseToCallback(app.redirectUrl, MOBILE_CALLBACK);
    const res = await post({
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss') ?? undefined,
      platform: 'mobile',
      code_verifier: app.verifier,
    });
    expect(res.statusCode).toBe(200);
    const me = await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(res.json().token) });
    expect(me.json().data).toMatchObject({ firstName: 'Nora', lastName: 'Hansen' });
  });

  it('gives no token to whoever intercepted the redirect without the verifier (issue 33 item 1)', async () => {
    person('13097248022');
    const app = await initiateMobile(env.app);
    const back = await browseToCallback(app.redirectUrl, MOBILE_CALLBACK);
    const stolen = { code: back.searchParams.get('code'), state: back.searchParams.get('state'), platform: 'mobile' };
    const without = await post(stolen);
    expect(without.statusCode).toBe(400);
    const forged = await post({ ...stolen, code_verifier: 'A'.repeat(43) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('bad_request');
    expect(forged.json().token).toBeUndefined();
  });
});

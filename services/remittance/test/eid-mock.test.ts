import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigits } from '../src/lib/national-id.js';
import { MOCK_DEFAULT_PID } from '../src/modules/auth-eid/eid.routes.js';
import {
  bearer,
  buildTestApp,
  idHash,
  initiateMobile,
  mockAuthorize,
  pkcePair,
  setCookies,
  signInMobile,
  signInWeb,
  testConfig,
  web,
} from './helpers.js';

type Env = Awaited<ReturnType<typeof buildTestApp>>;
let env: Env;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const MINOR_PID = minorPid(); // 10 years old
const ADULT_PID = '13097248022';

/** A valid number of someone who turns 10 this year (individual numbers 500+ for the 2000s). */
function minorPid(): string {
  const yy = String(new Date().getUTCFullYear() - 2010).padStart(2, '0');
  for (let individual = 500; ; individual++) {
    const n = withCheckDigits(`0101${yy}${individual}`);
    if (n) return n;
  }
}

beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

async function startWeb() {
  const res = await env.app.inject({ method: 'GET', url: '/api/auth/eid' });
  expect(res.statusCode).toBe(200);
  return { redirectUrl: res.json().redirectUrl as string, cookie: setCookies(res).eid_state };
}

async function webCallback(code: string, state: string, stateCookie?: string) {
  return env.app.inject({
    method: 'GET',
    url: `/api/auth/eid/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    cookies: stateCookie ? { eid_state: stateCookie } : {},
  });
}

describe('web eID sign-in against the mock provider', () => {
  it('starts with state, nonce and PKCE S256 and sets the eid_state cookie', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const url = new URL(redirectUrl);
    expect(url.pathname).toBe('/api/auth/eid/mock/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe(cookie.value);
    expect(cookie.raw).toMatch(/HttpOnly/i);
    expect(cookie.raw).toMatch(/SameSite=Lax/i);
  });

  it('creates an approved eID user, sets app_token and redirects to /dashboard', async () => {
    const pid = withCheckDigits('020391124')!;
    const { response, cookie } = await signInWeb(env.app, {
      pid,
      given_name: 'Ola',
      family_name: 'Nordmann',
      email: 'ola@example.no',
    });
    expect(response.statusCode).toBe(302);
    const raw = setCookies(response).app_token.raw;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Strict/i);
    expect(raw).toMatch(/Path=\//);
    const user = await env.db.system
      .selectFrom('users')
      .selectAll()
      .where('national_id_hash', '=', idHash(pid))
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      kyc_status: 'approved',
      kyc_method: 'eid',
      auth_provider: 'mock-eid',
      password_hash: 'EIDONLY',
      first_name: 'Ola',
      last_name: 'Nordmann',
      email: 'ola@example.no',
      date_of_birth: '1991-03-02',
      role: 'user',
    });
    const token = decodeJwt(cookie);
    expect(token).toMatchObject({ userId: user.id, email: 'ola@example.no', role: 'user' });
    expect(token.iss).toBeUndefined();
    expect(token.aud).toBeUndefined();
    expect(token.exp! - token.iat!).toBe(24 * 3600);
    const session = await env.db.system
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', sha256(cookie))
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ user_id: user.id, surface: 'web', revoked: 0 });

    const me = await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(cookie) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      id: user.id,
      firstName: 'Ola',
      kycStatus: 'approved',
      totalBalance: 0,
      bankAccounts: [],
    });
  });

  it('matches a returning user by national id and records a security notification', async () => {
    const pid = withCheckDigits('110488234')!;
    await signInWeb(env.app, { pid });
    await signInWeb(env.app, { pid, given_name: 'Changed' });
    const users = await env.db.system
      .selectFrom('users')
      .selectAll()
      .where('national_id_hash', '=', idHash(pid))
      .execute();
    expect(users).toHaveLength(1);
    const notes = await env.db.system
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', users[0].id)
      .execute();
    expect(notes.map((n) => n.type)).toEqual(['security']);
  });

  it('creates a new account when an erased user signs in again', async () => {
    const pid = withCheckDigits('230777345')!;
    await signInWeb(env.app, { pid });
    await env.db.system
      .updateTable('users')
      .set({ deleted_at: new Date() })
      .where('national_id_hash', '=', idHash(pid))
      .execute();
    await signInWeb(env.app, { pid });
    const users = await env.db.system
      .selectFrom('users')
      .select(['id', 'deleted_at'])
      .where('national_id_hash', '=', idHash(pid))
      .execute();
    expect(users).toHaveLength(2);
    expect(users.filter((u) => u.deleted_at === null)).toHaveLength(1);
  });

  it('redirects to /login?error=state_mismatch when the state differs from the cookie or the cookie is missing', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const { code, state } = await mockAuthorize(env.app, redirectUrl);
    const tampered = await webCallback(code, `${state}x`, cookie.value);
    expect(tampered.headers.location).toMatch(/^\/login\?error=state_mismatch&reason=.+/);
    const noCookie = await webCallback(code, state);
    expect(noCookie.headers.location).toMatch(/^\/login\?error=state_mismatch&reason=.*cookie/);
    expect(setCookies(noCookie).app_token).toBeUndefined();
  });

  it('refuses a code used twice', async () => {
    const first = await startWeb();
    const { code, state } = await mockAuthorize(env.app, first.redirectUrl);
    expect((await webCallback(code, state, first.cookie.value)).headers.location).toBe('/dashboard');
    // Replaying the whole callback: the state is consumed.
    expect((await webCallback(code, state, first.cookie.value)).headers.location).toBe(
      `/login?error=state_mismatch&reason=${encodeURIComponent('unknown, used or expired state')}`,
    );
    // The old code inside a fresh sign-in: the provider refuses it.
    const second = await startWeb();
    const fresh = new URL(second.redirectUrl).searchParams.get('state')!;
    const replay = await webCallback(code, fresh, second.cookie.value);
    expect(replay.headers.location).toBe('/login?error=eid_provider_error');
  });

  it('refuses an ID token whose nonce differs from the one this sign-in sent', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const { code, state } = await mockAuthorize(env.app, redirectUrl);
    await env.db.system
      .updateTable('eid_auth_requests')
      .set({ nonce: 'another-nonce' })
      .where('state', '=', state)
      .execute();
    expect((await webCallback(code, state, cookie.value)).headers.location).toBe('/login?error=eid_provider_error');
  });

  it('refuses a code exchanged without the matching PKCE verifier', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const { code, state } = await mockAuthorize(env.app, redirectUrl);
    await env.db.system
      .updateTable('eid_auth_requests')
      .set({ code_verifier: 'x'.repeat(43) })
      .where('state', '=', state)
      .execute();
    expect((await webCallback(code, state, cookie.value)).headers.location).toBe('/login?error=eid_provider_error');
  });

  it('refuses users under 18 and creates no account', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const { code, state } = await mockAuthorize(env.app, redirectUrl, { pid: MINOR_PID });
    expect((await webCallback(code, state, cookie.value)).headers.location).toBe('/login?error=age_restricted');
    const user = await env.db.system
      .selectFrom('users')
      .select('id')
      .where('national_id_hash', '=', idHash(MINOR_PID))
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('prefers the birthdate claim over the date in the number', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const { code, state } = await mockAuthorize(env.app, redirectUrl, { pid: ADULT_PID, birthdate: '2015-01-01' });
    expect((await webCallback(code, state, cookie.value)).headers.location).toBe('/login?error=age_restricted');
  });

  it('passes on a provider error answer (user cancelled)', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/auth/eid/callback?error=access_denied&state=x' });
    expect(res.headers.location).toBe('/login?error=access_denied');
  });

  it('the mock provider refuses unregistered redirect URIs', async () => {
    const { redirectUrl } = await startWeb();
    const url = new URL(redirectUrl);
    url.searchParams.set('redirect_uri', 'https://evil.example/cb');
    const res = await env.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('bad_request');
  });
});

/**
 * A browser's cookie jar in one line: a cookie goes back only to the host that set it. The web
 * sign-in from the README's address (http://127.0.0.1:3001) through the mock provider.
 */
async function browserSignIn(app: Env['app'], startOrigin: string) {
  const host = new URL(startOrigin).host;
  const start = await app.inject({ method: 'GET', url: '/api/auth/eid', headers: { host } });
  const cookie = setCookies(start).eid_state.value;
  const back = await mockAuthorize(app, start.json().redirectUrl);
  const sameHost = back.location.host === host;
  return app.inject({
    method: 'GET',
    url: back.location.pathname + back.location.search,
    headers: { host: back.location.host },
    cookies: sameHost ? { eid_state: cookie } : {},
  });
}

describe('eID sign-in from the README address (issue 25 item 5)', () => {
  it('derives the callback, the allowed origin and the redirects from one public URL, by default the README address', () => {
    const config = testConfig();
    expect(config.publicUrl).toBe('http://127.0.0.1:3001');
    expect(config.eid.callbackUrl).toBe('http://127.0.0.1:3001/api/auth/eid/callback');
    expect(config.allowedOrigins).toEqual(['http://127.0.0.1:3001']);
    const moved = testConfig({ REMITTANCE_PUBLIC_URL: 'https://pay.example.no/' });
    expect(moved.eid.callbackUrl).toBe('https://pay.example.no/api/auth/eid/callback');
    expect(moved.allowedOrigins).toEqual(['https://pay.example.no']);
  });

  it('signs in a browser that opened http://127.0.0.1:3001', async () => {
    const res = await browserSignIn(env.app, 'http://127.0.0.1:3001');
    expect(res.headers.location).toBe('/dashboard');
    expect(setCookies(res).app_token).toBeDefined();
  });

  it('explains a mismatch: the sign-in started on one host and the callback came back to another', async () => {
    const other = await buildTestApp({ REMITTANCE_PUBLIC_URL: 'http://localhost:3001' });
    try {
      const res = await browserSignIn(other.app, 'http://127.0.0.1:3001');
      const location = new URL(res.headers.location as string, 'http://x');
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('error')).toBe('state_mismatch');
      const reason = location.searchParams.get('reason')!;
      expect(reason).toContain('http://127.0.0.1:3001');
      expect(reason).toContain('http://localhost:3001');
      expect(reason).toMatch(/REMITTANCE_PUBLIC_URL/);
    } finally {
      await other.close();
    }
  });
});

describe('mobile eID sign-in against the mock provider', () => {
  it('initiates with {redirectUrl, state} towards the app deep link and returns {token, data}', async () => {
    const pkce = pkcePair();
    const start = await env.app.inject({
      method: 'GET',
      url: `/v1/auth/eid/initiate?platform=mobile&code_challenge=${pkce.challenge}&code_challenge_method=S256`,
    });
    expect(start.statusCode).toBe(200);
    const { redirectUrl, state } = start.json();
    expect(new URL(redirectUrl).searchParams.get('redirect_uri')).toBe('app://auth/callback');
    // The provider gets the app's own challenge: only the app can finish this sign-in.
    expect(new URL(redirectUrl).searchParams.get('code_challenge')).toBe(pkce.challenge);
    const back = await mockAuthorize(env.app, redirectUrl, { pid: MOCK_DEFAULT_PID });
    expect(back.location.protocol).toBe('app:');
    expect(back.state).toBe(state);
    const res = await env.app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      payload: { code: back.code, state, platform: 'mobile', code_verifier: pkce.verifier },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({
      firstName: 'Kari',
      lastName: 'Nordmann',
      kycStatus: 'approved',
      dateOfBirth: '1985-05-15',
    });
    const claims = decodeJwt(body.token);
    expect(claims).toMatchObject({ iss: 'app-api', aud: 'app', userId: body.data.id, role: 'user' });
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 3600);
    const me = await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.id).toBe(body.data.id);
    // The server keeps no verifier for a mobile sign-in (RFC 8252: the app holds it).
    const kept = await env.db.system.selectFrom('eid_auth_requests').select('code_verifier').execute();
    expect(kept.every((r) => r.code_verifier !== pkce.verifier)).toBe(true);
  });

  it('refuses a stolen redirect: the code and state without the app verifier give no token (issue 33 item 1)', async () => {
    const app = await initiateMobile(env.app);
    // Another app claimed the redirect and read code and state; it does not have the verifier.
    const stolen = await mockAuthorize(env.app, app.redirectUrl);
    const post = (payload: object) =>
      env.app.inject({
        method: 'POST',
        url: '/v1/auth/eid/callback',
        headers: { 'x-forwarded-for': '203.0.113.9' },
        payload,
      });
    const without = await post({ code: stolen.code, state: stolen.state, platform: 'mobile' });
    expect(without.statusCode).toBe(400);
    expect(without.json().error).toBe('bad_request');
    expect(without.json().token).toBeUndefined();
    const guessed = await post({
      code: stolen.code,
      state: stolen.state,
      platform: 'mobile',
      code_verifier: pkcePair().verifier,
    });
    expect(guessed.statusCode).toBe(400);
    expect(guessed.json()).toMatchObject({ error: 'bad_request', message: expect.stringMatching(/code_verifier/) });
    expect(guessed.json().token).toBeUndefined();
    // A wrong verifier spends the state: nothing can be retried against it.
    const late = await post({
      code: stolen.code,
      state: stolen.state,
      platform: 'mobile',
      code_verifier: app.verifier,
    });
    expect(late.statusCode).toBe(400);
  });

  it('refuses to start a mobile sign-in without the app code_challenge (400)', async () => {
    for (const query of ['platform=mobile', 'platform=mobile&code_challenge=short', 'code_challenge_method=plain']) {
      const res = await env.app.inject({ method: 'GET', url: `/v1/auth/eid/initiate?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
  });

  it('answers errors as JSON: state mismatch 400, invalid national id 422, under 18 403, provider failure 502', async () => {
    const post = (payload: object) => env.app.inject({ method: 'POST', url: '/v1/auth/eid/callback', payload });
    const initiate = () => initiateMobile(env.app);

    let s = await initiate();
    let back = await mockAuthorize(env.app, s.redirectUrl);
    const mismatch = await post({
      code: back.code,
      state: 'not-the-state',
      platform: 'mobile',
      code_verifier: s.verifier,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toBe('bad_request');

    s = await initiate();
    back = await mockAuthorize(env.app, s.redirectUrl, { pid: '13097248023' });
    const invalid = await post({ code: back.code, state: s.state, platform: 'mobile', code_verifier: s.verifier });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error).toBe('validation_error');

    s = await initiate();
    back = await mockAuthorize(env.app, s.redirectUrl, { pid: MINOR_PID });
    const minor = await post({ code: back.code, state: s.state, platform: 'mobile', code_verifier: s.verifier });
    expect(minor.statusCode).toBe(403);
    expect(minor.json().error).toBe('age_restricted');

    s = await initiate();
    back = await mockAuthorize(env.app, s.redirectUrl);
    expect((await post({ code: back.code, state: s.state, code_verifier: s.verifier })).statusCode).toBe(200);
    const s2 = await initiate();
    const reused = await post({ code: back.code, state: s2.state, platform: 'mobile', code_verifier: s2.verifier });
    expect(reused.statusCode).toBe(502);
    expect(reused.json().error).toBe('eid_provider_error');
  });

  it('validates the callback body', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      payload: { state: 'x', code_verifier: pkcePair().verifier },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', details: [{ field: 'code' }] });
    const bad = await env.app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      headers: { 'content-type': 'application/json' },
      payload: '{"code":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('bad_request');
  });

  it('a web token and a mobile token sign in the same person to the same account', async () => {
    const pid = withCheckDigits('050670456')!;
    const { cookie } = await signInWeb(env.app, { pid });
    const { token } = await signInMobile(env.app, { pid });
    const a = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(cookie) })).json().data.id;
    const b = (await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(token) })).json().data.id;
    expect(a).toBe(b);
  });
});

describe('old password endpoints', () => {
  it('answer 410 Gone on both surfaces and name the eID flow', async () => {
    for (const url of [
      '/api/auth/login',
      '/api/auth/register',
      '/api/auth/verify-otp',
      '/v1/auth/login',
      '/v1/auth/register',
    ]) {
      const res = await env.app.inject({ method: 'POST', url, payload: { email: 'a@b.no', password: 'secret123' } });
      expect(res.statusCode).toBe(410);
      expect(res.json().error).toBe('gone');
      expect(res.json().message).toMatch(/eid/i);
    }
  });
});

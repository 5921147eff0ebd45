import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigits } from '../src/lib/national-id.js';
import { MOCK_DEFAULT_PID } from '../src/modules/auth-eid/eid.routes.js';
import { bearer, mockAuthorize, setCookies, signInMobile, signInWeb, startApp, web } from './helpers.js';

type Env = Awaited<ReturnType<typeof startApp>>;
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
  env = await startApp();
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
      .where('national_id_hash', '=', sha256(pid))
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
      .where('national_id_hash', '=', sha256(pid))
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
      .where('national_id_hash', '=', sha256(pid))
      .execute();
    await signInWeb(env.app, { pid });
    const users = await env.db.system
      .selectFrom('users')
      .select(['id', 'deleted_at'])
      .where('national_id_hash', '=', sha256(pid))
      .execute();
    expect(users).toHaveLength(2);
    expect(users.filter((u) => u.deleted_at === null)).toHaveLength(1);
  });

  it('redirects to /login?error=state_mismatch when the state differs from the cookie or the cookie is missing', async () => {
    const { redirectUrl, cookie } = await startWeb();
    const { code, state } = await mockAuthorize(env.app, redirectUrl);
    const tampered = await webCallback(code, `${state}x`, cookie.value);
    expect(tampered.headers.location).toBe('/login?error=state_mismatch');
    const noCookie = await webCallback(code, state);
    expect(noCookie.headers.location).toBe('/login?error=state_mismatch');
    expect(setCookies(noCookie).app_token).toBeUndefined();
  });

  it('refuses a code used twice', async () => {
    const first = await startWeb();
    const { code, state } = await mockAuthorize(env.app, first.redirectUrl);
    expect((await webCallback(code, state, first.cookie.value)).headers.location).toBe('/dashboard');
    // Replaying the whole callback: the state is consumed.
    expect((await webCallback(code, state, first.cookie.value)).headers.location).toBe('/login?error=state_mismatch');
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
      .where('national_id_hash', '=', sha256(MINOR_PID))
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

describe('mobile eID sign-in against the mock provider', () => {
  it('initiates with {redirectUrl, state} towards the app deep link and returns {token, data}', async () => {
    const start = await env.app.inject({ method: 'GET', url: '/v1/auth/eid/initiate?platform=mobile' });
    expect(start.statusCode).toBe(200);
    const { redirectUrl, state } = start.json();
    expect(new URL(redirectUrl).searchParams.get('redirect_uri')).toBe('app://auth/callback');
    const back = await mockAuthorize(env.app, redirectUrl, { pid: MOCK_DEFAULT_PID });
    expect(back.location.protocol).toBe('app:');
    expect(back.state).toBe(state);
    const res = await env.app.inject({
      method: 'POST',
      url: '/v1/auth/eid/callback',
      payload: { code: back.code, state, platform: 'mobile' },
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
  });

  it('answers errors as JSON: state mismatch 400, invalid national id 422, under 18 403, provider failure 502', async () => {
    const post = (payload: object) => env.app.inject({ method: 'POST', url: '/v1/auth/eid/callback', payload });
    const initiate = async () =>
      (await env.app.inject({ method: 'GET', url: '/v1/auth/eid/initiate?platform=mobile' })).json();

    let s = await initiate();
    let back = await mockAuthorize(env.app, s.redirectUrl);
    const mismatch = await post({ code: back.code, state: 'not-the-state', platform: 'mobile' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toBe('bad_request');

    s = await initiate();
    back = await mockAuthorize(env.app, s.redirectUrl, { pid: '13097248023' });
    const invalid = await post({ code: back.code, state: s.state, platform: 'mobile' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error).toBe('validation_error');

    s = await initiate();
    back = await mockAuthorize(env.app, s.redirectUrl, { pid: MINOR_PID });
    const minor = await post({ code: back.code, state: s.state, platform: 'mobile' });
    expect(minor.statusCode).toBe(403);
    expect(minor.json().error).toBe('age_restricted');

    s = await initiate();
    back = await mockAuthorize(env.app, s.redirectUrl);
    expect((await post({ code: back.code, state: s.state })).statusCode).toBe(200);
    const s2 = await initiate();
    const reused = await post({ code: back.code, state: s2.state, platform: 'mobile' });
    expect(reused.statusCode).toBe(502);
    expect(reused.json().error).toBe('eid_provider_error');
  });

  it('validates the callback body', async () => {
    const res = await env.app.inject({ method: 'POST', url: '/v1/auth/eid/callback', payload: { state: 'x' } });
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

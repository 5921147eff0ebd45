import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPid, signInMobile, signInWeb, web } from './helpers.js';

/** Issue 33 item 11: absolute session lifetime, refresh token reuse detection, step-up for erasure. */
let env: Awaited<ReturnType<typeof buildTestApp>>;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const DAY = 86_400_000;

beforeAll(async () => {
  env = await buildTestApp({ SESSION_MAX_LIFETIME: '30d', REAUTH_MAX_AGE: '10m', REFRESH_REUSE_GRACE: '10s' });
});
afterAll(async () => env?.close());

const refresh = (token: string) => env.app.inject({ method: 'POST', url: '/v1/auth/refresh', ...bearer(token) });
const me = (token: string) => env.app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(token) });

/** Moves the eID sign-in behind a token's session into the past. */
async function signedInAgo(token: string, ms: number) {
  await env.db.system
    .updateTable('sessions')
    .set({ authenticated_at: new Date(Date.now() - ms) })
    .where('token_hash', '=', sha256(token))
    .execute();
}

describe('absolute session lifetime (SESSION_MAX_LIFETIME)', () => {
  it('a refresh never carries a login past SESSION_MAX_LIFETIME after its eID sign-in', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    // Signed in 30 days minus one hour ago: the refreshed token lives one hour at most, not 7 days.
    await signedInAgo(token, 30 * DAY - 3_600_000);
    const res = await refresh(token);
    expect(res.statusCode).toBe(200);
    const next = res.json().data.token as string;
    const { exp } = decodeJwt(next);
    expect(exp! * 1000).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);
    const row = await env.db.system
      .selectFrom('sessions')
      .select(['expires_at', 'authenticated_at'])
      .where('token_hash', '=', sha256(next))
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(row.authenticated_at.getTime() + 30 * DAY);
  });

  it('refuses to refresh a login older than SESSION_MAX_LIFETIME', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    await signedInAgo(token, 31 * DAY);
    const res = await refresh(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/sign in with eID again/i);
  });
});

describe('refresh token reuse detection', () => {
  it('a replaced token presented again ends the whole login, the new token included', async () => {
    const { token: first } = await signInMobile(env.app, { pid: nextPid() });
    const second = (await refresh(first)).json().data.token as string;
    expect((await me(second)).statusCode).toBe(200);
    // Past the grace for concurrent refreshes: someone else holds the old token.
    await env.db.system
      .updateTable('sessions')
      .set({ revoked_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', sha256(first))
      .execute();
    const replayed = await refresh(first);
    expect(replayed.statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    const rows = await env.db.system
      .selectFrom('sessions')
      .select('revoked_reason')
      .where('token_hash', '=', sha256(second))
      .executeTakeFirstOrThrow();
    expect(rows.revoked_reason).toBe('reuse');
  });

  it('within REFRESH_REUSE_GRACE (two refreshes racing) the old token is refused but the login goes on', async () => {
    const { token: first } = await signInMobile(env.app, { pid: nextPid() });
    const second = (await refresh(first)).json().data.token as string;
    expect((await refresh(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it('other logins of the same user survive the reuse of one', async () => {
    const pid = nextPid();
    const phone = await signInMobile(env.app, { pid });
    const browser = await signInWeb(env.app, { pid });
    const second = (await refresh(phone.token)).json().data.token as string;
    await env.db.system
      .updateTable('sessions')
      .set({ revoked_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', sha256(phone.token))
      .execute();
    expect((await me(phone.token)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    const web1 = await env.app.inject({ method: 'GET', url: '/api/auth/me', ...web(browser.cookie) });
    expect(web1.statusCode).toBe(200);
  });
});

describe('step-up for erasure (REAUTH_MAX_AGE)', () => {
  for (const surface of ['api', 'v1'] as const) {
    it(`refuses to erase on a sign-in older than REAUTH_MAX_AGE, even after refreshes (${surface})`, async () => {
      const pid = nextPid();
      const signIn = surface === 'v1' ? await signInMobile(env.app, { pid }) : null;
      const browser = surface === 'api' ? await signInWeb(env.app, { pid }) : null;
      const token = signIn?.token ?? browser!.cookie;
      const auth = surface === 'v1' ? bearer(token) : web(token);
      await signedInAgo(token, 11 * 60_000);
      const refused = await env.app.inject({ method: 'DELETE', url: `/${surface}/user/account`, ...auth });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('reauthentication_required');
      // A refresh does not count as a new sign-in.
      const refreshed = await env.app.inject({ method: 'POST', url: `/${surface}/auth/refresh`, ...auth });
      expect(refreshed.statusCode).toBe(200);
      const next =
        surface === 'v1'
          ? bearer(refreshed.json().data.token)
          : web((refreshed.headers['set-cookie'] as string | string[]).toString().match(/app_token=([^;]+)/)![1] ?? '');
      const again = await env.app.inject({ method: 'DELETE', url: `/${surface}/user/account`, ...next });
      expect(again.statusCode).toBe(403);
      const user = await env.db.system
        .selectFrom('users')
        .select('deleted_at')
        .where('id', '=', (await env.app.inject({ method: 'GET', url: `/${surface}/auth/me`, ...next })).json().data.id)
        .executeTakeFirstOrThrow();
      expect(user.deleted_at).toBeNull();
      // A fresh eID sign-in may erase.
      const fresh =
        surface === 'v1'
          ? bearer((await signInMobile(env.app, { pid })).token)
          : web((await signInWeb(env.app, { pid })).cookie);
      const done = await env.app.inject({ method: 'DELETE', url: `/${surface}/user/account`, ...fresh });
      expect(done.statusCode).toBe(200);
    });
  }
});

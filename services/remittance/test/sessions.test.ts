import { createHash, generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigits } from '../src/lib/national-id.js';
import { bearer, buildTestApp, ORIGIN, setCookies, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
let seq = 100;
const nextPid = () => {
  for (;;) {
    const n = withCheckDigits(`1203${80 + (seq % 10)}${seq++}`);
    if (n) return n;
  }
};

beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

const me = (surface: 'api' | 'v1', auth: object) =>
  env.app.inject({ method: 'GET', url: `/${surface}/auth/me`, ...auth });

describe('sessions (R7)', () => {
  it('refuses requests without a token on both surfaces', async () => {
    for (const url of ['/api/auth/me', '/v1/auth/me']) {
      const res = await env.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('refuses a token with a forged signature', async () => {
    const forged = await new SignJWT({ userId: 'usr_x', email: null, role: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const res = await me('api', { cookies: { app_token: forged } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'Invalid token' });
  });

  it('logout revokes every session of the user on both surfaces and clears the cookie', async () => {
    const pid = nextPid();
    const { cookie } = await signInWeb(env.app, { pid });
    const { token } = await signInMobile(env.app, { pid });
    expect((await me('api', web(cookie))).statusCode).toBe(200);
    expect((await me('v1', bearer(token))).statusCode).toBe(200);

    const out = await env.app.inject({ method: 'POST', url: '/api/auth/logout', ...web(cookie) });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBeTruthy();
    expect(setCookies(out).app_token.raw).toMatch(/Expires=Thu, 01 Jan 1970/);

    expect((await me('api', web(cookie))).statusCode).toBe(401);
    expect((await me('v1', bearer(token))).statusCode).toBe(401);
    const rows = await env.db.system
      .selectFrom('sessions')
      .select('revoked')
      .where('token_hash', 'in', [sha256(cookie), sha256(token)])
      .execute();
    expect(rows.map((r) => r.revoked)).toEqual([1, 1]);
  });

  it('refuses a session whose row has expired, on both surfaces, though the JWT is still valid', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    await env.db.system
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', 'in', [sha256(cookie), sha256(token)])
      .execute();
    expect((await me('api', web(cookie))).statusCode).toBe(401);
    expect((await me('v1', bearer(token))).statusCode).toBe(401);
  });

  it('refuses an expired JWT even when its session row is live', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    const session = await env.db.system
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ userId: session.user_id, email: null, role: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('app-api')
      .setAudience('app')
      .setIssuedAt(past - 60)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode('test-secret-test-secret-test-secret-0123456789'));
    await env.db.system
      .insertInto('sessions')
      .values({
        id: 'ses_expired',
        user_id: session.user_id,
        token_hash: sha256(expired),
        surface: 'api',
        expires_at: new Date(Date.now() + 3600_000),
      })
      .execute();
    const res = await me('v1', bearer(expired));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'Token expired' });
  });

  it('refuses a web token on /v1 and a standalone API token on /api', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    expect((await me('v1', bearer(cookie))).statusCode).toBe(401);
    expect((await me('api', { cookies: { app_token: token } })).statusCode).toBe(401);
  });

  it('refresh on /v1 revokes the presented session and returns a new token', async () => {
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    const res = await env.app.inject({ method: 'POST', url: '/v1/auth/refresh', ...bearer(token) });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ role: 'user' });
    expect(data.userId).toMatch(/^usr_/);
    expect(data.token).toBeTruthy();
    expect(data.token).not.toBe(token);
    expect((await me('v1', bearer(token))).statusCode).toBe(401);
    expect((await me('v1', bearer(data.token))).statusCode).toBe(200);
    // The old token cannot refresh again.
    expect((await env.app.inject({ method: 'POST', url: '/v1/auth/refresh', ...bearer(token) })).statusCode).toBe(401);
  });

  it('refresh on /api resets the cookie', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const res = await env.app.inject({ method: 'POST', url: '/api/auth/refresh', ...web(cookie) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.token).toBeUndefined();
    const fresh = setCookies(res).app_token.value;
    expect(fresh).not.toBe(cookie);
    expect((await me('api', web(cookie))).statusCode).toBe(401);
    expect((await me('api', web(fresh))).statusCode).toBe(200);
  });

  it('refuses sessions of an erased user', async () => {
    const { token, user } = await signInMobile(env.app, { pid: nextPid() });
    await env.db.system.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', user.id).execute();
    expect((await me('v1', bearer(token))).statusCode).toBe(401);
  });
});

describe('CSRF Origin rule (R4)', () => {
  it('refuses a cookie-authenticated POST without an allowed Origin or Referer', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    const post = (headers: Record<string, string>) =>
      env.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { app_token: cookie }, headers });
    const none = await post({});
    expect(none.statusCode).toBe(403);
    expect(none.json().error).toBe('forbidden');
    expect((await post({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({ referer: 'https://evil.example/page' })).statusCode).toBe(403);
    expect((await post({ origin: 'null' })).statusCode).toBe(403);
    // The session was not touched by the refused requests.
    expect((await me('api', web(cookie))).statusCode).toBe(200);
    const ok = await post({ referer: `${ORIGIN}/settings` });
    expect(ok.statusCode).toBe(200);
  });

  it('does not apply to safe methods or to Bearer requests on /v1', async () => {
    const { cookie } = await signInWeb(env.app, { pid: nextPid() });
    expect((await me('api', { cookies: { app_token: cookie } })).statusCode).toBe(200);
    const { token } = await signInMobile(env.app, { pid: nextPid() });
    expect((await env.app.inject({ method: 'POST', url: '/v1/auth/refresh', ...bearer(token) })).statusCode).toBe(200);
  });
});

describe('RS256 tokens', () => {
  it('signs and verifies with JWT_PRIVATE_KEY / JWT_PUBLIC_KEY when JWT_ALGORITHM=RS256', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = await buildTestApp({
      JWT_ALGORITHM: 'RS256',
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    try {
      const { token } = await signInMobile(rs.app);
      expect(decodeProtectedHeader(token).alg).toBe('RS256');
      expect((await rs.app.inject({ method: 'GET', url: '/v1/auth/me', ...bearer(token) })).statusCode).toBe(200);
    } finally {
      await rs.close();
    }
  });
});

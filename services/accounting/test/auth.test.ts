import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messageFor } from '../src/lib/catalog.js';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/jwt.js';
import {
  addMember,
  authed,
  buildTestApp,
  freshIp,
  login,
  registerOrg,
  STRONG_PASSWORD,
  type TestApp,
  uniqueEmail,
} from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());
afterEach(() => {
  vi.useRealTimers();
});

const me = (token: string) =>
  h.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });
const refresh = (cookie: string | undefined) =>
  h.app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    cookies: cookie === undefined ? {} : { refreshToken: cookie },
  });
const cookieOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
  res.cookies.find((c) => c.name === 'refreshToken');

describe('POST /auth/register', () => {
  it('creates the organization, its owner, the default chart and the country tax rates', async () => {
    const s = await registerOrg(h.app, {
      country: 'HR',
      baseCurrency: 'EUR',
      language: 'hr',
      organizationName: 'Tvrtka d.o.o.',
    });
    expect(s.body.user).toMatchObject({ email: s.email, role: 'owner', fullName: 'Owner Person' });
    expect(s.body.organization).toMatchObject({ name: 'Tvrtka d.o.o.', country: 'HR', baseCurrency: 'EUR' });
    expect(s.body.tokens.refreshToken).toBe(s.refreshCookie);
    const accounts = await h.t.db.system
      .selectFrom('accounts')
      .select(['code', 'account_type_id'])
      .where('organization_id', '=', s.orgId)
      .orderBy('code')
      .execute();
    expect(accounts.map((a) => a.code)).toEqual([
      '1000',
      '1100',
      '1200',
      '1300',
      '1500',
      '2110',
      '2300',
      '2500',
      '3000',
      '3100',
      '4000',
      '4900',
      '5000',
      '5100',
      '5200',
      '5300',
      '5400',
    ]);
    const rates = await h.t.db.system
      .selectFrom('tax_rates')
      .select('rate')
      .where('organization_id', '=', s.orgId)
      .orderBy('position')
      .execute();
    expect(rates.map((r) => Number(r.rate))).toEqual([25, 13, 5, 0]);
  });

  it.each([
    ['RS', [20, 10, 0]],
    ['BA', [17, 0]],
  ])('seeds the %s VAT rates', async (country, expected) => {
    const s = await registerOrg(h.app, {
      country,
      baseCurrency: country === 'BA' ? 'BAM' : 'RSD',
      language: country === 'BA' ? 'bs' : 'sr',
    });
    const rates = await h.t.db.system
      .selectFrom('tax_rates')
      .select('rate')
      .where('organization_id', '=', s.orgId)
      .orderBy('position')
      .execute();
    expect(rates.map((r) => Number(r.rate))).toEqual(expected);
  });

  it('answers 409 SVC-1008 for an e-mail that exists, in any letter case', async () => {
    const s = await registerOrg(h.app);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: freshIp(),
      payload: {
        organizationName: 'X',
        country: 'RS',
        baseCurrency: 'RSD',
        language: 'sr',
        email: s.email.toUpperCase(),
        password: STRONG_PASSWORD,
        fullName: 'Y',
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('SVC-1008');
  });

  it('answers 422 SVC-1009 listing every weakness of the password', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: freshIp(),
      payload: {
        organizationName: 'X',
        country: 'RS',
        baseCurrency: 'RSD',
        language: 'sr',
        email: uniqueEmail(),
        password: 'short',
        fullName: 'Y',
      },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error.code).toBe('SVC-1009');
    expect(body.error.details.password).toEqual(
      expect.arrayContaining([
        'must be at least 8 characters',
        'must contain an upper-case letter',
        'must contain a digit',
      ]),
    );
  });

  it('answers 422 SVC-2002 for an unsupported base currency and SVC-2003 for a language', async () => {
    const base = {
      organizationName: 'X',
      country: 'RS',
      language: 'sr',
      baseCurrency: 'RSD',
      email: uniqueEmail(),
      password: STRONG_PASSWORD,
      fullName: 'Y',
    };
    const cur = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: freshIp(),
      payload: { ...base, baseCurrency: 'USD' },
    });
    expect(cur.statusCode).toBe(422);
    expect(cur.json().error.code).toBe('SVC-2002');
    const lang = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: freshIp(),
      payload: { ...base, language: 'de' },
    });
    expect(lang.json().error.code).toBe('SVC-2003');
  });

  it('answers 422 SVC-9003 with field details for other invalid input', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: freshIp(),
      payload: { organizationName: '', country: 'DE', email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(422);
    const { error } = res.json();
    expect(error.code).toBe('SVC-9003');
    expect(Object.keys(error.details)).toEqual(
      expect.arrayContaining(['organizationName', 'country', 'email', 'password', 'fullName']),
    );
  });
});

describe('POST /auth/login', () => {
  it('returns the user with organization and an access token, and sets only the refresh cookie', async () => {
    const s = await registerOrg(h.app);
    const res = await login(h.app, s.email, s.password, { rememberMe: true });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({
      id: s.userId,
      email: s.email,
      fullName: 'Owner Person',
      role: 'owner',
      organizationId: s.orgId,
      organizationName: 'Test d.o.o.',
    });
    expect(body.tokens.refreshToken).toBeUndefined();
    const cookie = cookieOf(res)! as { expires?: Date; name: string; value: string };
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
    // rememberMe: 30 days instead of 7.
    const days = (new Date(cookie.expires!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect((await me(body.tokens.accessToken)).statusCode).toBe(200);
  });

  it('answers 401 SVC-1001 for a wrong password and for an unknown e-mail', async () => {
    const s = await registerOrg(h.app);
    for (const res of [
      await login(h.app, s.email, 'Wrong-pass1'),
      await login(h.app, uniqueEmail(), STRONG_PASSWORD),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('SVC-1001');
    }
  });

  it('answers 403 SVC-1002 for a removed user', async () => {
    const owner = await registerOrg(h.app);
    const member = await addMember(h.app, owner, 'viewer');
    await h.app.inject(authed(owner.token, { method: 'DELETE', url: `/api/v1/users/${member.userId}` }));
    const res = await login(h.app, member.email);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('SVC-1002');
  });

  it('localizes the message from Accept-Language before sign-in', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      headers: { 'accept-language': 'hr-HR,hr;q=0.9,en;q=0.5' },
      payload: { email: uniqueEmail(), password: 'x' },
    });
    expect(res.json().error).toEqual({ code: 'SVC-1001', message: 'Pogrešna e-adresa ili lozinka.' });
  });
});

describe('tokens', () => {
  const secretKey = () => new TextEncoder().encode(h.config.jwtSecret);

  it('answers 401 SVC-1005 without a bearer token', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('SVC-1005');
  });

  it('answers 401 SVC-1003 for an expired token and SVC-1004 for a tampered one', async () => {
    const s = await registerOrg(h.app);
    const [, payload] = s.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const expired = await new SignJWT({ org: claims.org, role: claims.role, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(claims.sub)
      .setJti('x')
      .setIssuedAt(1_700_000_000)
      .setExpirationTime(1_700_000_100)
      .sign(secretKey());
    expect((await me(expired)).json().error.code).toBe('SVC-1003');
    const tampered = s.token.slice(0, -3) + (s.token.endsWith('aaa') ? 'bbb' : 'aaa');
    const res = await me(tampered);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('SVC-1004');
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect((await me(noneAlg)).json().error.code).toBe('SVC-1004');
  });

  it('refuses a token signed with the right secret but without, or with another, issuer and audience (issue 33 item 12)', async () => {
    const s = await registerOrg(h.app);
    const claims = JSON.parse(Buffer.from(s.token.split('.')[1], 'base64url').toString());
    expect([claims.iss, claims.aud]).toEqual([TOKEN_ISSUER, TOKEN_AUDIENCE]);
    const build = (iss?: string, aud?: string) => {
      let jwt = new SignJWT({ org: claims.org, role: claims.role, sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setJti('x')
        .setIssuedAt()
        .setExpirationTime('5m');
      if (iss) jwt = jwt.setIssuer(iss);
      if (aud) jwt = jwt.setAudience(aud);
      return jwt.sign(secretKey());
    };
    expect((await me(await build(TOKEN_ISSUER, TOKEN_AUDIENCE))).statusCode).toBe(200);
    for (const [iss, aud] of [[], ['app-api', 'app'], [TOKEN_ISSUER, 'app'], ['app-api', TOKEN_AUDIENCE]]) {
      const res = await me(await build(iss, aud));
      expect([iss, aud, res.statusCode, res.json().error?.code]).toEqual([iss, aud, 401, 'SVC-1004']);
    }
  });

  it('answers 404 SVC-2001 when the organization in the token does not exist', async () => {
    const s = await registerOrg(h.app);
    const [, payload] = s.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const ghost = await new SignJWT({ org: '00000000-0000-4000-8000-000000000000', role: 'owner', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(claims.sub)
      .setJti('y')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(secretKey());
    const res = await me(ghost);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('SVC-2001');
  });
});

describe('the check of the caller (plugins/auth.ts; issue 34, tenant-scope mutants)', () => {
  const secretKey = () => new TextEncoder().encode(h.config.jwtSecret);
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
  const forge = (claims: { sub: string; org: string; sid: string; role?: string }) =>
    new SignJWT({ org: claims.org, role: claims.role ?? 'owner', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(claims.sub)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(secretKey());

  it('takes the token from a Bearer header in any letter case and spacing, and nothing else', async () => {
    const s = await registerOrg(h.app);
    const get = (authorization: string) =>
      h.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization } });
    for (const header of [`Bearer ${s.token}`, `bearer ${s.token}`, `BEARER   ${s.token}  `]) {
      const res = await get(header);
      expect([header, res.statusCode]).toEqual([header, 200]);
      expect(res.json().id).toBe(s.userId);
    }
    for (const header of [
      `Basic ${s.token}`,
      'Bearer',
      'Bearer ',
      `Bearer ${s.token} x`,
      `xBearer ${s.token}`,
      s.token,
    ]) {
      const res = await get(header);
      expect([header, res.statusCode, res.json().error.code]).toEqual([header, 401, 'SVC-1005']);
    }
  });

  it('lets public routes and unknown URLs through without a token', async () => {
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: uniqueEmail('nobody'), password: 'wrong-password-1A!' },
      remoteAddress: freshIp(),
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().error.code).toBe('SVC-1001');
    const unknown = await h.app.inject({ method: 'GET', url: '/api/v1/no-such-route' });
    expect(unknown.statusCode).toBe(404);
  });

  it("checks a cached session's user and organization against every token that names it", async () => {
    const s = await registerOrg(h.app);
    const other = await registerOrg(h.app);
    const { sid } = claimsOf(s.token);
    // The session is read and kept.
    expect((await me(s.token)).statusCode).toBe(200);
    expect((await me(s.token)).json().id).toBe(s.userId);
    // The same session id with another user, another organization, or none that exists.
    const asOther = await me(await forge({ sub: other.userId, org: s.orgId, sid }));
    expect([asOther.statusCode, asOther.json().error?.code]).toEqual([401, 'SVC-1004']);
    const inOther = await me(await forge({ sub: s.userId, org: other.orgId, sid }));
    expect([inOther.statusCode, inOther.json().error?.code]).toEqual([401, 'SVC-1004']);
    const ghost = await me(await forge({ sub: s.userId, org: '00000000-0000-4000-8000-000000000000', sid }));
    expect([ghost.statusCode, ghost.json().error?.code]).toEqual([404, 'SVC-2001']);
    // The session itself still answers as its own user.
    const again = await me(s.token);
    expect([again.statusCode, again.json().id, again.json().organization.id]).toEqual([200, s.userId, s.orgId]);
  });

  it("refuses a role the route does not allow with 403 SVC-9001, naming the roles, in the organization's language", async () => {
    const owner = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    const viewer = await addMember(h.app, owner, 'viewer');
    const post = () => h.app.inject(authed(viewer.token, { method: 'POST', url: '/api/v1/transactions', payload: {} }));
    // Twice: the first reads the session, the second finds it kept.
    for (const res of [await post(), await post()]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'SVC-9001',
        message: messageFor('SVC-9001', 'hr'),
        details: { required: ['owner', 'admin', 'accountant'], current: ['viewer'] },
      });
    }
    // A route open to every signed-in user lets the viewer in, as itself.
    const mine = await me(viewer.token);
    expect([mine.statusCode, mine.json().id, mine.json().role]).toEqual([200, viewer.userId, 'viewer']);
  });

  it("answers a revoked login and a deactivated user in the organization's language", async () => {
    const owner = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    const member = await addMember(h.app, owner, 'viewer');
    const second = (await login(h.app, owner.email)).json().tokens.accessToken as string;
    await h.app.inject(authed(second, { method: 'POST', url: '/api/v1/auth/logout' }));
    const revoked = await me(second);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toMatchObject({ code: 'SVC-1004', message: messageFor('SVC-1004', 'hr') });
    // Deactivated with its login left open (the DELETE route revokes the logins as well: SVC-1004).
    await h.t.db.system.updateTable('users').set({ is_active: false }).where('id', '=', member.userId).execute();
    const removed = await me(member.token);
    expect(removed.json().error).toMatchObject({ code: 'SVC-1002', message: messageFor('SVC-1002', 'hr') });
    expect(removed.statusCode).toBe(403);
  });
});

describe('GET /auth/me', () => {
  it('returns the user and organization', async () => {
    const s = await registerOrg(h.app, { country: 'BA', baseCurrency: 'BAM', language: 'bs' });
    const res = await me(s.token);
    expect(res.json()).toMatchObject({
      id: s.userId,
      email: s.email,
      fullName: 'Owner Person',
      role: 'owner',
      twoFactorEnabled: false,
      organization: { id: s.orgId, name: 'Test d.o.o.', country: 'BA', baseCurrency: 'BAM', language: 'bs' },
    });
    // Written by SQL in the principal's one JSON column: exactly what Date#toISOString makes of the stored value.
    const { rows } = await sql<{ at: Date }>`SELECT last_login_at AS at FROM users WHERE id = ${s.userId}`.execute(
      h.t.db.system,
    );
    expect(res.json().lastLoginAt).toBe(rows[0].at.toISOString());
    expect(Object.keys(res.json()).sort()).toEqual([
      'email',
      'fullName',
      'id',
      'lastLoginAt',
      'operatorOib',
      'organization',
      'role',
      'twoFactorEnabled',
    ]);
  });

  it('answers lastLoginAt null for a user who never signed in, and the operator OIB once set', async () => {
    const s = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    await sql`UPDATE users SET last_login_at = NULL, operator_oib = '12345678903' WHERE id = ${s.userId}`.execute(
      h.t.db.system,
    );
    const body = (await me(s.token)).json();
    expect(body.lastLoginAt).toBeNull();
    expect(body.operatorOib).toBe('12345678903');
    expect(body.organization).toEqual({
      id: s.orgId,
      name: 'Test d.o.o.',
      country: 'HR',
      baseCurrency: 'EUR',
      language: 'hr',
    });
  });
});

describe('refresh rotation', () => {
  it('rotates the token: the new one works, the old one stops working', async () => {
    const s = await registerOrg(h.app);
    const first = await refresh(s.refreshCookie);
    expect(first.statusCode).toBe(200);
    expect((await me(first.json().accessToken)).statusCode).toBe(200);
    const next = cookieOf(first)!.value;
    expect(next).not.toBe(s.refreshCookie);
    const second = await refresh(next);
    expect(second.statusCode).toBe(200);
  });

  it('revokes the whole login when a rotated-out token is presented again', async () => {
    const s = await registerOrg(h.app);
    const rotated = await refresh(s.refreshCookie);
    const current = cookieOf(rotated)!.value;
    const reuse = await refresh(s.refreshCookie);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error.code).toBe('SVC-1006');
    // The thief's replay ended the login: the legitimate holder's token and access token are dead too.
    expect((await refresh(current)).statusCode).toBe(401);
    expect((await me(rotated.json().accessToken)).json().error.code).toBe('SVC-1004');
    expect((await me(s.token)).statusCode).toBe(401);
  });

  it('answers 401 SVC-1006 without a cookie or with an unknown one', async () => {
    expect((await refresh(undefined)).json().error.code).toBe('SVC-1006');
    expect((await refresh('nope')).json().error.code).toBe('SVC-1006');
  });

  it('refuses an expired refresh token', async () => {
    const short = await buildTestApp({ REFRESH_TOKEN_TTL: '1s' });
    try {
      const s = await registerOrg(short.app);
      await new Promise((r) => setTimeout(r, 1100));
      const res = await short.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        cookies: { refreshToken: s.refreshCookie },
      });
      expect(res.json().error.code).toBe('SVC-1006');
    } finally {
      await short.close();
    }
  });
});

describe('POST /auth/logout', () => {
  it('invalidates the refresh token and the access token of that login, not other logins', async () => {
    const s = await registerOrg(h.app);
    const other = await login(h.app, s.email);
    const res = await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/logout' }));
    expect(res.statusCode).toBe(204);
    expect((await refresh(s.refreshCookie)).statusCode).toBe(401);
    expect((await me(s.token)).statusCode).toBe(401);
    expect((await me(other.json().tokens.accessToken)).statusCode).toBe(200);
  });
});

describe('PUT /auth/password', () => {
  it('changes the password and revokes every login of the user', async () => {
    const s = await registerOrg(h.app);
    const res = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/auth/password',
        payload: { currentPassword: STRONG_PASSWORD, newPassword: 'Another-Pass-7' },
      }),
    );
    expect(res.statusCode).toBe(204);
    expect((await refresh(s.refreshCookie)).statusCode).toBe(401);
    expect((await login(h.app, s.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(h.app, s.email, 'Another-Pass-7')).statusCode).toBe(200);
  });

  it('answers 401 SVC-1001 for a wrong current password and 422 SVC-1009 for a weak new one', async () => {
    const s = await registerOrg(h.app);
    const wrong = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/auth/password',
        payload: { currentPassword: 'Nope-nope-1', newPassword: 'Another-Pass-7' },
      }),
    );
    expect(wrong.json().error.code).toBe('SVC-1001');
    const weak = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/auth/password',
        payload: { currentPassword: STRONG_PASSWORD, newPassword: 'alllowercase' },
      }),
    );
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error).toMatchObject({ code: 'SVC-1009', details: { password: expect.any(Array) } });
    expect(weak.json().error.details).not.toHaveProperty('newPassword');
  });
});

describe('two-factor authentication', () => {
  // Only Date is faked, in the middle of a 30 s step, so codes are computed deterministically.
  function freezeClock() {
    const now = Math.floor(Date.now() / 30_000) * 30_000 + 10_000;
    vi.useFakeTimers({ toFake: ['Date'], now });
    return now;
  }

  it('sets up, enables with a TOTP code, requires the code at login, and disables', async () => {
    const now = freezeClock();
    const s = await registerOrg(h.app);
    const setup = await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/setup' }));
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

    const wrong = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/auth/2fa/enable',
        payload: { code: totp.generate({ timestamp: now + 120_000 }) },
      }),
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('SVC-1011');

    // The previous step is still accepted (A17).
    const enable = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/auth/2fa/enable',
        payload: { code: totp.generate({ timestamp: now - 30_000 }) },
      }),
    );
    expect(enable.json()).toEqual({ twoFactorEnabled: true });

    const noCode = await login(h.app, s.email);
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().error).toMatchObject({ code: 'SVC-1010', details: { requiresTwoFactor: ['true'] } });

    const withCode = await login(h.app, s.email, STRONG_PASSWORD, { code: totp.generate({ timestamp: now }) });
    expect(withCode.statusCode).toBe(200);

    // A code is never accepted twice.
    const replay = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-2fa',
      remoteAddress: freshIp(),
      payload: { email: s.email, password: STRONG_PASSWORD, code: totp.generate({ timestamp: now }) },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('SVC-1011');

    vi.setSystemTime(now + 30_000);
    const verify = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-2fa',
      remoteAddress: freshIp(),
      payload: { email: s.email, password: STRONG_PASSWORD, code: totp.generate({ timestamp: now + 30_000 }) },
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().user.id).toBe(s.userId);
    expect((await me(verify.json().tokens.accessToken)).json().twoFactorEnabled).toBe(true);

    vi.setSystemTime(now + 60_000);
    const token = verify.json().tokens.accessToken;
    const disable = await h.app.inject(
      authed(token, {
        method: 'POST',
        url: '/api/v1/auth/2fa/disable',
        payload: { code: totp.generate({ timestamp: now + 60_000 }) },
      }),
    );
    expect(disable.json()).toEqual({ twoFactorEnabled: false });
    expect((await login(h.app, s.email)).statusCode).toBe(200);
  });

  it('refuses to disable 2FA on a sign-in older than REAUTH_MAX_AGE, with a valid code (issue 33 item 11)', async () => {
    const now = freezeClock();
    const s = await registerOrg(h.app);
    const { secret } = (await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/setup' }))).json();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const code = (at: number) => ({ code: totp.generate({ timestamp: at }) });
    const enabled = await h.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/enable', payload: code(now) }),
    );
    expect(enabled.json()).toEqual({ twoFactorEnabled: true });
    // The sign-in is 11 minutes old (the access token, 15 min, still valid). Its start is the
    // database's clock (sessions.created_at), so it is moved there: on PostgreSQL the server's clock
    // does not follow the test's fake Date as the embedded database's does.
    await sql`UPDATE sessions SET created_at = created_at - interval '11 minutes' WHERE user_id = ${s.userId}::uuid`.execute(
      h.t.db.system,
    );
    const stale = await h.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/disable', payload: code(now + 30_000) }),
    );
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error).toMatchObject({ code: 'SVC-1010', details: { reauthentication: expect.any(Array) } });
    expect((await me(s.token)).json().twoFactorEnabled).toBe(true);
    // A fresh sign-in (password and code) may disable it.
    vi.setSystemTime(now + 30_000);
    const fresh = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-2fa',
      remoteAddress: freshIp(),
      payload: { email: s.email, password: STRONG_PASSWORD, ...code(now + 30_000) },
    });
    expect(fresh.statusCode).toBe(200);
    vi.setSystemTime(now + 60_000);
    const done = await h.app.inject(
      authed(fresh.json().tokens.accessToken, {
        method: 'POST',
        url: '/api/v1/auth/2fa/disable',
        payload: code(now + 60_000),
      }),
    );
    expect(done.json()).toEqual({ twoFactorEnabled: false });
  });

  it('refuses a code that is too old (two steps back)', async () => {
    const now = freezeClock();
    const s = await registerOrg(h.app);
    const { secret } = (await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/setup' }))).json();
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const res = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/auth/2fa/enable',
        payload: { code: totp.generate({ timestamp: now - 60_000 }) },
      }),
    );
    expect(res.json().error.code).toBe('SVC-1011');
  });
});

describe('invitations', () => {
  it('accepts an invitation once, answering like login with 201', async () => {
    const owner = await registerOrg(h.app);
    const email = uniqueEmail('inv');
    const inv = await h.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: '/api/v1/users/invite',
        payload: { email, fullName: 'Invited Person', role: 'accountant' },
      }),
    );
    expect(inv.statusCode).toBe(201);
    const link = new URL(inv.json().inviteLink);
    expect(`${link.origin}${link.pathname}`).toBe('https://app.example.test/accept-invite');
    const token = link.searchParams.get('token')!;

    const weak = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/accept-invite',
      payload: { token, password: 'weak' },
    });
    expect(weak.json().error.code).toBe('SVC-1009');

    const ok = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/accept-invite',
      payload: { token, password: STRONG_PASSWORD },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user).toMatchObject({ email, role: 'accountant', organizationId: owner.orgId });
    expect(cookieOf(ok)).toBeDefined();

    const again = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/accept-invite',
      payload: { token, password: STRONG_PASSWORD },
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('SVC-1012');
    expect((await login(h.app, email)).statusCode).toBe(200);
  });

  it('refuses an expired invitation with 401 SVC-1012', async () => {
    const short = await buildTestApp({ INVITE_TTL: '1s' });
    try {
      const owner = await registerOrg(short.app);
      const inv = await short.app.inject(
        authed(owner.token, {
          method: 'POST',
          url: '/api/v1/users/invite',
          payload: { email: uniqueEmail(), fullName: 'Late', role: 'viewer' },
        }),
      );
      const token = new URL(inv.json().inviteLink).searchParams.get('token')!;
      await new Promise((r) => setTimeout(r, 1100));
      const res = await short.app.inject({
        method: 'POST',
        url: '/api/v1/auth/accept-invite',
        payload: { token, password: STRONG_PASSWORD },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('SVC-1012');
    } finally {
      await short.close();
    }
  });

  it('does not let an invited user sign in before accepting', async () => {
    const owner = await registerOrg(h.app);
    const email = uniqueEmail();
    await h.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: '/api/v1/users/invite',
        payload: { email, fullName: 'Pending', role: 'viewer' },
      }),
    );
    expect((await login(h.app, email, STRONG_PASSWORD)).json().error.code).toBe('SVC-1001');
  });
});

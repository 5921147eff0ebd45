import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitMsAfter } from '../src/modules/auth/account-backoff.js';
import { authed, buildTestApp, freshIp, registerOrg, STRONG_PASSWORD, type TestApp } from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Date frozen inside a TOTP step, so neither the codes nor the waits move while the test runs. */
function freezeClock() {
  const now = Math.floor(Date.now() / 30_000) * 30_000 + 10_000;
  vi.useFakeTimers({ toFake: ['Date'], now });
  return now;
}

const signIn = (payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload, remoteAddress: freshIp() });

describe('per-account backoff across addresses (issue 33 item 3)', () => {
  it('slows 20 wrong TOTP codes sent from 20 addresses, then lets the owner in once the wait is over', async () => {
    const now = freezeClock();
    const s = await registerOrg(h.app);
    const { secret } = (await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/setup' }))).json();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const enable = await h.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/auth/2fa/enable', payload: { code: totp.generate() } }),
    );
    expect(enable.statusCode).toBe(200);
    const right = totp.generate({ timestamp: now + 30_000 });
    const wrong = right === '000000' ? '000001' : '000000';

    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await signIn({ email: s.email, password: STRONG_PASSWORD, code: wrong });
      answers.push(`${res.statusCode} ${res.json().error.code}`);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('401 SVC-1011'));
    expect(answers.slice(5)).toEqual(Array(15).fill('429 SVC-1007'));

    // Even the right code waits; once the wait is over it is accepted: a backoff, not a lock.
    vi.setSystemTime(now + 30_000);
    const early = await signIn({ email: s.email, password: STRONG_PASSWORD, code: right });
    expect(early.statusCode).toBe(200);
  });

  it('slows wrong passwords for one account from many addresses, and doubles the wait up to 5 minutes', async () => {
    const now = freezeClock();
    const s = await registerOrg(h.app);
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await signIn({ email: s.email, password: 'Wrong-pass-1' })).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const waiting = await signIn({ email: s.email.toUpperCase(), password: STRONG_PASSWORD });
    expect(waiting.statusCode).toBe(429);
    expect(Number(waiting.headers['retry-after'])).toBe(1);
    vi.setSystemTime(now + 1001);
    expect((await signIn({ email: s.email, password: STRONG_PASSWORD })).statusCode).toBe(200);
    expect([4, 5, 6, 7, 12, 40].map(waitMsAfter)).toEqual([0, 1000, 2000, 4000, 128_000, 300_000]);
  });
});

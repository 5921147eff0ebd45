import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '@app/shared/config';
import { freshDatabase } from '@app/shared/test/clone';
import type { LightMyRequestResponse } from 'fastify';
import { type BuildOptions, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { DB } from '../src/db/types.js';
import { nationalIdHash, withCheckDigits } from '../src/lib/national-id.js';

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

/** The tests' NATIONAL_ID_PEPPER, so a test can compute users.national_id_hash. */
export const TEST_PEPPER = 'test-pepper-test-pepper-test-pepper-0123456789';

/** users.national_id_hash of a national id under the tests' pepper. */
export const idHash = (pid: string) => nationalIdHash(pid, TEST_PEPPER);

/** Development defaults with test-friendly overrides (no timers, no limits unless asked). */
export function testConfig(env: Env = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'remittance-test-')),
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    CONSENT_EXPIRY_INTERVAL: '0s',
    BALANCE_SYNC_INTERVAL: '0s',
    SETTLEMENT_INTERVAL: '0s',
    RATE_LIMITS: 'off',
    RETENTION_PURGE_INTERVAL: '0s',
    NATIONAL_ID_PEPPER: TEST_PEPPER,
    ...env,
  });
}

/** The production app on a fresh test database. */
export async function buildTestApp(env: Env = {}, opts: BuildOptions = {}) {
  const t = await freshDatabase<DB>('remittance', 'remittance_app');
  const app = await buildApp(testConfig(env), t.db, opts);
  await app.ready();
  return {
    app,
    db: t.db,
    async close() {
      await app.close();
      await t.destroy();
    },
  };
}

export function setCookies(res: LightMyRequestResponse): Record<string, { value: string; raw: string }> {
  const header = res.headers['set-cookie'];
  const list = Array.isArray(header) ? header : header ? [header] : [];
  const out: Record<string, { value: string; raw: string }> = {};
  for (const raw of list) {
    const [pair] = raw.split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i)] = { value: decodeURIComponent(pair.slice(i + 1)), raw };
  }
  return out;
}

export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** The README's address, which REMITTANCE_PUBLIC_URL and so ALLOWED_ORIGINS default to. */
export const ORIGIN = 'http://127.0.0.1:3001';

export interface MockIdentity {
  pid?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  birthdate?: string;
}

/** Follows the mock provider's authorize page; returns the callback query (code, state). */
export async function mockAuthorize(app: TestApp, redirectUrl: string, identity: MockIdentity = {}) {
  const url = new URL(redirectUrl);
  for (const [k, v] of Object.entries(identity)) if (v !== undefined) url.searchParams.set(k, v);
  const res = await app.inject({ method: 'GET', url: url.pathname + url.search });
  if (res.statusCode !== 302) throw new Error(`mock authorize answered ${res.statusCode}: ${res.body}`);
  const back = new URL(res.headers.location as string);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, location: back };
}

/** Web sign-in through the mock provider; returns the app_token cookie. */
export async function signInWeb(app: TestApp, identity: MockIdentity = {}) {
  const start = await app.inject({ method: 'GET', url: '/api/auth/eid' });
  const stateCookie = setCookies(start).eid_state.value;
  const { code, state } = await mockAuthorize(app, start.json().redirectUrl, identity);
  const cb = await app.inject({
    method: 'GET',
    url: `/api/auth/eid/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    cookies: { eid_state: stateCookie },
  });
  if (cb.headers.location !== '/dashboard') throw new Error(`web sign-in failed: ${cb.headers.location}`);
  return { cookie: setCookies(cb).app_token.value, response: cb };
}

/** What a mobile app creates before a sign-in (RFC 7636/8252): it keeps the verifier and sends the challenge. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET /v1/auth/eid/initiate with a fresh PKCE pair; the app's verifier comes back with the answer. */
export async function initiateMobile(app: TestApp) {
  const pkce = pkcePair();
  const res = await app.inject({
    method: 'GET',
    url: `/v1/auth/eid/initiate?platform=mobile&code_challenge=${pkce.challenge}&code_challenge_method=S256`,
  });
  if (res.statusCode !== 200) throw new Error(`initiate answered ${res.statusCode}: ${res.body}`);
  return { ...(res.json() as { redirectUrl: string; state: string }), verifier: pkce.verifier };
}

/** Mobile sign-in through the mock provider; returns the Bearer token and the user. */
export async function signInMobile(app: TestApp, identity: MockIdentity = {}) {
  const start = await initiateMobile(app);
  const { code, state } = await mockAuthorize(app, start.redirectUrl, identity);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/auth/eid/callback',
    payload: { code, state, platform: 'mobile', code_verifier: start.verifier },
  });
  if (res.statusCode !== 200) throw new Error(`mobile sign-in failed: ${res.statusCode} ${res.body}`);
  return { token: res.json().token as string, user: res.json().data };
}

export const web = (cookie: string) => ({ cookies: { app_token: cookie }, headers: { origin: ORIGIN } });
export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Gives the signed-in user the sandbox bank's two accounts (checking 50000.00 is the primary). */
export async function linkSandboxBank(
  app: TestApp,
  auth: { cookies?: Record<string, string>; headers?: Record<string, string> },
  surface: '/api' | '/v1' = '/api',
) {
  const created = await app.inject({ method: 'POST', url: `${surface}/open-banking/consents`, ...auth, payload: {} });
  if (created.statusCode !== 201) throw new Error(`consent: ${created.statusCode} ${created.body}`);
  const bank = await app.inject({ method: 'GET', url: pathOf(created.json().data.redirectUrl) });
  await app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
  const accounts = (await app.inject({ method: 'GET', url: `${surface}/bank-accounts`, ...auth })).json()
    .data as Array<{ id: string; isPrimary: boolean }>;
  return { primaryId: accounts.find((a) => a.isPrimary)!.id, accounts };
}

let pidSeq = 0;
/** A fresh valid synthetic national id per call (adults born 1970-1989), so each sign-in is a new user. */
export function nextPid(): string {
  for (;;) {
    const seq = pidSeq++;
    const n = withCheckDigits(
      `${String(1 + (seq % 28)).padStart(2, '0')}${String(81 + ((seq >> 5) % 12)).padStart(2, '0')}${70 + ((seq >> 9) % 20)}${String(100 + (process.pid % 300) + (seq % 97)).padStart(3, '0')}`,
    );
    if (n) return n;
  }
}

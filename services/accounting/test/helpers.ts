import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@app/shared/db/database';
import { freshDatabase } from '@app/shared/test/clone';
import type { TestDatabase } from '@app/shared/test/databases';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { DATABASE_SETTINGS } from '../src/db/settings.js';
import type { DB } from '../src/db/types.js';
import { runFoldJob } from '../src/modules/ledger/fold-job.js';

export interface TestApp {
  app: FastifyInstance;
  t: TestDatabase<DB>;
  config: Readonly<Config>;
  close(): Promise<void>;
}

/** The production app (same plugins, same validators) on a freshly migrated database. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await freshDatabase<DB>('accounting', 'accounting_app', { settings: DATABASE_SETTINGS });
  const config = testConfig(env);
  const app = await buildApp(config, t.db);
  await app.ready();
  return {
    app,
    t,
    config,
    async close() {
      await app.close();
      await t.destroy();
    },
  };
}

/** The configuration buildTestApp uses, for tests that build the app on a database of their own. */
export function testConfig(env: Record<string, string> = {}): Readonly<Config> {
  return loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'acc-test-')),
    // Cost 4 keeps the suite fast; production uses 10 (see docs/perf/auth-books-invoices.md).
    BCRYPT_COST: '4',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_ORIGIN: 'https://app.example.test',
    // The moves of postings are folded into the totals only when a test folds them (foldLedger):
    // every read must be right with moves pending, and a test that reads the tables folds first.
    LEDGER_FOLD_INTERVAL: '0s',
    ...env,
  });
}

/**
 * Folds every committed posting's moves into account_balances and account_period_sums (what the
 * ledger-fold job does every second), for tests that read those tables directly.
 */
export async function foldLedger(db: Database<DB>): Promise<number> {
  return runFoldJob(db, { wait: true });
}

let ipCounter = 1;
/** A distinct client address, so the per-IP sign-in lockout of one test does not leak into another. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export const STRONG_PASSWORD = 'Correct-Horse-9';

let seq = 0;
export function uniqueEmail(prefix = 'user'): string {
  seq += 1;
  return `${prefix}.${Date.now().toString(36)}.${seq}@example.test`;
}

export interface Session {
  token: string;
  userId: string;
  orgId: string;
  email: string;
  password: string;
  refreshCookie: string;
}

function cookieValue(res: LightMyRequestResponse, name: string): string {
  const c = res.cookies.find((x) => x.name === name);
  return c?.value ?? '';
}

export async function registerOrg(
  app: FastifyInstance,
  overrides: Partial<Record<string, unknown>> = {},
): Promise<Session & { body: any }> {
  const email = (overrides.email as string) ?? uniqueEmail('owner');
  const payload = {
    organizationName: 'Test d.o.o.',
    country: 'RS',
    baseCurrency: 'RSD',
    language: 'sr',
    email,
    password: STRONG_PASSWORD,
    fullName: 'Owner Person',
    ...overrides,
  };
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload, remoteAddress: freshIp() });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return {
    token: body.tokens.accessToken,
    userId: body.user.id,
    orgId: body.organization.id,
    email,
    password: STRONG_PASSWORD,
    refreshCookie: cookieValue(res, 'refreshToken'),
    body,
  };
}

export async function login(
  app: FastifyInstance,
  email: string,
  password = STRONG_PASSWORD,
  extra: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password, ...extra },
    remoteAddress: freshIp(),
  });
}

/** Invites a user with `role` into the owner's organization and accepts the invitation. */
export async function addMember(
  app: FastifyInstance,
  owner: Session,
  role: 'admin' | 'accountant' | 'viewer',
): Promise<Session> {
  const email = uniqueEmail(role);
  const inv = await app.inject({
    method: 'POST',
    url: '/api/v1/users/invite',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { email, fullName: `${role} person`, role },
  });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  const token = new URL(inv.json().inviteLink).searchParams.get('token')!;
  const acc = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/accept-invite',
    payload: { token, password: STRONG_PASSWORD },
    remoteAddress: freshIp(),
  });
  if (acc.statusCode !== 201) throw new Error(`accept failed: ${acc.statusCode} ${acc.body}`);
  const body = acc.json();
  return {
    token: body.tokens.accessToken,
    userId: body.user.id,
    orgId: body.user.organizationId,
    email,
    password: STRONG_PASSWORD,
    refreshCookie: cookieValue(acc, 'refreshToken'),
  };
}

export function authed(token: string, opts: InjectOptions): InjectOptions {
  return { ...opts, headers: { ...(opts.headers ?? {}), authorization: `Bearer ${token}` } };
}

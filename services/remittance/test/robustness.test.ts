import { expectRobust, installWriteCounter, type RobustnessTarget } from '@app/shared/test/robustness';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bearer, buildTestApp, pathOf, signInMobile, signInWeb, web } from './helpers.js';

// Issue 8: every operation of the OpenAPI document (both surfaces, public routes included: eID
// callbacks, the mock provider, the sandbox bank), hostile values in every path, query and body
// field, signed in so handlers are reached. No 5xx, the R2 envelope on every error, no row
// written by a refused request. New routes are walked without editing this file.
let env: Awaited<ReturnType<typeof buildTestApp>>;
let cookie: string;
let token: string;
let target: RobustnessTarget;

function envelopeProblem(_status: number, body: unknown): string | null {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return 'not a JSON object';
  if (typeof b.error !== 'string' || !/^[a-z][a-z_]*$/.test(b.error)) return `error ${JSON.stringify(b.error)}`;
  if (typeof b.message !== 'string') return 'no message';
  const extra = Object.keys(b).filter((k) => !['error', 'message', 'details'].includes(k));
  if (extra.length) return `unexpected members ${extra.join(',')}`;
  if (b.details !== undefined) {
    const ok =
      Array.isArray(b.details) &&
      b.details.every((d) => d && typeof d.field === 'string' && typeof d.message === 'string');
    if (!ok) return 'details is not [{field, message}]';
  }
  return null;
}

async function signIn() {
  cookie = (await signInWeb(env.app)).cookie;
  token = (await signInMobile(env.app)).token;
}

beforeAll(async () => {
  // Every feature flag on, so that the feature-flagged card routes are walked too.
  env = await buildTestApp({
    FEATURE_CARDS: 'true',
    FEATURE_PHYSICAL_CARDS: 'true',
    FEATURE_CARD_PIN: 'true',
    FEATURE_SPENDING_LIMITS: 'true',
    BCRYPT_COST: '4',
  });
  await signIn();
  // A linked bank (consent through the sandbox) so account and consent ids exist.
  const created = await env.app.inject({
    method: 'POST',
    url: '/api/open-banking/consents',
    ...web(cookie),
    payload: {},
  });
  const bank = await env.app.inject({ method: 'GET', url: pathOf(created.json().data.redirectUrl) });
  await env.app.inject({ method: 'GET', url: pathOf(bank.headers.location as string) });
  const writes = await installWriteCounter(env.db.system);
  target = {
    app: env.app,
    credentials: (url) => (url.startsWith('/v1') ? bearer(token) : web(cookie)),
    reauthenticate: signIn,
    envelopeProblem,
    writes,
    skip: (_method, path) => path === '/openapi.json' || path.startsWith('/docs'),
  };
}, 120_000);
afterAll(() => env?.close());

describe('robustness of every operation in the OpenAPI document', () => {
  it('answers hostile values without 5xx, in the R2 envelope, and writes nothing when it refuses', async () => {
    await expectRobust(target);
  }, 600_000);
});

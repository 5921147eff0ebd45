import { expectRobust, installWriteCounter, type RobustnessTarget } from '@app/shared/test/robustness';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildTestApp, login, registerOrg, type Session, type TestApp } from './helpers.js';

// Issue 8: every operation of the OpenAPI document, hostile values in every path, query and body
// field, signed in as an owner so handlers are reached. No 5xx, the catalog envelope on every
// error, no row written by a refused request. New routes are walked without editing this file.
let h: TestApp;
let owner: Session;
let target: RobustnessTarget;

const CODE = /^SVC-\d{4}$/;

function envelopeProblem(_status: number, body: unknown): string | null {
  const b = body as { error?: Record<string, unknown> } | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return 'not a JSON object';
  if (Object.keys(b).join() !== 'error' || !b.error || typeof b.error !== 'object') return 'no single "error" member';
  const e = b.error;
  if (typeof e.code !== 'string' || !CODE.test(e.code)) return `code ${String(e.code)}`;
  if (typeof e.message !== 'string') return 'no message';
  const extra = Object.keys(e).filter((k) => !['code', 'message', 'details', 'requestId'].includes(k));
  if (extra.length) return `unexpected members ${extra.join(',')}`;
  if (e.details !== undefined && (typeof e.details !== 'object' || Array.isArray(e.details)))
    return 'details is not a field map';
  return null;
}

beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(h.app);
  // Something to point ids at: a contact (the chart of accounts and tax rates come with the organization).
  await h.app.inject({
    method: 'POST',
    url: '/api/v1/contacts',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { type: 'customer', name: 'Robust Customer d.o.o.', email: 'robust@example.test' },
  });
  // A bank account, so the statement import (multipart) is walked with an id that exists.
  const accounts = await h.app.inject({
    method: 'GET',
    url: '/api/v1/accounts',
    headers: { authorization: `Bearer ${owner.token}` },
  });
  const ledger = (accounts.json().data ?? accounts.json()).find((a: { code: string }) => a.code === '1100');
  await h.app.inject({
    method: 'POST',
    url: '/api/v1/bank-accounts',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      accountId: ledger.id,
      bankName: 'Banka',
      accountNumber: '1',
      iban: 'RS35260005601001611379',
      currencyCode: 'RSD',
    },
  });
  const writes = await installWriteCounter(h.t.db.system);
  target = {
    app: h.app,
    credentials: () => ({ headers: { authorization: `Bearer ${owner.token}` } }),
    async reauthenticate() {
      const res = await login(h.app, owner.email, owner.password);
      if (res.statusCode === 200) owner = { ...owner, token: res.json().tokens.accessToken };
      else owner = await registerOrg(h.app);
    },
    envelopeProblem,
    writes,
    skip: (_method, path) => path === '/openapi.json' || path.startsWith('/docs'),
  };
}, 120_000);
afterAll(() => h?.close());

describe('robustness of every operation in the OpenAPI document', () => {
  it('answers hostile values without 5xx, in the catalog envelope, and writes nothing when it refuses', async () => {
    await expectRobust(target);
  }, 600_000);
});

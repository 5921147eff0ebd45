import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, foldLedger, registerOrg, type Session, type TestApp } from './helpers.js';

/** Every books route with an id answers another organization's record as 404 and changes nothing (A21). */
let h: TestApp;
let owner: Session;
let intruder: Session;
beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(h.app);
  intruder = await registerOrg(h.app);
});
afterAll(() => h?.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject(authed(token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) }));

describe('books routes across organizations', () => {
  it('answer 404 with the resource’s code and leave the record unchanged', async () => {
    const accounts = (await call(owner.token, 'GET', '/accounts')).json().data as Array<{ id: string; code: string }>;
    const cash = accounts.find((a) => a.code === '1000')!;
    const equity = accounts.find((a) => a.code === '3000')!;
    const contact = (await call(owner.token, 'POST', '/contacts', { type: 'customer', name: 'Private' })).json();
    const tx = (
      await call(owner.token, 'POST', '/transactions', {
        transactionDate: '2026-06-01',
        description: 'Mine',
        debitAccountId: cash.id,
        creditAccountId: equity.id,
        amount: 10,
      })
    ).json();

    const cases: Array<[Parameters<typeof call>[1], string, object | undefined, string]> = [
      ['GET', `/contacts/${contact.id}`, undefined, 'SVC-7001'],
      ['PUT', `/contacts/${contact.id}`, { name: 'Hijacked' }, 'SVC-7001'],
      ['DELETE', `/contacts/${contact.id}`, undefined, 'SVC-7001'],
      ['GET', `/accounts/${cash.id}`, undefined, 'SVC-8001'],
      ['PUT', `/accounts/${cash.id}`, { name: 'Hijacked', isActive: false }, 'SVC-8001'],
      ['GET', `/transactions/${tx.id}`, undefined, 'SVC-9002'],
      ['POST', `/transactions/${tx.id}/reverse`, {}, 'SVC-9002'],
    ];
    for (const [method, url, payload, code] of cases) {
      const res = await call(intruder.token, method, url, payload);
      expect([method, url, res.statusCode, res.json().error?.code]).toEqual([method, url, 404, code]);
    }
    // Posting to another organization's accounts is refused as unknown accounts.
    const intruderAccounts = (await call(intruder.token, 'GET', '/accounts')).json().data as Array<{
      id: string;
      code: string;
    }>;
    const post = await call(intruder.token, 'POST', '/transactions', {
      transactionDate: '2026-06-01',
      description: 'x',
      debitAccountId: intruderAccounts[0].id,
      creditAccountId: cash.id,
      amount: 1,
    });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('SVC-8001');

    expect((await call(owner.token, 'GET', `/contacts/${contact.id}`)).json()).toMatchObject({
      name: 'Private',
      isActive: true,
    });
    expect((await call(owner.token, 'GET', `/accounts/${cash.id}`)).json()).toMatchObject({
      name: 'Blagajna',
      isActive: true,
      currentBalance: '10.00',
    });
    expect((await call(owner.token, 'GET', '/transactions')).json().meta.total).toBe(1);
  });

  it('keeps row-level security underneath: a query without its organization filter still sees only the caller’s rows', async () => {
    await call(intruder.token, 'POST', '/contacts', { type: 'vendor', name: 'Own' });
    await call(owner.token, 'POST', '/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'CHF',
      rate: 0.9,
      effectiveDate: '2026-11-21',
    });
    await call(intruder.token, 'POST', '/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'CHF',
      rate: 0.95,
      effectiveDate: '2026-11-21',
    });
    // Both organizations have postings folded into the totals and postings whose moves are pending.
    const post = async (s: Session) => {
      const accounts = (await call(s.token, 'GET', '/accounts')).json().data as Array<{ id: string; code: string }>;
      const [debit, credit] = ['1000', '3000'].map((c) => accounts.find((a) => a.code === c)!.id);
      const res = await call(s.token, 'POST', '/transactions', {
        transactionDate: '2026-06-02',
        description: 'RLS',
        debitAccountId: debit,
        creditAccountId: credit,
        amount: 3,
      });
      expect(res.statusCode).toBe(201);
    };
    await post(intruder);
    await foldLedger(h.t.db);
    await post(owner);
    await post(intruder);
    const seen = await h.t.db.withContext({ kind: 'tenant', orgId: intruder.orgId }, async (db) => ({
      contacts: await db.selectFrom('contacts').select('organization_id').execute(),
      postings: await db.selectFrom('ledger_transactions').select('organization_id').execute(),
      balances: await db.selectFrom('account_balances').select('organization_id').execute(),
      moves: await db.selectFrom('ledger_moves').select('organization_id').execute(),
      manualRates: await db
        .selectFrom('exchange_rates')
        .select('organization_id')
        .where('organization_id', 'is not', null)
        .execute(),
    }));
    for (const rows of Object.values(seen)) expect(rows.every((r) => r.organization_id === intruder.orgId)).toBe(true);
    expect(seen.contacts).toHaveLength(1);
    expect(seen.manualRates).toHaveLength(1);
    expect(seen.balances).toHaveLength(2);
    expect(seen.moves).toHaveLength(1);
    const all = await h.t.db.system.selectFrom('contacts').select('id').execute();
    expect(all.length).toBeGreaterThan(1);
    // Global rates are readable by every organization, but not writable by any.
    const write = h.t.db.withContext({ kind: 'tenant', orgId: intruder.orgId }, (db) =>
      db
        .insertInto('exchange_rates')
        .values({
          organization_id: null,
          base_currency: 'EUR',
          target_currency: 'USD',
          rate: '9',
          effective_date: '2026-11-21',
          source: 'ecb',
        })
        .execute(),
    );
    await expect(write).rejects.toThrow(/row-level security/);
  });
});

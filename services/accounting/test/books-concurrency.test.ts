import { sum } from '@app/shared/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, foldLedger, registerOrg, type Session, type TestApp } from './helpers.js';

/**
 * Locking is only exercised by a server with real concurrent connections: PGlite runs one
 * statement at a time, so this suite needs TEST_DATABASE_URL (G1: .ci/run sets it where a
 * PostgreSQL server is reachable).
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
if (!onPostgres)
  console.warn('books-concurrency: skipped, set TEST_DATABASE_URL=postgres://... to run it on real PostgreSQL');

describe.skipIf(!onPostgres)('concurrent postings on real PostgreSQL', () => {
  let h: TestApp;
  let s: Session;
  let a: Record<string, string>;
  beforeAll(async () => {
    h = await buildTestApp({ RATE_LIMITS: 'off' });
    s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const res = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/accounts' }));
    a = Object.fromEntries(res.json().data.map((x: { code: string; id: string }) => [x.code, x.id]));
  });
  afterAll(() => h?.close());

  it('never deadlocks on opposite-direction postings between the same accounts, and leaves the balances right', async () => {
    expect(h.t.db.kind).toBe('postgres');
    const N = 120;
    const amounts = Array.from({ length: N }, (_, i) => (i % 7) + 1 + (i % 3) / 4);
    const results = await Promise.all(
      amounts.map((amount, i) =>
        h.app.inject(
          authed(s.token, {
            method: 'POST',
            url: '/api/v1/transactions',
            payload: {
              transactionDate: '2026-06-01',
              description: `ping-pong ${i}`,
              // Even: Cash -> Bank, odd: Bank -> Cash; plus a third account every fifth entry so
              // that the statements lock two and three balance rows in mixed orders.
              debitAccountId: i % 2 ? a['1100'] : a['1000'],
              creditAccountId: i % 5 === 0 ? a['3000'] : i % 2 ? a['1000'] : a['1100'],
              amount,
              currencyCode: i % 3 === 0 ? 'USD' : 'EUR',
            },
          }),
        ),
      ),
    );
    const failures = results.filter((r) => r.statusCode !== 201).map((r) => r.body);
    expect(failures).toEqual([]);

    const rows = await h.t.db.system
      .selectFrom('ledger_transactions')
      .select(['debit_account_id', 'credit_account_id', 'base_amount'])
      .where('organization_id', '=', s.orgId)
      .execute();
    expect(rows).toHaveLength(N);
    await foldLedger(h.t.db);
    const balances = await h.t.db.system
      .selectFrom('account_balances')
      .selectAll()
      .where('organization_id', '=', s.orgId)
      .execute();
    for (const b of balances) {
      const debit = sum(rows.filter((r) => r.debit_account_id === b.account_id).map((r) => r.base_amount));
      const credit = sum(rows.filter((r) => r.credit_account_id === b.account_id).map((r) => r.base_amount));
      expect(b.debit_total).toBe(debit.toFixed(4));
      expect(b.credit_total).toBe(credit.toFixed(4));
      expect(b.posting_count).toBe(
        rows.filter((r) => r.debit_account_id === b.account_id || r.credit_account_id === b.account_id).length,
      );
    }
    const accounts = (await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/accounts' }))).json()
      .data as Array<{ code: string; currentBalance: string }>;
    const cash = accounts.find((x) => x.code === '1000')!;
    const bank = accounts.find((x) => x.code === '1100')!;
    const equity = accounts.find((x) => x.code === '3000')!;
    // Assets hold exactly what equity put in.
    expect(sum([cash.currentBalance, bank.currentBalance]).toFixed(2)).toBe(equity.currentBalance);
  });

  it('reverses a document once even when two cancellations race', async () => {
    const { postJournalEntries, reverseReference } = await import('../src/modules/ledger/ledger.service.js');
    const ref = crypto.randomUUID();
    await h.t.db.withContext({ kind: 'tenant', orgId: s.orgId }, (db) =>
      db.transaction().execute((trx) =>
        postJournalEntries(trx, s.orgId, [
          {
            transactionDate: '2026-06-02',
            description: 'Sale',
            debitAccountId: a['1200'],
            creditAccountId: a['4000'],
            amount: '50.00',
            currencyCode: 'EUR',
            exchangeRate: '1.000000',
            baseAmount: '50.00',
            referenceType: 'invoice',
            referenceId: ref,
            locked: true,
            createdBy: null,
          },
        ]),
      ),
    );
    const cancel = () =>
      h.t.db.withContext({ kind: 'tenant', orgId: s.orgId }, (db) =>
        db
          .transaction()
          .execute((trx) => reverseReference(trx, s.orgId, { referenceType: 'invoice', referenceId: ref }, s.userId)),
      );
    const outcomes = await Promise.allSettled([cancel(), cancel(), cancel()]);
    const reversed = outcomes.flatMap((o) => (o.status === 'fulfilled' ? o.value : []));
    expect(reversed).toHaveLength(1);
    const rows = await h.t.db.system
      .selectFrom('ledger_transactions')
      .select('id')
      .where('reference_id', '=', ref)
      .execute();
    expect(rows).toHaveLength(2);
  });
});

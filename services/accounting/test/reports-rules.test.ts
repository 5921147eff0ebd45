import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizationToday } from '../src/modules/reports/report-dates.js';
import { trialBalanceReport } from '../src/modules/reports/reports.service.js';
import { addMember, authed, buildTestApp, foldLedger, registerOrg, type Session, type TestApp } from './helpers.js';
import { accountIds, manualEntry, report } from './reports-fixtures.js';

let t: TestApp;
let owner: Session;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off', ACCESS_TOKEN_TTL: '20d' });
  owner = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
});
afterAll(async () => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

const get = (s: Session, url: string) =>
  t.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/reports/${url}` }));

describe('report query validation', () => {
  it.each(['profit-loss', 'cash-flow', 'vat'])(
    '%s: from missing is SVC-6001, to missing SVC-6002, from after to SVC-6003',
    async (path) => {
      const noFrom = await get(owner, `${path}?to=2026-01-31`);
      expect(noFrom.statusCode).toBe(422);
      expect(noFrom.json().error).toMatchObject({ code: 'SVC-6001', details: { from: ['je obavezno'] } });
      const neither = await get(owner, path);
      expect(neither.json().error.code).toBe('SVC-6001');
      const noTo = await get(owner, `${path}?from=2026-01-01`);
      expect(noTo.statusCode).toBe(422);
      expect(noTo.json().error).toMatchObject({ code: 'SVC-6002', details: { to: ['je obavezno'] } });
      const reversed = await get(owner, `${path}?from=2026-02-01&to=2026-01-31`);
      expect(reversed.statusCode).toBe(422);
      expect(reversed.json().error.code).toBe('SVC-6003');
      expect((await get(owner, `${path}?from=2026-01-31&to=2026-01-31`)).statusCode).toBe(200);
    },
  );

  it.each([
    ['profit-loss?from=2026-02-30&to=2026-03-01', 'from'],
    ['profit-loss?from=2026-01-01&to=31.01.2026', 'to'],
    ['cash-flow?from=0000-01-01&to=2026-01-01', 'from'],
    ['balance-sheet?date=2026-13-01', 'date'],
    ['trial-balance?date=yesterday', 'date'],
    ['trial-balance?format=xlsx', 'format'],
    ['dashboard?format=', 'format'],
  ])('%s is refused with 422 SVC-9003 naming %s', async (url, field) => {
    const res = await get(owner, url);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details)).toEqual([field]);
  });

  it('a viewer reads every report', async () => {
    const viewer = await addMember(t.app, owner, 'viewer');
    for (const path of [
      'dashboard',
      'profit-loss?from=2026-01-01&to=2026-01-31',
      'balance-sheet',
      'cash-flow?from=2026-01-01&to=2026-01-31',
      'vat?from=2026-01-01&to=2026-01-31',
      'trial-balance',
    ]) {
      expect((await get(viewer, path)).statusCode, path).toBe(200);
    }
  });

  it("an empty book answers zeros in the base currency's decimals", async () => {
    const s = await registerOrg(t.app, { baseCurrency: 'BAM', country: 'BA', language: 'bs' });
    expect(await report(t.app, s, 'trial-balance?date=2026-01-31')).toEqual({
      asOfDate: '2026-01-31',
      baseCurrency: 'BAM',
      accounts: [],
      totals: { debit: '0.00', credit: '0.00' },
      balanced: true,
    });
    expect(await report(t.app, s, 'profit-loss?from=2026-01-01&to=2026-01-31')).toMatchObject({
      revenue: { total: '0.00', accounts: [] },
      expenses: { total: '0.00', accounts: [] },
      netProfit: '0.00',
    });
  });
});

describe('account_period_sums', () => {
  it('is maintained with every posting and shows each organization only its own rows (RLS)', async () => {
    const a = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const b = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    await manualEntry(t.app, a, await accountIds(t.app, a), '2026-04-10', '1000', '3000', 12.5);
    await manualEntry(t.app, b, await accountIds(t.app, b), '2026-04-11', '1000', '3000', 1);
    await foldLedger(t.t.db);
    // No organization filter: row-level security alone limits what the tenant sees.
    const rows = await t.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
      db
        .selectFrom('account_period_sums')
        .select(['organization_id', 'grain', 'period_start', 'debit_total', 'credit_total'])
        .orderBy('grain')
        .orderBy('debit_total')
        .execute(),
    );
    expect(rows).toEqual([
      {
        organization_id: a.orgId,
        grain: 'day',
        period_start: '2026-04-10',
        debit_total: '0.0000',
        credit_total: '12.5000',
      },
      {
        organization_id: a.orgId,
        grain: 'day',
        period_start: '2026-04-10',
        debit_total: '12.5000',
        credit_total: '0.0000',
      },
      {
        organization_id: a.orgId,
        grain: 'month',
        period_start: '2026-04-01',
        debit_total: '0.0000',
        credit_total: '12.5000',
      },
      {
        organization_id: a.orgId,
        grain: 'month',
        period_start: '2026-04-01',
        debit_total: '12.5000',
        credit_total: '0.0000',
      },
    ]);
  });
});

describe('SVC-6004: the trial balance checks its own totals', () => {
  /**
   * A posting written past the ledger API with the database's guarantees bypassed: the row and its
   * debit side reach the totals, its credit side never does (what a broken writer would leave).
   */
  async function corruptPosting(s: Session, ids: Record<string, string>) {
    await t.t.db.system.transaction().execute(async (db) => {
      await sql`ALTER TABLE ledger_transactions DISABLE TRIGGER ledger_moves_insert`.execute(db);
      await sql`
        INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
          amount, currency_code, exchange_rate, base_amount, reference_type, locked)
        VALUES (${s.orgId}, '2026-05-05', 'half-written', ${ids['5000']}, ${ids['1000']}, 99, 'EUR', 1, 99, 'manual', false)`.execute(
        db,
      );
      await sql`ALTER TABLE ledger_transactions ENABLE TRIGGER ledger_moves_insert`.execute(db);
      // The debit side only, written straight into the totals and the day and month sums.
      await sql`
        INSERT INTO account_balances AS b (account_id, organization_id, debit_total, credit_total, posting_count)
        VALUES (${ids['5000']}, ${s.orgId}, 99, 0, 1)
        ON CONFLICT (account_id) DO UPDATE SET debit_total = b.debit_total + 99, posting_count = b.posting_count + 1`.execute(
        db,
      );
      await sql`
        INSERT INTO account_period_sums AS p
          (organization_id, grain, period_start, account_id, counter_account_id, debit_total, credit_total, posting_count)
        VALUES (${s.orgId}, 'day', '2026-05-05', ${ids['5000']}, ${ids['1000']}, 99, 0, 1),
               (${s.orgId}, 'month', '2026-05-01', ${ids['5000']}, ${ids['1000']}, 99, 0, 1)
        ON CONFLICT (organization_id, grain, period_start, account_id, counter_account_id) DO UPDATE SET
          debit_total = p.debit_total + 99, posting_count = p.posting_count + 1`.execute(db);
    });
  }

  it('answers 500 SVC-6004 with a request id for any date after the corrupted posting, and logs it', async () => {
    const s = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const ids = await accountIds(t.app, s);
    await manualEntry(t.app, s, ids, '2026-05-01', '1000', '3000', 500);
    await corruptPosting(s, ids);

    const before = await get(s, 'trial-balance?date=2026-05-04');
    expect(before.statusCode).toBe(200);
    expect(before.json().balanced).toBe(true);
    // Found whether the broken side is still a pending move or already folded into the sums.
    for (const folded of [false, true]) {
      if (folded) await foldLedger(t.t.db);
      for (const url of [
        'trial-balance?date=2026-05-05',
        'trial-balance?date=2026-12-31',
        'trial-balance?date=2026-05-05&format=pdf',
      ]) {
        const res = await get(s, url);
        expect(res.statusCode, url).toBe(500);
        expect(res.json().error).toMatchObject({
          code: 'SVC-6004',
          message: 'Ukupni duguje i potražuje u bruto bilanci se razlikuju.',
        });
        expect(res.json().error.requestId).toBe(res.headers['x-request-id']);
      }
    }

    const log = { error: vi.fn() };
    const org = { id: s.orgId, name: 'x', baseCurrency: 'EUR', country: 'HR', language: 'hr' };
    await expect(
      t.t.db.withContext({ kind: 'tenant', orgId: s.orgId }, (db) =>
        trialBalanceReport(db, org, '2026-06-30', log as never),
      ),
    ).rejects.toMatchObject({ code: 'SVC-6004', status: 500 });
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({
        organizationId: s.orgId,
        asOfDate: '2026-06-30',
        totals: { debit: '599.00', credit: '500.00' },
      }),
      expect.stringContaining('SVC-6004'),
    );
  });
});

describe("dashboard in the organization's time zone", () => {
  it('takes today in Europe/Zagreb (CET/CEST), not UTC', () => {
    expect(organizationToday('HR', new Date('2026-12-31T22:59:59Z'))).toBe('2026-12-31');
    expect(organizationToday('HR', new Date('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
    // Summer time: UTC+2.
    expect(organizationToday('RS', new Date('2026-06-30T21:59:59Z'))).toBe('2026-06-30');
    expect(organizationToday('BA', new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01');
  });

  it('switches month at local midnight and keeps a 12-month window across the year boundary', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-31T22:30:00Z') }); // 23:30 in Zagreb
    const s = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    const ids = await accountIds(t.app, s);
    await manualEntry(t.app, s, ids, '2026-01-31', '1100', '4000', 7); // 12 months back from January: outside
    await manualEntry(t.app, s, ids, '2026-02-01', '1100', '4000', 11);
    await manualEntry(t.app, s, ids, '2026-11-30', '1100', '4000', 100);
    await manualEntry(t.app, s, ids, '2026-12-31', '1100', '4000', 300);
    await manualEntry(t.app, s, ids, '2026-12-31', '5100', '1000', 40);
    await manualEntry(t.app, s, ids, '2027-01-01', '1100', '4000', 50);
    await manualEntry(t.app, s, ids, '2027-01-01', '5300', '1100', 20);

    const dec31 = await report(t.app, s, 'dashboard');
    expect(dec31).toMatchObject({
      asOfDate: '2026-12-31',
      revenueMTD: '300.00',
      expensesMTD: '40.00',
      profitMTD: '260.00',
      cashBalance: '378.00',
    });
    expect(dec31.monthlyPL.map((m: { month: string }) => m.month)).toEqual([
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
    ]);
    expect(dec31.monthlyPL[0]).toEqual({ month: '2026-01', revenue: '7.00', expenses: '0.00', profit: '7.00' });
    // November +100 in cash; December to date +300 - 40: (260 - 100) / 100.
    expect(dec31.cashFlowChange).toBe(160);

    vi.setSystemTime(new Date('2026-12-31T23:30:00Z')); // 00:30 on 1 January in Zagreb
    const jan1 = await report(t.app, s, 'dashboard');
    expect(jan1).toMatchObject({
      asOfDate: '2027-01-01',
      revenueMTD: '50.00',
      expensesMTD: '20.00',
      profitMTD: '30.00',
      cashBalance: '408.00',
    });
    expect(jan1.monthlyPL).toHaveLength(12);
    expect(jan1.monthlyPL[0]).toEqual({ month: '2026-02', revenue: '11.00', expenses: '0.00', profit: '11.00' });
    expect(jan1.monthlyPL.slice(9)).toEqual([
      { month: '2026-11', revenue: '100.00', expenses: '0.00', profit: '100.00' },
      { month: '2026-12', revenue: '300.00', expenses: '40.00', profit: '260.00' },
      { month: '2027-01', revenue: '50.00', expenses: '20.00', profit: '30.00' },
    ]);
    // January to date +50 - 20 = 30 against December's 260.
    expect(jan1.cashFlowChange).toBe(-88.46);
    // Balance sheet and trial balance default to the same local date.
    expect((await report(t.app, s, 'trial-balance')).asOfDate).toBe('2027-01-01');
  });

  it("lists this month's approved and paid expenses by category, without VAT, in base currency", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-15T10:00:00Z') });
    const s = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'RS', language: 'sr' });
    const expense = async (payload: object, then: string[]) => {
      const res = await t.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/expenses', payload }));
      expect(res.statusCode, res.body).toBe(201);
      for (const action of then) {
        const body = action === 'pay' ? { paidAt: '2026-03-15' } : {};
        expect(
          (
            await t.app.inject(
              authed(s.token, { method: 'PATCH', url: `/api/v1/expenses/${res.json().id}/${action}`, payload: body }),
            )
          ).statusCode,
        ).toBe(200);
      }
    };
    await expense({ expenseDate: '2026-03-02', category: 'Gorivo', amount: 24.4, taxAmount: 4.4 }, ['approve']);
    await expense({ expenseDate: '2026-03-10', category: 'Gorivo', amount: 10 }, ['approve', 'pay']);
    await expense({ expenseDate: '2026-03-03', category: 'Kancelarija', amount: 50, taxAmount: 10 }, ['approve']);
    await expense({ expenseDate: '2026-03-04', category: 'Kancelarija', amount: 500 }, []);
    await expense({ expenseDate: '2026-03-05', category: 'Putovanja', amount: 900 }, ['reject']);
    await expense({ expenseDate: '2026-02-28', category: 'Gorivo', amount: 70 }, ['approve']);
    const d = await report(t.app, s, 'dashboard');
    expect(d.expensesByCategory).toEqual([
      { category: 'Kancelarija', amount: '40.00', currencyCode: 'EUR' },
      { category: 'Gorivo', amount: '30.00', currencyCode: 'EUR' },
    ]);
    expect(d.expensesMTD).toBe('70.00');
  });

  it('reports a cash-flow change of 0 when last month had no cash flow', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-15T10:00:00Z') });
    const s = await registerOrg(t.app, { baseCurrency: 'EUR', country: 'RS', language: 'sr' });
    const ids = await accountIds(t.app, s);
    await manualEntry(t.app, s, ids, '2026-03-02', '1000', '3000', 10);
    expect((await report(t.app, s, 'dashboard')).cashFlowChange).toBe(0);
  });
});

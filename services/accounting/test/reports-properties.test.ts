import { dec } from '@app/shared/money';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, monthEnd, monthStart, sumRanges } from '../src/modules/ledger/period-ranges.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, patchStatus } from './invoices-fixtures.js';
import { accountIds, manualEntry, report } from './reports-fixtures.js';

/**
 * Properties of the reports over random books: manual entries between random accounts (never
 * 2300 or 1300, whose movements the VAT properties compare), invoices in RSD or EUR with several
 * tax rates (the Serbian organization's own: 0, 10, 20), sent, some paid, some cancelled, and
 * expenses in RSD or EUR with VAT, pending, approved, paid or rejected, on dates across 2025-2026.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
});
afterAll(async () => t?.close());

const MANUAL_CODES = [
  '1000',
  '1100',
  '1200',
  '1500',
  '2110',
  '2500',
  '3000',
  '3100',
  '4000',
  '4900',
  '5000',
  '5100',
  '5200',
];
const date = fc.integer({ min: 0, max: 729 }).map((n) => addDays('2025-01-01', n));
const cents = fc.integer({ min: 1, max: 5_000_000 }).map((n) => n / 100);

const manual = fc
  .record({
    kind: fc.constant('manual' as const),
    date,
    debit: fc.constantFrom(...MANUAL_CODES),
    credit: fc.constantFrom(...MANUAL_CODES),
    amount: cents,
    eur: fc.boolean(),
  })
  .filter((m) => m.debit !== m.credit);

const invoice = fc.record({
  kind: fc.constant('invoice' as const),
  date,
  eur: fc.boolean(),
  items: fc.array(
    fc.record({ quantity: fc.integer({ min: 1, max: 5 }), unitPrice: cents, taxRate: fc.constantFrom(0, 10, 20) }),
    { minLength: 1, maxLength: 3 },
  ),
  // biome-ignore lint/suspicious/noThenProperty: a plain record field, never awaited.
  then: fc.constantFrom('none', 'pay', 'cancel', 'pay-cancel'),
});

const expense = fc.record({
  kind: fc.constant('expense' as const),
  date,
  eur: fc.boolean(),
  amount: fc.integer({ min: 100, max: 1_000_000 }),
  taxShare: fc.integer({ min: 0, max: 30 }),
  // biome-ignore lint/suspicious/noThenProperty: a plain record field, never awaited.
  then: fc.constantFrom('none', 'approve', 'pay', 'reject'),
});

const book = fc.array(fc.oneof(manual, invoice, expense), { minLength: 1, maxLength: 7 });
type Op = typeof book extends fc.Arbitrary<Array<infer T>> ? T : never;

async function write(s: Session, ids: Record<string, string>, customers: { rsd: string; eur: string }, ops: Op[]) {
  for (const op of ops) {
    if (op.kind === 'expense') {
      const amount = op.amount / 100;
      const res = await t.app.inject(
        authed(s.token, {
          method: 'POST',
          url: '/api/v1/expenses',
          payload: {
            expenseDate: op.date,
            category: 'c',
            amount,
            taxAmount: Math.floor((op.amount * op.taxShare) / 100) / 100,
            ...(op.eur ? { currencyCode: 'EUR' } : {}),
          },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      const actions = op.then === 'pay' ? ['approve', 'pay'] : op.then === 'none' ? [] : [op.then];
      for (const action of actions) {
        const body = action === 'pay' ? { paidAt: op.date } : {};
        const r = await t.app.inject(
          authed(s.token, { method: 'PATCH', url: `/api/v1/expenses/${res.json().id}/${action}`, payload: body }),
        );
        expect(r.statusCode, r.body).toBe(200);
      }
      continue;
    }
    if (op.kind === 'manual') {
      await manualEntry(t.app, s, ids, op.date, op.debit, op.credit, op.amount, op.eur ? { currencyCode: 'EUR' } : {});
      continue;
    }
    const inv = await createInvoice(t.app, s, {
      customerId: op.eur ? customers.eur : customers.rsd,
      invoiceDate: op.date,
      dueDate: op.date,
      items: op.items.map((i) => ({ description: 'x', ...i })),
    });
    expect((await patchStatus(t.app, s, inv.id, { action: 'send' })).statusCode).toBe(200);
    if (op.then.startsWith('pay'))
      expect((await patchStatus(t.app, s, inv.id, { action: 'mark-paid', paidAt: op.date })).statusCode).toBe(200);
    if (op.then.endsWith('cancel'))
      expect((await patchStatus(t.app, s, inv.id, { action: 'cancel' })).statusCode).toBe(200);
  }
}

const TODAY = new Date().toISOString().slice(0, 10);
const LAST_DATE = addDays('2025-01-01', 729);
const period = fc.tuple(date, date).map(([a, b]) => (a <= b ? { from: a, to: b } : { from: b, to: a }));

describe('the month and edge-day pieces of a date range', () => {
  it('cover every day of the range exactly once, with at most two edge-day pieces', () => {
    const day = fc.integer({ min: 0, max: 2000 }).map((n) => addDays('2024-01-01', n));
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const r = sumRanges(from, to);
        const covered: string[] = [];
        for (const [d1, d2] of r.days) for (let d = d1; d <= d2; d = addDays(d, 1)) covered.push(d);
        if (r.months) {
          for (let m = r.months[0]; m <= r.months[1]; m = monthStart(m, 1)) {
            for (let d = m; d <= monthEnd(m); d = addDays(d, 1)) covered.push(d);
          }
        }
        const expected: string[] = [];
        for (let d = from; d <= to; d = addDays(d, 1)) expected.push(d);
        expect(covered.sort()).toEqual(expected);
        expect(r.days.length).toBeLessThanOrEqual(2);
        for (const [d1, d2] of r.days) expect(addDays(d1, 62) > d2).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('report properties over random books', () => {
  it('hold on any dates and periods', async () => {
    await fc.assert(
      fc.asyncProperty(book, fc.array(period, { minLength: 1, maxLength: 2 }), async (ops, periods) => {
        const s = await registerOrg(t.app, { baseCurrency: 'RSD', country: 'RS', language: 'sr' });
        const ids = await accountIds(t.app, s);
        const customers = {
          rsd: (await createCustomer(t.app, s)).id,
          eur: (await createCustomer(t.app, s, { currencyCode: 'EUR', name: 'EU GmbH', country: 'DE' })).id,
        };
        await write(s, ids, customers, ops);

        for (const { from, to } of periods) {
          // Assets = liabilities + equity on any date.
          for (const d of [from, to]) {
            const bs = await report(t.app, s, `balance-sheet?date=${d}`);
            expect(dec(bs.assets.total).eq(dec(bs.liabilities.total).plus(bs.equity.total)), `balance sheet ${d}`).toBe(
              true,
            );
            // The trial balance is balanced (a 500 SVC-6004 would fail `report`).
            const tb = await report(t.app, s, `trial-balance?date=${d}`);
            expect(tb.totals.debit).toBe(tb.totals.credit);
          }

          // Net profit of a period = the change of Current Year Earnings over it.
          const pl = await report(t.app, s, `profit-loss?from=${from}&to=${to}`);
          const earnings = async (d: string) =>
            (await report(t.app, s, `balance-sheet?date=${d}`)).equity.accounts.find(
              (a: { accountCode: null }) => a.accountCode === null,
            ).balance;
          expect(
            dec(pl.netProfit).eq(dec(await earnings(to)).minus(await earnings(addDays(from, -1)))),
            'net profit',
          ).toBe(true);

          // Cash-flow closing = opening + net = the cash and bank accounts' balance on `to`.
          const cf = await report(t.app, s, `cash-flow?from=${from}&to=${to}`);
          expect(dec(cf.closingBalance).eq(dec(cf.openingBalance).plus(cf.netCashFlow))).toBe(true);
          const tb = await report(t.app, s, `trial-balance?date=${to}`);
          const cash = tb.accounts
            .filter((a: { accountCode: string }) => a.accountCode === '1000' || a.accountCode === '1100')
            .reduce((acc: ReturnType<typeof dec>, a: { balance: string }) => acc.plus(a.balance), dec(0));
          expect(cf.closingBalance).toBe(cash.toFixed(2));

          // Output VAT = the invoices' 2300 postings of the period. A cancellation is dated today, which
          // may fall before or after the sale, so this period runs past both; reversals of sales dated
          // before `from` belong to no listed invoice.
          const vatTo = [to, TODAY, LAST_DATE].sort().at(-1)!;
          const vat = await report(t.app, s, `vat?from=${from}&to=${vatTo}`);
          const { rows } = await sql<{ net: string | null }>`
            SELECT sum(CASE WHEN c.code = '2300' THEN p.base_amount ELSE -p.base_amount END)::text AS net
            FROM ledger_transactions p
            JOIN accounts c ON c.id = p.credit_account_id JOIN accounts d ON d.id = p.debit_account_id
            LEFT JOIN ledger_transactions o ON o.id = p.reversal_of
            WHERE p.organization_id = ${s.orgId} AND p.reference_type = 'invoice' AND '2300' IN (c.code, d.code)
              AND p.transaction_date BETWEEN ${from} AND ${vatTo} AND (o.id IS NULL OR o.transaction_date >= ${from})`.execute(
            t.t.db.system,
          );
          expect(vat.outputVAT.total).toBe(dec(rows[0].net ?? 0).toFixed(2));
          // Input VAT = the expenses' 1300 postings of the period (expense postings are never reversed).
          const input = await sql<{ total: string | null }>`
            SELECT sum(p.base_amount)::text AS total FROM ledger_transactions p JOIN accounts d ON d.id = p.debit_account_id
            WHERE p.organization_id = ${s.orgId} AND p.reference_type = 'expense' AND d.code = '1300'
              AND p.transaction_date BETWEEN ${from} AND ${vatTo}`.execute(t.t.db.system);
          expect(vat.inputVAT.total).toBe(dec(input.rows[0].total ?? 0).toFixed(2));
          // detail=totals (summed per invoice, not per listed row) answers the same figures.
          const { invoices: _invoices, ...outputTotal } = vat.outputVAT;
          const { expenses: _expenses, ...inputTotal } = vat.inputVAT;
          expect(await report(t.app, s, `vat?from=${from}&to=${vatTo}&detail=totals`)).toEqual({
            ...vat,
            outputVAT: outputTotal,
            inputVAT: inputTotal,
          });
        }
      }),
      { numRuns: 10 },
    );
  }, 600_000);
});

import { D, type Dec, dec } from '@app/shared/money';
import type pg from 'pg';
import { addDays, monthStart } from '../../services/accounting/src/modules/ledger/period-ranges.js';
import { activityOf } from '../../services/accounting/src/modules/reports/report-accounts.js';

/**
 * The baseline of the issue 12 benchmark: each report's question answered by a plain GROUP BY over
 * ledger_transactions (as the table owner, no sums table), and the figures both sides must agree on.
 * A report's figures and the GROUP BY's are the same strings (2 decimals, base currency RSD).
 */
export type Figures = Record<string, string>;

export interface Chart {
  cashIds: string[];
  vatPayableId: string;
  vatReceivableId: string;
}

const ZERO = new D(0);
const f = (v: Dec | string) => dec(v).toFixed(2);
const total = (values: Dec[]) => values.reduce((a, b) => a.plus(b), ZERO);

interface AccountRow {
  code: string;
  account_type_id: number;
  debit: string;
  credit: string;
}

/** Per-account debit and credit totals of the postings dated in [from, to]: one GROUP BY per side. */
async function accountTotals(pgc: pg.Client, orgId: string, from: string, to: string): Promise<AccountRow[]> {
  const { rows } = await pgc.query<AccountRow>(
    `SELECT a.code, a.account_type_id, sum(x.debit) AS debit, sum(x.credit) AS credit
     FROM (SELECT debit_account_id AS account_id, sum(base_amount) AS debit, 0 AS credit FROM ledger_transactions
           WHERE organization_id = $1 AND transaction_date BETWEEN $2 AND $3 GROUP BY 1
           UNION ALL
           SELECT credit_account_id, 0, sum(base_amount) FROM ledger_transactions
           WHERE organization_id = $1 AND transaction_date BETWEEN $2 AND $3 GROUP BY 1) AS x
     JOIN accounts a ON a.id = x.account_id
     GROUP BY a.id ORDER BY a.code`,
    [orgId, from, to],
  );
  return rows;
}

/** Normal-side balance per type (A9): assets and expenses debit - credit, the others credit - debit. */
const side = (r: AccountRow) =>
  r.account_type_id === 1 || r.account_type_id === 5 ? dec(r.debit).minus(r.credit) : dec(r.credit).minus(r.debit);
const ofType = (rows: AccountRow[], type: number) => total(rows.filter((r) => r.account_type_id === type).map(side));

export async function trialBalance(pgc: pg.Client, orgId: string, date: string): Promise<Figures> {
  const rows = await accountTotals(pgc, orgId, '0001-01-01', date);
  return {
    debit: f(total(rows.map((r) => dec(r.debit)))),
    credit: f(total(rows.map((r) => dec(r.credit)))),
    accounts: rows.map((r) => `${r.code}:${f(r.debit)}:${f(r.credit)}`).join(' '),
  };
}

export async function balanceSheet(pgc: pg.Client, orgId: string, date: string): Promise<Figures> {
  const rows = await accountTotals(pgc, orgId, '0001-01-01', date);
  return {
    assets: f(ofType(rows, 1)),
    liabilities: f(ofType(rows, 2)),
    equity: f(ofType(rows, 3).plus(ofType(rows, 4)).minus(ofType(rows, 5))),
  };
}

export async function profitLoss(pgc: pg.Client, orgId: string, from: string, to: string): Promise<Figures> {
  const rows = await accountTotals(pgc, orgId, from, to);
  const revenue = ofType(rows, 4);
  const expenses = ofType(rows, 5);
  return {
    revenue: f(revenue),
    expenses: f(expenses),
    netProfit: f(revenue.minus(expenses)),
    accounts: String(rows.filter((r) => r.account_type_id >= 4).length),
  };
}

/** Money into (+) or out of (-) the cash accounts in [from, to] per counter account; transfers between cash accounts left out. */
export async function cashFlow(
  pgc: pg.Client,
  orgId: string,
  chart: Chart,
  from: string,
  to: string,
): Promise<Figures> {
  const flows = await pgc.query<{ code: string; account_type_id: number; amount: string }>(
    `SELECT c.code, c.account_type_id, sum(CASE WHEN t.debit_account_id = ANY($4::uuid[]) THEN t.base_amount ELSE -t.base_amount END) AS amount
     FROM ledger_transactions t
     JOIN accounts c ON c.id = CASE WHEN t.debit_account_id = ANY($4::uuid[]) THEN t.credit_account_id ELSE t.debit_account_id END
     WHERE t.organization_id = $1 AND t.transaction_date BETWEEN $2 AND $3
       AND (t.debit_account_id = ANY($4::uuid[])) <> (t.credit_account_id = ANY($4::uuid[]))
     GROUP BY c.id`,
    [orgId, from, to, chart.cashIds],
  );
  const opening = await pgc.query<{ amount: string | null }>(
    `SELECT sum(CASE WHEN debit_account_id = ANY($3::uuid[]) THEN base_amount ELSE -base_amount END) AS amount
     FROM ledger_transactions
     WHERE organization_id = $1 AND transaction_date <= $2
       AND (debit_account_id = ANY($3::uuid[])) <> (credit_account_id = ANY($3::uuid[]))`,
    [orgId, addDays(from, -1), chart.cashIds],
  );
  const by = (activity: string) =>
    total(flows.rows.filter((r) => activityOf(r) === activity).map((r) => dec(r.amount)));
  const net = total(flows.rows.map((r) => dec(r.amount)));
  const open = dec(opening.rows[0].amount ?? 0);
  return {
    operating: f(by('operating')),
    investing: f(by('investing')),
    financing: f(by('financing')),
    netCashFlow: f(net),
    openingBalance: f(open),
    closingBalance: f(open.plus(net)),
  };
}

/** Output VAT = the invoices' postings to 2300, input VAT = the expenses' postings to 1300, in the period. */
export async function vat(pgc: pg.Client, orgId: string, chart: Chart, from: string, to: string): Promise<Figures> {
  const { rows } = await pgc.query<{ output: string | null; input: string | null }>(
    `SELECT sum(base_amount) FILTER (WHERE credit_account_id = $4 AND reference_type = 'invoice') AS output,
            sum(base_amount) FILTER (WHERE debit_account_id = $5 AND reference_type = 'expense') AS input
     FROM ledger_transactions
     WHERE organization_id = $1 AND transaction_date BETWEEN $2 AND $3 AND (credit_account_id = $4 OR debit_account_id = $5)`,
    [orgId, from, to, chart.vatPayableId, chart.vatReceivableId],
  );
  const output = dec(rows[0].output ?? 0);
  const input = dec(rows[0].input ?? 0);
  return { output: f(output), input: f(input), netVAT: f(output.minus(input)) };
}

/** The dashboard's ledger figures: cash at the end of today, this month to date, the last 12 months' P&L. */
export async function dashboard(pgc: pg.Client, orgId: string, chart: Chart, today: string): Promise<Figures> {
  const monthly = await pgc.query<{ month: string; account_type_id: number; debit: string; credit: string }>(
    `SELECT to_char(t.transaction_date, 'YYYY-MM') AS month, a.account_type_id, sum(x.debit) AS debit, sum(x.credit) AS credit
     FROM ledger_transactions t
     CROSS JOIN LATERAL (VALUES (t.debit_account_id, t.base_amount, 0), (t.credit_account_id, 0, t.base_amount)) AS x (account_id, debit, credit)
     JOIN accounts a ON a.id = x.account_id AND a.account_type_id IN (4, 5)
     WHERE t.organization_id = $1 AND t.transaction_date BETWEEN $2 AND $3
     GROUP BY 1, 2`,
    [orgId, monthStart(today, -11), today],
  );
  const cash = await pgc.query<{ amount: string | null }>(
    `SELECT sum(CASE WHEN debit_account_id = ANY($3::uuid[]) THEN base_amount ELSE -base_amount END) AS amount
     FROM ledger_transactions
     WHERE organization_id = $1 AND transaction_date <= $2
       AND (debit_account_id = ANY($3::uuid[])) <> (credit_account_id = ANY($3::uuid[]))`,
    [orgId, today, chart.cashIds],
  );
  const months = Array.from({ length: 12 }, (_, i) => monthStart(today, i - 11).slice(0, 7));
  const of = (month: string, type: number) => {
    const r = monthly.rows.find((m) => m.month === month && m.account_type_id === type);
    return r ? (type === 4 ? dec(r.credit).minus(r.debit) : dec(r.debit).minus(r.credit)) : ZERO;
  };
  const now = months[11];
  return {
    cashBalance: f(dec(cash.rows[0].amount ?? 0)),
    revenueMTD: f(of(now, 4)),
    expensesMTD: f(of(now, 5)),
    profitMTD: f(of(now, 4).minus(of(now, 5))),
    monthlyPL: months.map((m) => `${m}:${f(of(m, 4))}:${f(of(m, 5))}`).join(' '),
  };
}

// The same figures read from the reports' JSON --------------------------------------------------------

/* eslint-disable @typescript-eslint/no-explicit-any */
export const fromReport: Record<string, (r: any) => Figures> = {
  'trial-balance': (r) => ({
    debit: r.totals.debit,
    credit: r.totals.credit,
    accounts: r.accounts.map((a: any) => `${a.accountCode}:${a.debitTotal}:${a.creditTotal}`).join(' '),
  }),
  'balance-sheet': (r) => ({ assets: r.assets.total, liabilities: r.liabilities.total, equity: r.equity.total }),
  'profit-loss': (r) => ({
    revenue: r.revenue.total,
    expenses: r.expenses.total,
    netProfit: r.netProfit,
    accounts: String(r.revenue.accounts.length + r.expenses.accounts.length),
  }),
  'cash-flow': (r) => ({
    operating: r.operating.total,
    investing: r.investing.total,
    financing: r.financing.total,
    netCashFlow: r.netCashFlow,
    openingBalance: r.openingBalance,
    closingBalance: r.closingBalance,
  }),
  vat: (r) => ({ output: r.outputVAT.total, input: r.inputVAT.total, netVAT: r.netVAT }),
  dashboard: (r) => ({
    cashBalance: r.cashBalance,
    revenueMTD: r.revenueMTD,
    expensesMTD: r.expensesMTD,
    profitMTD: r.profitMTD,
    monthlyPL: r.monthlyPL.map((m: any) => `${m.month}:${m.revenue}:${m.expenses}`).join(' '),
  }),
};

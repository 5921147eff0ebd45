import { D, type Dec, dec, roundHalfUp } from '@app/shared/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { currencyDecimals } from '../currencies/currencies.js';
import * as ledger from '../ledger/ledger.repository.js';
import { trialBalance } from '../ledger/ledger.service.js';
import { addDays, BEGINNING, monthStart, type SumRanges, sumRanges, sumRangesUpTo } from '../ledger/period-ranges.js';
import {
  ASSET,
  activityOf,
  type CashFlowActivity,
  cashAccountIds,
  EQUITY,
  EXPENSE,
  isFixedAsset,
  isLongTermLiability,
  LIABILITY,
  REVENUE,
} from './report-accounts.js';
import * as repo from './reports.repository.js';
import type { VatDetail, VatReport } from './reports.schemas.js';
import * as vatSql from './reports.sql.js';

/** The organization a report is for (from the caller's principal). */
export interface ReportOrg {
  id: string;
  name: string;
  baseCurrency: string;
  country: string;
  language: string;
}

type Db = Kysely<DB>;
const ZERO = new D(0);

/** Decimal strings with the base currency's decimals (A3). */
function money(org: ReportOrg) {
  const decimals = currencyDecimals(org.baseCurrency);
  return (v: Dec | string) => roundHalfUp(dec(v), decimals).toFixed(decimals);
}

const sumOf = (values: Dec[]) => values.reduce((a, b) => a.plus(b), ZERO);

/** 422 SVC-6001 / SVC-6002 / SVC-6003 for a period query (dates are schema-checked already). */
export function checkPeriod(q: { from?: string; to?: string }): { from: string; to: string } {
  if (!q.from) throw new AppError('SVC-6001', { from: ['is required'] });
  if (!q.to) throw new AppError('SVC-6002', { to: ['is required'] });
  if (q.from > q.to) throw new AppError('SVC-6003', { from: ['must not be after to'] });
  return { from: q.from, to: q.to };
}

/** Net balance on the account type's normal side (A9). */
function normalSide(typeId: number, debit: string, credit: string): Dec {
  return typeId === ASSET || typeId === EXPENSE ? dec(debit).minus(credit) : dec(credit).minus(debit);
}

/** The ledger accounts bank accounts are booked on (none until banking exists). */
async function bankLedgerIds(db: Db, orgId: string): Promise<Set<string>> {
  return new Set(await repo.bankLedgerAccountIds(db, orgId));
}

// ---------------------------------------------------------------------------------------------

export function profitLoss(scope: TenantScope, org: ReportOrg, period: { from: string; to: string }) {
  return scope.run((db) => computeProfitLoss(db, org, period));
}

async function computeProfitLoss(db: Db, org: ReportOrg, period: { from: string; to: string }) {
  const fmt = money(org);
  const rows = await ledger.accountTotals(db, org.id, sumRanges(period.from, period.to));
  const section = (typeId: number) => {
    const accounts = rows
      .filter((r) => r.account_type_id === typeId)
      .map((r) => ({
        accountCode: r.code,
        accountName: r.name,
        amount: fmt(normalSide(typeId, r.debit_total, r.credit_total)),
      }));
    return { total: fmt(sumOf(accounts.map((a) => dec(a.amount)))), accounts };
  };
  const revenue = section(REVENUE);
  const expenses = section(EXPENSE);
  return {
    period,
    baseCurrency: org.baseCurrency,
    revenue,
    expenses,
    netProfit: fmt(dec(revenue.total).minus(expenses.total)),
  };
}

export function balanceSheet(scope: TenantScope, org: ReportOrg, asOfDate: string) {
  return scope.run((db) => computeBalanceSheet(db, org, asOfDate));
}

async function computeBalanceSheet(db: Db, org: ReportOrg, asOfDate: string) {
  const fmt = money(org);
  const rows = await ledger.accountTotals(db, org.id, sumRangesUpTo(asOfDate));
  const line = (r: ledger.AccountTotalsRow) => ({
    accountCode: r.code as string | null,
    accountName: r.name,
    balance: fmt(normalSide(r.account_type_id, r.debit_total, r.credit_total)),
  });
  const group = (lines: Array<ReturnType<typeof line>>) => ({
    total: fmt(sumOf(lines.map((l) => dec(l.balance)))),
    accounts: lines,
  });
  const of = (typeId: number) => rows.filter((r) => r.account_type_id === typeId);
  const current = group(
    of(ASSET)
      .filter((r) => !isFixedAsset(r))
      .map(line),
  );
  const fixed = group(
    of(ASSET)
      .filter((r) => isFixedAsset(r))
      .map(line),
  );
  const currentLiabilities = group(
    of(LIABILITY)
      .filter((r) => !isLongTermLiability(r))
      .map(line),
  );
  const longTerm = group(
    of(LIABILITY)
      .filter((r) => isLongTermLiability(r))
      .map(line),
  );
  // Revenue less expenses up to the date: never closed into retained earnings by this service,
  // so the line carries every year's result and assets = liabilities + equity holds on any date.
  const earnings = sumOf(of(REVENUE).map((r) => dec(fmt(normalSide(REVENUE, r.debit_total, r.credit_total))))).minus(
    sumOf(of(EXPENSE).map((r) => dec(fmt(normalSide(EXPENSE, r.debit_total, r.credit_total))))),
  );
  const equity = group([
    ...of(EQUITY).map(line),
    { accountCode: null, accountName: 'Current Year Earnings', balance: fmt(earnings) },
  ]);
  return {
    asOfDate,
    baseCurrency: org.baseCurrency,
    assets: { total: fmt(dec(current.total).plus(fixed.total)), current, fixed },
    liabilities: {
      total: fmt(dec(currentLiabilities.total).plus(longTerm.total)),
      current: currentLiabilities,
      longTerm,
    },
    equity,
  };
}

/** Sum of (debits - credits) of the cash accounts in `ranges`. */
async function cashMovement(db: Db, orgId: string, cash: Set<string>, ranges: SumRanges): Promise<Dec> {
  const rows = await ledger.accountTotals(db, orgId, ranges, [...cash]);
  return sumOf(rows.map((r) => dec(r.debit_total).minus(r.credit_total)));
}

/** The cash accounts' balance at the end of `date` (0 before the first possible day). */
function cashBalanceAt(db: Db, orgId: string, cash: Set<string>, date: string): Promise<Dec> {
  return date < BEGINNING ? Promise.resolve(ZERO) : cashMovement(db, orgId, cash, sumRangesUpTo(date));
}

export function cashFlow(scope: TenantScope, org: ReportOrg, period: { from: string; to: string }) {
  return scope.run((db) => computeCashFlow(db, org, period));
}

async function computeCashFlow(db: Db, org: ReportOrg, period: { from: string; to: string }) {
  const fmt = money(org);
  const [accounts, banks] = await Promise.all([repo.chart(db, org.id), bankLedgerIds(db, org.id)]);
  const cash = cashAccountIds(accounts, banks);
  const pairs = await ledger.pairTotals(db, org.id, sumRanges(period.from, period.to), [...cash]);
  // Per counter account: money into (+) or out of (-) the cash accounts. Transfers between two
  // cash accounts move no cash in or out and are left out.
  const byCounter = new Map<string, { code: string; name: string; typeId: number; amount: Dec }>();
  for (const p of pairs) {
    if (cash.has(p.counter_account_id)) continue;
    const item = byCounter.get(p.counter_account_id) ?? {
      code: p.counter_code,
      name: p.counter_name,
      typeId: p.counter_type_id,
      amount: ZERO,
    };
    item.amount = item.amount.plus(p.debit_total).minus(p.credit_total);
    byCounter.set(p.counter_account_id, item);
  }
  const sections: Record<
    CashFlowActivity,
    { total: string; items: Array<{ description: string; accountCode: string; amount: string }> }
  > = {
    operating: { total: '', items: [] },
    investing: { total: '', items: [] },
    financing: { total: '', items: [] },
  };
  for (const item of [...byCounter.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))) {
    sections[activityOf({ code: item.code, account_type_id: item.typeId })].items.push({
      description: item.name,
      accountCode: item.code,
      amount: fmt(item.amount),
    });
  }
  for (const s of Object.values(sections)) s.total = fmt(sumOf(s.items.map((i) => dec(i.amount))));
  const net = dec(sections.operating.total).plus(sections.investing.total).plus(sections.financing.total);
  const opening = await cashBalanceAt(db, org.id, cash, addDays(period.from, -1));
  return {
    period,
    baseCurrency: org.baseCurrency,
    ...sections,
    netCashFlow: fmt(net),
    openingBalance: fmt(opening),
    closingBalance: fmt(dec(fmt(opening)).plus(fmt(net))),
  };
}

export function getTrialBalance(scope: TenantScope, org: ReportOrg, asOfDate: string, log: FastifyBaseLogger) {
  return scope.run((db) => trialBalanceReport(db, org, asOfDate, log));
}

export async function trialBalanceReport(db: Db, org: ReportOrg, asOfDate: string, log: FastifyBaseLogger) {
  const tb = await trialBalance(db, org.id, asOfDate, currencyDecimals(org.baseCurrency));
  if (!tb.balanced) {
    // A posting written past the ledger API (or a broken sums row): needs a person, not a retry.
    log.error(
      { organizationId: org.id, asOfDate, totals: tb.totals },
      'trial balance debit and credit totals differ (SVC-6004)',
    );
    throw new AppError('SVC-6004');
  }
  return {
    asOfDate,
    baseCurrency: org.baseCurrency,
    accounts: tb.accounts.map((a) => ({
      accountCode: a.accountCode,
      accountName: a.accountName,
      accountType: a.accountType,
      debitTotal: a.debitTotal,
      creditTotal: a.creditTotal,
      balance: a.balance,
    })),
    totals: tb.totals,
    balanced: tb.balanced,
  };
}

/**
 * The VAT report (A16): the rows precomputed per document (reports.repository.ts
 * vatReportPieces, table vat_report_rows) with each list's days in date order, or, when those
 * were rounded to other decimals than the base currency's, the JSON text of the same report
 * computed from the documents (vatReportJsonFromDocuments, the definition). Amounts converted and
 * rounded to the base currency's decimals as the sale and the approval posted them (A8), totals
 * the exact sums of the listed amounts. The route sends the text as it is (vatReportChunks); the
 * PDF and CSV exports parse it (vatReportText, parseVatReport), so there is one computation of the
 * figures.
 */
export type VatReportBody = vatSql.VatReportPieces | string;

export function vatReport(
  scope: TenantScope,
  org: ReportOrg,
  period: { from: string; to: string },
  detail: VatDetail = 'documents',
): Promise<VatReportBody> {
  return scope.run((db) => computeVatReport(db, org, period, detail));
}

const byDay = (a: { day: string }, b: { day: string }) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0);

async function computeVatReport(
  db: Db,
  org: ReportOrg,
  period: { from: string; to: string },
  detail: VatDetail,
): Promise<VatReportBody> {
  const decimals = currencyDecimals(org.baseCurrency);
  const withLists = detail === 'documents';
  const pieces = await vatSql.vatReportPieces(db, org, period.from, period.to, decimals, withLists);
  if (!pieces) return vatSql.vatReportJsonFromDocuments(db, org, period.from, period.to, decimals, withLists);
  // ISO dates sort as text; a day appears once per list.
  pieces.invoices.sort(byDay);
  pieces.expenses.sort(byDay);
  return pieces;
}

/** The report's JSON text. */
export function vatReportText(body: VatReportBody): string {
  if (typeof body === 'string') return body;
  const list = (days: Array<{ list: string }>) => days.map((d) => d.list).join(',');
  return body.head + list(body.invoices) + body.mid + list(body.expenses) + body.tail;
}

/**
 * The report's JSON text as UTF-8 buffers of about `size` bytes, in order, for the response: 2.5
 * years are 5.4 MB, and one string and one buffer of that size cost the request more than the
 * statement did (on the bench, 37 ms to join the days and encode the text against 4 ms in 16 kB
 * pieces: fresh large allocations, page by page).
 */
export function vatReportChunks(body: VatReportBody, size = 16_384): Buffer[] {
  if (typeof body === 'string') return [Buffer.from(body)];
  const chunks: Buffer[] = [];
  let current = body.head;
  const add = (text: string) => {
    current += text;
    if (current.length >= size) {
      chunks.push(Buffer.from(current));
      current = '';
    }
  };
  for (const [i, d] of body.invoices.entries()) add(i === 0 ? d.list : `,${d.list}`);
  add(body.mid);
  for (const [i, d] of body.expenses.entries()) add(i === 0 ? d.list : `,${d.list}`);
  current += body.tail;
  chunks.push(Buffer.from(current));
  return chunks;
}

export const parseVatReport = (json: string): VatReport => JSON.parse(json) as VatReport;

// Dashboard --------------------------------------------------------------------------------------

export function dashboard(scope: TenantScope, org: ReportOrg, today: string) {
  return scope.run((db) => computeDashboard(db, org, today));
}

async function computeDashboard(db: Db, org: ReportOrg, today: string) {
  const fmt = money(org);
  const thisMonth = monthStart(today);
  const lastMonth = monthStart(today, -1);
  const [accounts, banks, monthly, receivables, categories] = await Promise.all([
    repo.chart(db, org.id),
    bankLedgerIds(db, org.id),
    ledger.monthlyTypeTotals(db, org.id, sumRanges(monthStart(today, -11), today)),
    repo.receivables(db, org.id, today),
    repo.expensesByCategory(db, org.id, thisMonth, today, currencyDecimals(org.baseCurrency)),
  ]);
  // The cash balance and this and last month's cash movements from one read of the history.
  const cashRows = await ledger.netByMonth(
    db,
    org.id,
    sumRangesUpTo(today),
    [...cashAccountIds(accounts, banks)],
    lastMonth,
  );
  const cashIn = (month: string | null) => dec(cashRows.find((r) => r.month === month)?.net ?? ZERO);
  const flowThis = cashIn(thisMonth.slice(0, 7));
  const flowLast = cashIn(lastMonth.slice(0, 7));
  const cashNow = cashIn(null).plus(flowLast).plus(flowThis);

  // The last 12 calendar months including this one (month to date), months without postings as 0.
  const monthlyPL = Array.from({ length: 12 }, (_, i) => {
    const month = monthStart(today, i - 11).slice(0, 7);
    const of = (typeId: number) => monthly.find((m) => m.month === month && m.account_type_id === typeId);
    const rev = of(REVENUE);
    const exp = of(EXPENSE);
    const revenue = dec(fmt(rev ? normalSide(REVENUE, rev.debit_total, rev.credit_total) : ZERO));
    const expenses = dec(fmt(exp ? normalSide(EXPENSE, exp.debit_total, exp.credit_total) : ZERO));
    return { month, revenue: fmt(revenue), expenses: fmt(expenses), profit: fmt(revenue.minus(expenses)) };
  });
  const current = monthlyPL[11];

  // Net cash flow = the movement of the cash accounts (transfers between them cancel out).
  const cashFlowChange = flowLast.isZero()
    ? 0
    : roundHalfUp(flowThis.minus(flowLast).div(flowLast.abs()).times(100), 2).toNumber();

  return {
    asOfDate: today,
    baseCurrency: org.baseCurrency,
    cashBalance: fmt(cashNow),
    revenueMTD: current.revenue,
    unpaidInvoices: fmt(receivables?.total ?? ZERO),
    expensesMTD: current.expenses,
    profitMTD: current.profit,
    cashFlowChange,
    monthlyPL,
    receivablesAging: {
      current: fmt(receivables?.current ?? ZERO),
      days30: fmt(receivables?.days30 ?? ZERO),
      days60: fmt(receivables?.days60 ?? ZERO),
      days90plus: fmt(receivables?.days90plus ?? ZERO),
    },
    expensesByCategory: categories.map((c) => ({
      category: c.category,
      amount: fmt(c.amount),
      currencyCode: org.baseCurrency,
    })),
  };
}

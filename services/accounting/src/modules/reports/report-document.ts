import { dec } from '@app/shared/money';
import type { ReportLabels } from '../../infra/documents/report-labels.js';
import type { TableColumn, TableDocument, TableRow } from '../../infra/documents/table-document.js';
import type { VatReport } from './reports.schemas.js';
import type { balanceSheet, cashFlow, dashboard, profitLoss, trialBalanceReport } from './reports.service.js';

/**
 * One tabular form of every report, rendered by both exports (PDF and CSV): blocks of rows under
 * their columns (`TableDocument`, which the PDF renderer in infra takes without knowing reports).
 */
export interface ReportDocument extends TableDocument {
  kind: keyof ReportLabels['titles'];
}

type Report<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const text = (label: string, width = 3): TableColumn => ({ label, kind: 'text', width });
const money = (label: string, width = 1.6): TableColumn => ({ label, kind: 'money', width });

function accountColumns(l: ReportLabels, amount: string) {
  return [text(l.code, 1), text(l.account, 4), money(amount)];
}

export function profitLossDocument(r: Report<typeof profitLoss>, l: ReportLabels): ReportDocument {
  const lines = (s: typeof r.revenue): TableRow[] => [
    ...s.accounts.map((a) => ({ cells: [a.accountCode, a.accountName, a.amount] })),
    { cells: ['', l.total, s.total], role: 'total' },
  ];
  return {
    kind: 'profit-loss',
    title: l.titles['profit-loss'],
    meta: [
      [l.period, `${r.period.from} – ${r.period.to}`],
      [l.baseCurrency, r.baseCurrency],
    ],
    blocks: [
      { title: l.revenue, columns: accountColumns(l, l.amount), rows: lines(r.revenue) },
      { title: l.expenses, columns: accountColumns(l, l.amount), rows: lines(r.expenses) },
      {
        title: l.netProfit,
        columns: accountColumns(l, l.amount),
        rows: [{ cells: ['', l.netProfit, r.netProfit], role: 'grand' }],
      },
    ],
  };
}

export function balanceSheetDocument(r: Report<typeof balanceSheet>, l: ReportLabels): ReportDocument {
  const group = (title: string, g: typeof r.equity, totalLabel = l.total) => ({
    title,
    columns: accountColumns(l, l.balance),
    rows: [
      ...g.accounts.map((a) => ({
        cells: [a.accountCode ?? '', a.accountCode === null ? l.currentYearEarnings : a.accountName, a.balance],
      })),
      { cells: ['', totalLabel, g.total], role: 'total' as const },
    ],
  });
  const scale = (r.assets.total.split('.')[1] ?? '').length;
  return {
    kind: 'balance-sheet',
    title: l.titles['balance-sheet'],
    meta: [
      [l.asOf, r.asOfDate],
      [l.baseCurrency, r.baseCurrency],
    ],
    blocks: [
      group(l.currentAssets, r.assets.current),
      group(l.fixedAssets, r.assets.fixed),
      {
        title: l.totalAssets,
        columns: accountColumns(l, l.balance),
        rows: [{ cells: ['', l.totalAssets, r.assets.total], role: 'grand' }],
      },
      group(l.currentLiabilities, r.liabilities.current),
      group(l.longTermLiabilities, r.liabilities.longTerm),
      group(l.equity, r.equity),
      {
        title: l.totalLiabilitiesEquity,
        columns: accountColumns(l, l.balance),
        rows: [
          { cells: ['', l.totalLiabilities, r.liabilities.total], role: 'total' },
          {
            cells: ['', l.totalLiabilitiesEquity, dec(r.liabilities.total).plus(r.equity.total).toFixed(scale)],
            role: 'grand',
          },
        ],
      },
    ],
  };
}

export function cashFlowDocument(r: Report<typeof cashFlow>, l: ReportLabels): ReportDocument {
  const columns = [text(l.code, 1), text(l.description, 4), money(l.amount)];
  const section = (title: string, s: typeof r.operating) => ({
    title,
    columns,
    rows: [
      ...s.items.map((i) => ({ cells: [i.accountCode, i.description, i.amount] })),
      { cells: ['', l.total, s.total], role: 'total' as const },
    ],
  });
  return {
    kind: 'cash-flow',
    title: l.titles['cash-flow'],
    meta: [
      [l.period, `${r.period.from} – ${r.period.to}`],
      [l.baseCurrency, r.baseCurrency],
    ],
    blocks: [
      { title: l.openingBalance, columns, rows: [{ cells: ['', l.openingBalance, r.openingBalance], role: 'total' }] },
      section(l.operating, r.operating),
      section(l.investing, r.investing),
      section(l.financing, r.financing),
      {
        title: l.closingBalance,
        columns,
        rows: [
          { cells: ['', l.netCashFlow, r.netCashFlow], role: 'total' },
          { cells: ['', l.closingBalance, r.closingBalance], role: 'grand' },
        ],
      },
    ],
  };
}

export function trialBalanceDocument(r: Report<typeof trialBalanceReport>, l: ReportLabels): ReportDocument {
  const columns = [
    text(l.code, 1),
    text(l.account, 3),
    text(l.type, 1.4),
    money(l.debit),
    money(l.credit),
    money(l.balance),
  ];
  return {
    kind: 'trial-balance',
    title: l.titles['trial-balance'],
    meta: [
      [l.asOf, r.asOfDate],
      [l.baseCurrency, r.baseCurrency],
    ],
    blocks: [
      {
        title: l.titles['trial-balance'],
        columns,
        rows: [
          ...r.accounts.map((a) => ({
            cells: [
              a.accountCode,
              a.accountName,
              l.accountTypes[a.accountType] ?? a.accountType,
              a.debitTotal,
              a.creditTotal,
              a.balance,
            ],
          })),
          { cells: ['', l.total, '', r.totals.debit, r.totals.credit, ''], role: 'grand' },
        ],
      },
    ],
  };
}

export function vatDocument(r: VatReport, l: ReportLabels): ReportDocument {
  const columns = [
    text(l.number, 1.6),
    text(l.party, 2.4),
    text(l.date, 1.3),
    money(l.base, 1.5),
    money(l.vat, 1.3),
    { label: l.rate, kind: 'number' as const, width: 1.1 },
  ];
  const yesNo = (b: boolean) => (b ? l.yes : l.no);
  return {
    kind: 'vat',
    title: l.titles.vat,
    meta: [
      [l.period, `${r.period.from} – ${r.period.to}`],
      [l.country, r.country],
      [l.baseCurrency, r.baseCurrency],
    ],
    blocks: [
      {
        title: l.outputVat,
        columns,
        rows: [
          ...(r.outputVAT.invoices ?? []).map((i) => ({
            cells: [i.invoiceNumber, i.customerName, i.invoiceDate, i.baseAmount, i.vatAmount, i.vatRate],
          })),
          { cells: ['', l.total, '', '', r.outputVAT.total, ''], role: 'total' },
        ],
      },
      {
        title: l.inputVat,
        columns,
        rows: [
          ...(r.inputVAT.expenses ?? []).map((e) => ({
            cells: [e.expenseNumber, e.vendorName ?? '', e.expenseDate, e.baseAmount, e.vatAmount, e.vatRate],
          })),
          { cells: ['', l.total, '', '', r.inputVAT.total, ''], role: 'total' },
        ],
      },
      {
        title: l.netVat,
        columns: [text(l.description, 4), money(l.amount)],
        rows: [
          { cells: [l.netVat, r.netVAT], role: 'grand' },
          { cells: [`${l.allInvoicesPaid}: ${yesNo(r.reconciliationStatus.allInvoicesPaid)}`, ''] },
          { cells: [`${l.allExpensesApproved}: ${yesNo(r.reconciliationStatus.allExpensesApproved)}`, ''] },
          { cells: [`${l.unmatchedTransactions}: ${r.reconciliationStatus.unmatchedTransactions}`, ''] },
        ],
      },
    ],
  };
}

export function dashboardDocument(r: Report<typeof dashboard>, l: ReportLabels): ReportDocument {
  const pair = [text(l.description, 4), money(l.amount)];
  return {
    kind: 'dashboard',
    title: l.titles.dashboard,
    meta: [
      [l.asOf, r.asOfDate],
      [l.baseCurrency, r.baseCurrency],
    ],
    blocks: [
      {
        title: l.figures,
        columns: pair,
        rows: [
          { cells: [l.cashBalance, r.cashBalance] },
          { cells: [l.revenueMTD, r.revenueMTD] },
          { cells: [l.expensesMTD, r.expensesMTD] },
          { cells: [l.profitMTD, r.profitMTD], role: 'total' },
          { cells: [l.unpaidInvoices, r.unpaidInvoices] },
          { cells: [l.cashFlowChange, r.cashFlowChange.toFixed(2)] },
        ],
      },
      {
        title: l.monthlyPL,
        columns: [text(l.month, 1.5), money(l.revenue), money(l.expenses), money(l.profit)],
        rows: r.monthlyPL.map((m) => ({ cells: [m.month, m.revenue, m.expenses, m.profit] })),
      },
      {
        title: l.receivablesAging,
        columns: pair,
        rows: [
          { cells: [l.agingCurrent, r.receivablesAging.current] },
          { cells: [l.aging30, r.receivablesAging.days30] },
          { cells: [l.aging60, r.receivablesAging.days60] },
          { cells: [l.aging90, r.receivablesAging.days90plus] },
          { cells: [l.total, r.unpaidInvoices], role: 'total' },
        ],
      },
      {
        title: l.expensesByCategory,
        columns: [text(l.category, 4), money(l.amount)],
        rows: r.expensesByCategory.map((c) => ({ cells: [c.category, c.amount] })),
      },
    ],
  };
}

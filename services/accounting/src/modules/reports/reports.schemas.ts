import { type Static, type TSchema, Type } from 'typebox';
import { COUNTRIES, literalUnion } from '../../lib/schemas.js';

export const REPORT_FORMATS = ['json', 'pdf', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

// Calendar dates from year 0001 on (PostgreSQL has no year 0).
const ReportDate = Type.String({ format: 'date', pattern: '^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const Format = Type.Optional(
  Type.Enum([...REPORT_FORMATS], {
    description: "json (default), pdf (A4, organization's language) or csv; pdf and csv come as attachments",
  }),
);

// Required, but checked by the service so that a missing one answers its own code.
export const PeriodQuery = Type.Object({
  from: Type.Optional(Type.String({ ...ReportDate, description: 'ISO date, required (422 SVC-6001 when missing)' })),
  to: Type.Optional(
    Type.String({
      ...ReportDate,
      description: 'ISO date, required (422 SVC-6002 when missing; SVC-6003 when before from)',
    }),
  ),
  format: Format,
});
export const VAT_DETAILS = ['documents', 'totals'] as const;
export type VatDetail = (typeof VAT_DETAILS)[number];
/** Extension: `detail=totals` answers the totals and reconciliation status without the document lists. */
export const VatQuery = Type.Object({
  ...PeriodQuery.properties,
  detail: Type.Optional(
    Type.Enum([...VAT_DETAILS], {
      description:
        "documents (default): the spec's response, every invoice row and expense of the period; " +
        'totals (extension): the same figures without outputVAT.invoices and inputVAT.expenses, for callers that need only the totals (a long period lists tens of thousands of rows)',
    }),
  ),
});
export const AsOfQuery = Type.Object({
  date: Type.Optional(
    Type.String({ ...ReportDate, description: "ISO date; default today in the organization's time zone" }),
  ),
  format: Format,
});
export const DashboardQuery = Type.Object({ format: Format });

const Money = Type.String({ description: 'decimal string in base currency, base currency decimals' });
const Period = Type.Object({ from: Type.String(), to: Type.String() });

const AccountAmount = Type.Object({ accountCode: Type.String(), accountName: Type.String(), amount: Money });
const AccountBalance = Type.Object({
  accountCode: Type.Union([Type.String(), Type.Null()], {
    description: 'null only on the computed "Current Year Earnings" line',
  }),
  accountName: Type.String(),
  balance: Money,
});
const BalanceGroup = Type.Object({ total: Money, accounts: Type.Array(AccountBalance) });
const CashFlowSection = Type.Object({
  total: Money,
  items: Type.Array(Type.Object({ description: Type.String(), accountCode: Type.String(), amount: Money })),
});

export const Dashboard = Type.Object({
  asOfDate: Type.String(),
  baseCurrency: Type.String(),
  cashBalance: Money,
  revenueMTD: Money,
  unpaidInvoices: Money,
  expensesMTD: Money,
  profitMTD: Money,
  cashFlowChange: Type.Number({
    description: "percent change of this month's net cash flow over last month's, 2 decimals; 0 when last month was 0",
  }),
  monthlyPL: Type.Array(Type.Object({ month: Type.String(), revenue: Money, expenses: Money, profit: Money })),
  receivablesAging: Type.Object({ current: Money, days30: Money, days60: Money, days90plus: Money }),
  expensesByCategory: Type.Array(Type.Object({ category: Type.String(), amount: Money, currencyCode: Type.String() })),
});

export const ProfitLoss = Type.Object({
  period: Period,
  baseCurrency: Type.String(),
  revenue: Type.Object({ total: Money, accounts: Type.Array(AccountAmount) }),
  expenses: Type.Object({ total: Money, accounts: Type.Array(AccountAmount) }),
  netProfit: Money,
});

export const BalanceSheet = Type.Object({
  asOfDate: Type.String(),
  baseCurrency: Type.String(),
  assets: Type.Object({ total: Money, current: BalanceGroup, fixed: BalanceGroup }),
  liabilities: Type.Object({ total: Money, current: BalanceGroup, longTerm: BalanceGroup }),
  equity: BalanceGroup,
});

export const CashFlow = Type.Object({
  period: Period,
  baseCurrency: Type.String(),
  operating: CashFlowSection,
  investing: CashFlowSection,
  financing: CashFlowSection,
  netCashFlow: Money,
  openingBalance: Money,
  closingBalance: Money,
});

export const Vat = Type.Object({
  period: Period,
  country: literalUnion(COUNTRIES),
  baseCurrency: Type.String(),
  outputVAT: Type.Object({
    total: Money,
    invoices: Type.Optional(
      Type.Array(
        Type.Object({
          invoiceNumber: Type.String(),
          customerName: Type.String(),
          invoiceDate: Type.String(),
          baseAmount: Money,
          vatAmount: Money,
          vatRate: Type.String({ description: 'percent' }),
        }),
        { description: 'one row per invoice and tax rate; absent with detail=totals' },
      ),
    ),
  }),
  inputVAT: Type.Object({
    total: Money,
    expenses: Type.Optional(
      Type.Array(
        Type.Object({
          expenseNumber: Type.String(),
          vendorName: Type.Union([Type.String(), Type.Null()]),
          expenseDate: Type.String(),
          baseAmount: Money,
          vatAmount: Money,
          vatRate: Type.String({ description: 'percent, 2 decimals' }),
        }),
        { description: 'absent with detail=totals' },
      ),
    ),
  }),
  netVAT: Money,
  reconciliationStatus: Type.Object({
    allInvoicesPaid: Type.Boolean(),
    allExpensesApproved: Type.Boolean(),
    unmatchedTransactions: Type.Number(),
  }),
});

export type VatReport = Static<typeof Vat>;

export const TrialBalance = Type.Object({
  asOfDate: Type.String(),
  baseCurrency: Type.String(),
  accounts: Type.Array(
    Type.Object({
      accountCode: Type.String(),
      accountName: Type.String(),
      accountType: Type.String(),
      debitTotal: Money,
      creditTotal: Money,
      balance: Money,
    }),
  ),
  totals: Type.Object({ debit: Money, credit: Money }),
  balanced: Type.Boolean(),
});

/** 200 in three representations (OpenAPI content map): JSON, and the pdf and csv exports. */
export function reportResponse(schema: TSchema, description: string) {
  return {
    description,
    content: {
      'application/json': { schema },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string' } },
    },
  };
}

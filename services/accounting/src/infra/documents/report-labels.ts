import type { PdfLanguage } from './pdf-labels.js';

/** Report export labels (A18: PDFs in the organization's language; CSV uses en). sr, bs, hr in Latin script. */
export interface ReportLabels {
  titles: Record<'dashboard' | 'profit-loss' | 'balance-sheet' | 'cash-flow' | 'vat' | 'trial-balance', string>;
  period: string;
  asOf: string;
  baseCurrency: string;
  country: string;
  code: string;
  account: string;
  amount: string;
  balance: string;
  type: string;
  debit: string;
  credit: string;
  description: string;
  revenue: string;
  expenses: string;
  netProfit: string;
  currentAssets: string;
  fixedAssets: string;
  totalAssets: string;
  currentLiabilities: string;
  longTermLiabilities: string;
  totalLiabilities: string;
  equity: string;
  totalLiabilitiesEquity: string;
  currentYearEarnings: string;
  operating: string;
  investing: string;
  financing: string;
  netCashFlow: string;
  openingBalance: string;
  closingBalance: string;
  total: string;
  outputVat: string;
  inputVat: string;
  netVat: string;
  number: string;
  party: string;
  date: string;
  base: string;
  vat: string;
  rate: string;
  allInvoicesPaid: string;
  allExpensesApproved: string;
  unmatchedTransactions: string;
  yes: string;
  no: string;
  figures: string;
  cashBalance: string;
  revenueMTD: string;
  expensesMTD: string;
  profitMTD: string;
  unpaidInvoices: string;
  cashFlowChange: string;
  monthlyPL: string;
  month: string;
  profit: string;
  receivablesAging: string;
  agingCurrent: string;
  aging30: string;
  aging60: string;
  aging90: string;
  expensesByCategory: string;
  category: string;
  accountTypes: Record<string, string>;
  page: string;
}

const en: ReportLabels = {
  titles: {
    dashboard: 'Dashboard',
    'profit-loss': 'Profit and loss',
    'balance-sheet': 'Balance sheet',
    'cash-flow': 'Cash flow',
    vat: 'VAT report',
    'trial-balance': 'Trial balance',
  },
  period: 'Period',
  asOf: 'As of',
  baseCurrency: 'Base currency',
  country: 'Country',
  code: 'Code',
  account: 'Account',
  amount: 'Amount',
  balance: 'Balance',
  type: 'Type',
  debit: 'Debit',
  credit: 'Credit',
  description: 'Description',
  revenue: 'Revenue',
  expenses: 'Expenses',
  netProfit: 'Net profit',
  currentAssets: 'Current assets',
  fixedAssets: 'Fixed assets',
  totalAssets: 'Total assets',
  currentLiabilities: 'Current liabilities',
  longTermLiabilities: 'Long-term liabilities',
  totalLiabilities: 'Total liabilities',
  equity: 'Equity',
  totalLiabilitiesEquity: 'Total liabilities and equity',
  currentYearEarnings: 'Current Year Earnings',
  operating: 'Operating activities',
  investing: 'Investing activities',
  financing: 'Financing activities',
  netCashFlow: 'Net cash flow',
  openingBalance: 'Opening balance',
  closingBalance: 'Closing balance',
  total: 'Total',
  outputVat: 'Output VAT',
  inputVat: 'Input VAT',
  netVat: 'Net VAT',
  number: 'Number',
  party: 'Customer / vendor',
  date: 'Date',
  base: 'Base',
  vat: 'VAT',
  rate: 'Rate %',
  allInvoicesPaid: 'All invoices paid',
  allExpensesApproved: 'All expenses approved',
  unmatchedTransactions: 'Unmatched bank transactions',
  yes: 'yes',
  no: 'no',
  figures: 'Key figures',
  cashBalance: 'Cash balance',
  revenueMTD: 'Revenue this month',
  expensesMTD: 'Expenses this month',
  profitMTD: 'Profit this month',
  unpaidInvoices: 'Unpaid invoices',
  cashFlowChange: 'Cash flow change vs last month (%)',
  monthlyPL: 'Last 12 months',
  month: 'Month',
  profit: 'Profit',
  receivablesAging: 'Receivables aging',
  agingCurrent: '0-30 days',
  aging30: '31-60 days',
  aging60: '61-90 days',
  aging90: 'over 90 days',
  expensesByCategory: 'Expenses by category this month',
  category: 'Category',
  accountTypes: { Asset: 'Asset', Liability: 'Liability', Equity: 'Equity', Revenue: 'Revenue', Expense: 'Expense' },
  page: 'Page',
};

const sr: ReportLabels = {
  titles: {
    dashboard: 'Pregled poslovanja',
    'profit-loss': 'Bilans uspeha',
    'balance-sheet': 'Bilans stanja',
    'cash-flow': 'Izveštaj o tokovima gotovine',
    vat: 'PDV izveštaj',
    'trial-balance': 'Bruto bilans',
  },
  period: 'Period',
  asOf: 'Na dan',
  baseCurrency: 'Osnovna valuta',
  country: 'Država',
  code: 'Konto',
  account: 'Naziv',
  amount: 'Iznos',
  balance: 'Saldo',
  type: 'Vrsta',
  debit: 'Duguje',
  credit: 'Potražuje',
  description: 'Opis',
  revenue: 'Prihodi',
  expenses: 'Rashodi',
  netProfit: 'Neto rezultat',
  currentAssets: 'Obrtna imovina',
  fixedAssets: 'Stalna imovina',
  totalAssets: 'Ukupna aktiva',
  currentLiabilities: 'Kratkoročne obaveze',
  longTermLiabilities: 'Dugoročne obaveze',
  totalLiabilities: 'Ukupne obaveze',
  equity: 'Kapital',
  totalLiabilitiesEquity: 'Ukupna pasiva',
  currentYearEarnings: 'Rezultat tekuće godine',
  operating: 'Poslovne aktivnosti',
  investing: 'Aktivnosti investiranja',
  financing: 'Aktivnosti finansiranja',
  netCashFlow: 'Neto tok gotovine',
  openingBalance: 'Početno stanje',
  closingBalance: 'Krajnje stanje',
  total: 'Ukupno',
  outputVat: 'Izlazni PDV',
  inputVat: 'Ulazni PDV',
  netVat: 'PDV za uplatu',
  number: 'Broj',
  party: 'Kupac / dobavljač',
  date: 'Datum',
  base: 'Osnovica',
  vat: 'PDV',
  rate: 'Stopa %',
  allInvoicesPaid: 'Sve fakture plaćene',
  allExpensesApproved: 'Svi troškovi odobreni',
  unmatchedTransactions: 'Neusaglašene bankovne transakcije',
  yes: 'da',
  no: 'ne',
  figures: 'Ključni pokazatelji',
  cashBalance: 'Stanje gotovine',
  revenueMTD: 'Prihodi ovog meseca',
  expensesMTD: 'Rashodi ovog meseca',
  profitMTD: 'Rezultat ovog meseca',
  unpaidInvoices: 'Neplaćene fakture',
  cashFlowChange: 'Promena toka gotovine u odnosu na prošli mesec (%)',
  monthlyPL: 'Poslednjih 12 meseci',
  month: 'Mesec',
  profit: 'Rezultat',
  receivablesAging: 'Starost potraživanja',
  agingCurrent: '0-30 dana',
  aging30: '31-60 dana',
  aging60: '61-90 dana',
  aging90: 'preko 90 dana',
  expensesByCategory: 'Troškovi po kategorijama ovog meseca',
  category: 'Kategorija',
  accountTypes: { Asset: 'Imovina', Liability: 'Obaveze', Equity: 'Kapital', Revenue: 'Prihodi', Expense: 'Rashodi' },
  page: 'Strana',
};

const bs: ReportLabels = {
  ...sr,
  titles: { ...sr.titles, 'cash-flow': 'Izvještaj o novčanim tokovima', vat: 'PDV izvještaj' },
  country: 'Država',
  revenueMTD: 'Prihodi ovog mjeseca',
  expensesMTD: 'Rashodi ovog mjeseca',
  profitMTD: 'Rezultat ovog mjeseca',
  cashFlowChange: 'Promjena novčanog toka u odnosu na prošli mjesec (%)',
  monthlyPL: 'Posljednjih 12 mjeseci',
  month: 'Mjesec',
  expensesByCategory: 'Troškovi po kategorijama ovog mjeseca',
  netCashFlow: 'Neto novčani tok',
  unmatchedTransactions: 'Neusklađene bankovne transakcije',
};

const hr: ReportLabels = {
  ...bs,
  titles: {
    dashboard: 'Pregled poslovanja',
    'profit-loss': 'Račun dobiti i gubitka',
    'balance-sheet': 'Bilanca',
    'cash-flow': 'Izvještaj o novčanim tokovima',
    vat: 'PDV izvještaj',
    'trial-balance': 'Bruto bilanca',
  },
  account: 'Naziv',
  currentAssets: 'Kratkotrajna imovina',
  fixedAssets: 'Dugotrajna imovina',
  totalAssets: 'Ukupna aktiva',
  netProfit: 'Dobit ili gubitak',
  currentYearEarnings: 'Rezultat tekuće godine',
  total: 'Ukupno',
  allInvoicesPaid: 'Svi računi plaćeni',
  unpaidInvoices: 'Neplaćeni računi',
  page: 'Stranica',
};

const ALL: Record<PdfLanguage, ReportLabels> = { sr, bs, hr, en };

export function reportLabelsFor(language: string): ReportLabels {
  return ALL[(language in ALL ? language : 'en') as PdfLanguage];
}

import { dec, formatAmount, roundHalfUp } from '@app/shared/money';
import { AppError } from '../../lib/errors.js';
import type { TenantTx } from '../../plugins/auth.js';
import { SYSTEM_ACCOUNTS } from '../accounts/default-chart.js';
import { paymentLedgerAccount } from '../banking/bank-ledger.js';
import { currencyDecimals } from '../currencies/currencies.js';
import { postJournalEntries, reverseReferences } from '../ledger/ledger.service.js';
import type { Posting } from '../ledger/ledger.types.js';
import { postingTexts } from '../ledger/posting-texts.js';
import { splitSale } from './invoice-totals.js';
import * as repo from './invoices.repository.js';

/**
 * The ledger side of invoice transitions (A8), always called inside the transaction that changes
 * the status (STYLE 5).
 */
const AR = SYSTEM_ACCOUNTS.receivable;
const VAT_PAYABLE = SYSTEM_ACCOUNTS.vatPayable;
const SALES = SYSTEM_ACCOUNTS.sales;
const BANK = SYSTEM_ACCOUNTS.bank;

interface InvoiceForPosting {
  id: string;
  invoice_number: string;
  invoice_date: string;
  currency_code: string;
  exchange_rate: string;
  tax_amount: string;
  discount_amount: string;
  total_amount: string;
}

async function accountsByCode(trx: TenantTx, orgId: string, codes: string[]) {
  const found = await repo.accountIdsByCode(trx, orgId, codes);
  const missing = codes.filter((c) => !found.has(c));
  // The default chart (A7) is created at registration; a missing system account is a data error.
  if (missing.length) throw new AppError('SVC-8001', { accountCode: missing });
  return found;
}

function base(amount: string, rate: string, baseCurrency: string): string {
  return roundHalfUp(dec(amount).times(rate), currencyDecimals(baseCurrency)).toFixed(currencyDecimals(baseCurrency));
}

/**
 * send: Dr 1200 / Cr revenue per revenue account (net, discount from the largest), Dr 1200 / Cr 2300
 * for tax. Built (reads only) before the e-mail goes out and written after it, in the same
 * transaction, so the running-balance rows are not locked while the mail server answers.
 */
export async function buildSalePostings(
  trx: TenantTx,
  orgId: string,
  invoice: InvoiceForPosting,
  items: Array<{ account_id: string | null; line_total: string; line_tax: string }>,
  baseCurrency: string,
  userId: string | null,
  language: string,
) {
  const texts = postingTexts(language);
  const codes = await accountsByCode(trx, orgId, [AR, VAT_PAYABLE, SALES]);
  const decimals = currencyDecimals(invoice.currency_code);
  const split = splitSale(
    items.map((i) => ({ accountId: i.account_id ?? codes.get(SALES)! })),
    {
      lines: items.map((i) => ({ lineTotal: dec(i.line_total), lineTax: dec(i.line_tax) })),
      taxAmount: dec(invoice.tax_amount),
      discountAmount: dec(invoice.discount_amount),
    },
  );
  const posting = (creditAccountId: string, amount: string, description: string): Posting => ({
    transactionDate: invoice.invoice_date,
    description,
    debitAccountId: codes.get(AR)!,
    creditAccountId,
    amount,
    currencyCode: invoice.currency_code,
    exchangeRate: invoice.exchange_rate,
    baseAmount: base(amount, invoice.exchange_rate, baseCurrency),
    referenceType: 'invoice',
    referenceId: invoice.id,
    locked: true,
    createdBy: userId,
  });
  const postings: Posting[] = [];
  for (const r of split.revenue) {
    if (r.amount.gt(0))
      postings.push(posting(r.accountId, formatAmount(r.amount, decimals), texts.invoice(invoice.invoice_number)));
  }
  if (split.tax.gt(0))
    postings.push(
      posting(codes.get(VAT_PAYABLE)!, formatAmount(split.tax, decimals), texts.invoiceVat(invoice.invoice_number)),
    );
  return postings;
}

export function writePostings(trx: TenantTx, orgId: string, postings: Posting[]) {
  return postJournalEntries(trx, orgId, postings);
}

/**
 * mark-paid: Dr the bank's ledger account / Cr 1200 for totalAmount, referenceType payment. The
 * bank account is the one named (404 SVC-5001 when unknown), else the organization's first
 * active one, else account 1100 (an organization without bank accounts).
 */
export async function postInvoicePayment(
  trx: TenantTx,
  orgId: string,
  invoice: InvoiceForPosting,
  paidAt: string,
  bankAccountId: string | null,
  baseCurrency: string,
  userId: string | null,
  language: string,
) {
  const codes = await accountsByCode(trx, orgId, [AR, BANK]);
  const bank = await paymentLedgerAccount(trx, orgId, bankAccountId);
  const debitAccountId = bank?.accountId ?? codes.get(BANK)!;
  if (dec(invoice.total_amount).lte(0)) return [];
  const amount = formatAmount(invoice.total_amount, currencyDecimals(invoice.currency_code));
  return postJournalEntries(trx, orgId, [
    {
      transactionDate: paidAt,
      description: postingTexts(language).invoicePayment(invoice.invoice_number),
      debitAccountId,
      creditAccountId: codes.get(AR)!,
      amount,
      currencyCode: invoice.currency_code,
      exchangeRate: invoice.exchange_rate,
      baseAmount: base(amount, invoice.exchange_rate, baseCurrency),
      referenceType: 'payment',
      referenceId: invoice.id,
      locked: true,
      createdBy: userId,
    },
  ]);
}

/** cancel: every posting of the invoice, sale and payment, reversed ("Reversal: ..."). */
export function reverseInvoicePostings(trx: TenantTx, orgId: string, invoiceId: string, userId: string | null) {
  // One call: the balance rows of both references are locked in one round, in account-id order.
  return reverseReferences(
    trx,
    orgId,
    [
      { referenceType: 'invoice', referenceId: invoiceId },
      { referenceType: 'payment', referenceId: invoiceId },
    ],
    userId,
  );
}

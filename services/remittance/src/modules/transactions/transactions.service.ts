import type { KeptPages } from '@app/shared/kept-pages';
import type { Config } from '../../config.js';
import type { Transaction } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { notFound } from '../../errors.js';
import type { Page } from '../../lib/pagination.js';
import { toNumber } from '../../lib/validation.js';
import { type Receipt, renderReceiptPdf } from './receipt-pdf.js';
import { maskAccount, receiptReference } from './receipt-reference.js';
import * as repo from './transactions.repository.js';

function toDetail(t: Transaction) {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    sendAmount: toNumber(t.send_amount),
    sendCurrency: t.send_currency,
    receiveAmount: toNumber(t.receive_amount),
    receiveCurrency: t.receive_currency,
    exchangeRate: toNumber(t.exchange_rate, 8),
    fee: toNumber(t.fee),
    total: toNumber(t.total),
    recipientName: t.recipient_name,
    recipientCountry: t.recipient_country,
    createdAt: t.created_at.toISOString(),
    completedAt: t.completed_at?.toISOString() ?? null,
  };
}

function toReceipt(t: Transaction): Receipt {
  return {
    transactionId: t.id,
    date: t.created_at.toISOString(),
    type: t.type,
    amount: toNumber(t.send_amount),
    currency: t.send_currency,
    fee: toNumber(t.fee),
    exchangeRate: toNumber(t.exchange_rate, 8),
    receiveAmount: toNumber(t.receive_amount),
    receiveCurrency: t.receive_currency,
    recipient: { name: t.recipient_name, countryCode: t.recipient_country },
    reference: receiptReference(t),
    status: t.status,
    estimatedCompletion: t.status === 'processing' ? t.eta : null,
    completedAt: t.completed_at?.toISOString() ?? null,
  };
}

function found(t: Transaction | undefined): Transaction {
  if (!t) throw notFound('Transaction not found');
  return t;
}

const summaryOf = (r: repo.SummaryRow) => ({
  totalCount: Number(r.total_count),
  totalSent: toNumber(r.total_sent),
  totalPaid: toNumber(r.total_paid),
  remittanceCount: Number(r.remittance_count),
  qrPaymentCount: Number(r.qr_payment_count),
});

async function own(user: UserScope, transactionId: string): Promise<Transaction> {
  return found(await user.run((db) => repo.findTransaction(db, user.userId, transactionId)));
}

// Every function runs in the caller's UserScope (row-level security as that user).

/**
 * One page of the history as the JSON text of TransactionListResponse: the items built by
 * PostgreSQL in one statement with the total (transactions.sql.ts), the pagination added here.
 * The text is kept in `kept` and sent again while the user's transactions are unchanged (the
 * database says so in the statement that would compute the page; see KeptPages).
 */
export async function listTransactions(
  user: UserScope,
  filter: repo.TransactionFilter,
  page: Page,
  kept: KeptPages,
): Promise<string> {
  // Every part is validated before it gets here (ids, enums, integers): no separator inside.
  const key = [user.userId, filter.type ?? '', filter.status ?? '', page.page, page.limit].join('\u0000');
  const held = kept.get(key);
  const fresh = await user.run((db) =>
    repo.listTransactionsJson(db, user.userId, filter, page.limit, page.offset, held?.version ?? null),
  );
  if (!fresh.page) return held!.text;
  const text = `{"data":${fresh.page.data},"pagination":${JSON.stringify({ page: page.page, limit: page.limit, total: fresh.page.total })}}`;
  if (fresh.version !== null) kept.set(key, fresh.version, text);
  return text;
}

export async function getTransaction(user: UserScope, transactionId: string) {
  return toDetail(await own(user, transactionId));
}

export async function summarizeTransactions(user: UserScope, now = new Date()) {
  const { allTime, thisMonth } = await user.run((db) => repo.summarize(db, user.userId, now));
  return { allTime: summaryOf(allTime), thisMonth: summaryOf(thisMonth) };
}

export async function getReceipt(user: UserScope, transactionId: string): Promise<Receipt> {
  return toReceipt(await own(user, transactionId));
}

/** The receipt as a PDF, issued by RECEIPT_ISSUER_* (config.receiptIssuer). */
export async function renderReceipt(
  deps: { issuer: Config['receiptIssuer'] },
  user: UserScope,
  transactionId: string,
): Promise<{ pdf: Buffer; filename: string }> {
  const { t, language, parties } = await user.run(async (db) => {
    const t = found(await repo.findTransaction(db, user.userId, transactionId));
    const language = await repo.findUserLanguage(db, user.userId);
    return { t, language, parties: await repo.findReceiptParties(db, user.userId, t) };
  });
  const pdf = await renderReceiptPdf(
    toReceipt(t),
    t.total,
    language,
    {
      sender: {
        name: parties.senderName,
        bank: t.from_account,
        account: parties.senderAccount ? maskAccount(parties.senderAccount) : null,
      },
      recipientAccount: parties.recipientAccount ? maskAccount(parties.recipientAccount) : null,
    },
    deps.issuer,
  );
  return { pdf, filename: `receipt-${t.id}.pdf` };
}

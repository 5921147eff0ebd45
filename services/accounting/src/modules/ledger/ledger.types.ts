/**
 * The ledger's write API, used by invoices, expenses and manual entries inside their own
 * transaction (STYLE 5: called explicitly, always awaited):
 *
 *   postJournalEntries(trx, organizationId, postings) -> inserted rows
 *   reverseReference(trx, organizationId, { referenceType, referenceId }, createdBy) -> reversal rows
 *
 * Implemented in ledger.service.ts. Each posting is one spec `Transaction`: one debit account,
 * one credit account, an amount in the document currency, its exchange rate and the amount in
 * base currency. Running per-account totals are updated in the same transaction.
 */
export type ReferenceType = 'invoice' | 'expense' | 'payment' | 'manual';

export interface Posting {
  transactionDate: string; // YYYY-MM-DD
  description: string;
  notes?: string | null;
  debitAccountId: string;
  creditAccountId: string;
  /** Decimal string in the document currency, > 0. */
  amount: string;
  currencyCode: string;
  /** Document currency -> base currency, decimal string (6 decimals). */
  exchangeRate: string;
  /** Decimal string in base currency: round(amount x exchangeRate) to the base currency's decimals. */
  baseAmount: string;
  referenceType: ReferenceType;
  referenceId: string | null;
  /** Postings made by the system (invoices, expenses) are locked (A8). */
  locked: boolean;
  createdBy: string | null;
}

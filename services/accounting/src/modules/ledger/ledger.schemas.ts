import { type TSchema, Type } from 'typebox';
import { listQuery } from '../../lib/pagination.js';
import { CurrencyCodeInput, IsoDate, literalUnion, Uuid } from '../../lib/schemas.js';

export const REFERENCE_TYPES = ['invoice', 'expense', 'payment', 'manual'] as const;
export const TRANSACTION_SORTS = ['transactionDate', 'createdAt', 'amount', 'baseAmount'] as const;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Transaction = Type.Object({
  id: Type.String(),
  transactionDate: Type.String(),
  description: Type.String(),
  notes: Nullable(Type.String()),
  debitAccountId: Type.String(),
  debitAccountCode: Type.String(),
  debitAccountName: Type.String(),
  creditAccountId: Type.String(),
  creditAccountCode: Type.String(),
  creditAccountName: Type.String(),
  amount: Type.String(),
  currencyCode: Type.String(),
  exchangeRate: Type.String(),
  baseAmount: Type.String(),
  referenceType: Nullable(literalUnion(REFERENCE_TYPES)),
  referenceId: Nullable(Type.String()),
  /**
   * The manual journal entry the posting belongs to (GET /transactions/entries/:entryId): a
   * several-line entry's id, or a lone manual posting's own; null for a document's postings.
   */
  entryId: Nullable(Type.String()),
  reversalOf: Nullable(Type.String()),
  locked: Type.Boolean(),
  reconciled: Type.Boolean(),
  reconciledAt: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const TransactionsQuery = listQuery(TRANSACTION_SORTS, {
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
  accountId: Type.Optional(Uuid),
  referenceType: Type.Optional(literalUnion(REFERENCE_TYPES)),
  referenceId: Type.Optional(
    Type.String({ format: 'uuid', description: 'the document the postings belong to (an invoice, an expense)' }),
  ),
  entryId: Type.Optional(Uuid),
});

export const ManualEntryBody = Type.Object({
  transactionDate: IsoDate,
  description: Type.String({ minLength: 1, maxLength: 500 }),
  debitAccountId: Uuid,
  creditAccountId: Uuid,
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 999_999_999_999 }),
  currencyCode: Type.Optional(CurrencyCodeInput),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});

export const ReverseBody = Type.Object({ transactionDate: Type.Optional(IsoDate) });

const LineAmount = Type.Number({ minimum: 0, maximum: 999_999_999_999 });

export const JournalLine = Type.Object({
  accountId: Uuid,
  debit: Type.Optional(LineAmount),
  credit: Type.Optional(LineAmount),
});

/**
 * A manual journal entry of several lines (extension): each line an account with an amount on one
 * side; the debits equal the credits. Posted as the A8 postings (one debit and one credit account
 * each) that settle the debits against the credits in line order, all in one database transaction.
 */
export const JournalEntryBody = Type.Object({
  transactionDate: IsoDate,
  description: Type.String({ minLength: 1, maxLength: 500 }),
  currencyCode: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$' })),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  lines: Type.Array(JournalLine, { minItems: 2, maxItems: 100 }),
});

/** A journal entry's postings: as created (201), as read (with their reversals) or the reversals made. */
export const JournalEntryPostings = Type.Object({ entryId: Type.String(), data: Type.Array(Transaction) });

import { type Static, Type } from 'typebox';
import { listQuery, PageMeta } from '../../lib/pagination.js';
import { CurrencyCodeInput, IsoDate, Uuid } from '../../lib/schemas.js';
import { Transaction } from '../ledger/ledger.schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Text = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

export const BankAccount = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  accountCode: Type.String(),
  bankName: Type.String(),
  accountNumber: Nullable(Type.String()),
  iban: Nullable(Type.String()),
  currencyCode: Type.String(),
  currentBalance: Type.String(),
  isActive: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const BankAccountList = Type.Object({ data: Type.Array(BankAccount) });

// currentBalance: finiteness and decimals are checked by the service (G14, A3).
export const CreateBankAccountBody = Type.Object({
  accountId: Uuid,
  bankName: Type.String({ minLength: 1, maxLength: 200 }),
  accountNumber: Text(64),
  iban: Text(34),
  currencyCode: CurrencyCodeInput,
  currentBalance: Type.Optional(Type.Number()),
});
export type CreateBankAccountBody = Static<typeof CreateBankAccountBody>;

export const BANK_TRANSACTION_SORTS = ['transactionDate', 'amount', 'createdAt'] as const;
export type BankTransactionSort = (typeof BANK_TRANSACTION_SORTS)[number];

export const BankTransactionsQuery = listQuery(BANK_TRANSACTION_SORTS, {
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
  reconciled: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
});
export type BankTransactionsQuery = Static<typeof BankTransactionsQuery>;

export const BankTransaction = Type.Object({
  id: Type.String(),
  transactionDate: Type.String(),
  amount: Type.String(),
  description: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  reconciled: Type.Boolean(),
  matchedTransactionId: Nullable(Type.String()),
  reconciledAt: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const Suggestion = Type.Object({ bankTxId: Type.String(), glTxId: Type.String(), score: Type.Integer() });

export const BankTransactionList = Type.Object({
  data: Type.Array(BankTransaction),
  meta: PageMeta,
  suggestions: Type.Array(Suggestion),
});

export const ImportResult = Type.Object({
  imported: Type.Integer(),
  duplicates: Type.Integer(),
  errors: Type.Array(Type.Object({ line: Type.Integer(), error: Type.String() })),
});

export const ReconcileBody = Type.Object({
  bankTransactionId: Uuid,
  transactionId: Type.Optional(
    Type.String({ format: 'uuid', description: 'The ledger posting to match the line with.' }),
  ),
  invoiceId: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        "Instead of a posting: the invoice this line (money in) pays. The invoice is marked paid on the line's date from this bank account and its payment posting matched, in one transaction.",
    }),
  ),
  expenseId: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        "Instead of a posting: the approved expense this line (money out) pays (owner or admin). The expense is marked paid on the line's date from this bank account and its payment posting matched, in one transaction.",
    }),
  ),
  entry: Type.Optional(
    Type.Object(
      {
        accountId: Uuid,
        description: Type.String({ minLength: 1, maxLength: 500 }),
      },
      {
        description:
          "Instead of a posting: a new manual posting of the line's amount, date and bank account's currency between the bank's ledger account and accountId (money in debits the bank, money out credits it), matched at once, in one transaction.",
      },
    ),
  ),
});
export type ReconcileBody = Static<typeof ReconcileBody>;

export const ReconcileResult = Type.Object({
  bankTransaction: BankTransaction,
  transaction: Transaction,
  confidence: Type.Integer(),
});

export const UnreconcileBody = Type.Object({ bankTransactionId: Uuid });
export type UnreconcileBody = Static<typeof UnreconcileBody>;

export const UnreconcileResult = Type.Object({
  bankTransaction: BankTransaction,
  transaction: Transaction,
});

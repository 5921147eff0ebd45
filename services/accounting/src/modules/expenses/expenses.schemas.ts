import { type Static, Type } from 'typebox';
import { listQuery, Paginated } from '../../lib/pagination.js';
import { CurrencyCodeInput, IsoDate, literalUnion, Uuid } from '../../lib/schemas.js';

export const EXPENSE_STATUSES = ['pending', 'approved', 'paid', 'rejected'] as const;
export const EXPENSE_SORTS = ['expenseDate', 'expenseNumber', 'amount', 'category', 'status', 'createdAt'] as const;
export type ExpenseSort = (typeof EXPENSE_SORTS)[number];

const Text = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);

// amount and taxAmount: finiteness, sign and decimals are checked by the service (G14, A3).
const fields = {
  vendorId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  expenseDate: IsoDate,
  category: Type.String({ minLength: 1, maxLength: 100 }),
  amount: Type.Number(),
  currencyCode: Type.Optional(CurrencyCodeInput),
  taxAmount: Type.Optional(Type.Number()),
  paymentMethod: Type.Optional(Text(50)),
  accountId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  description: Type.Optional(Text(2000)),
  // Documents the multipart file part (a JSON body carries no file: an empty string at most).
  receiptFile: Type.Optional(
    Type.Unsafe<string>({
      type: 'string',
      format: 'binary',
      maxLength: 0,
      description: 'multipart only: the receipt, a PDF, PNG or JPEG file of at most 10 MB',
    }),
  ),
};

/** POST /expenses as JSON; the multipart form carries the same fields as text plus receiptFile. */
export const CreateExpenseBody = Type.Object(fields);
export type CreateExpenseBody = Static<typeof CreateExpenseBody>;

/** PUT /expenses/:id: the same fields, each optional; the ones given replace the stored values. */
export const UpdateExpenseBody = Type.Partial(Type.Object(fields));
export type UpdateExpenseBody = Static<typeof UpdateExpenseBody>;

export const RejectBody = Type.Object({ reason: Type.Optional(Text(1000)) });
export type RejectBody = Static<typeof RejectBody>;

export const PayBody = Type.Object({
  paidAt: IsoDate,
  bankAccountId: Type.Optional(Type.Union([Uuid, Type.Null()])),
});
export type PayBody = Static<typeof PayBody>;

export const ExpensesQuery = listQuery(EXPENSE_SORTS, {
  status: Type.Optional(literalUnion(EXPENSE_STATUSES)),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  vendorId: Type.Optional(Uuid),
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
});
export type ExpensesQuery = Static<typeof ExpensesQuery>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const ExpenseSummary = Type.Object({
  id: Type.String(),
  expenseNumber: Type.String(),
  vendorId: Nullable(Type.String()),
  vendorName: Nullable(Type.String()),
  expenseDate: Type.String(),
  category: Type.String(),
  amount: Type.String(),
  currencyCode: Type.String(),
  status: literalUnion(EXPENSE_STATUSES),
  receiptUrl: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const Expense = Type.Object({
  ...ExpenseSummary.properties,
  exchangeRate: Type.String(),
  baseAmount: Type.String(),
  taxAmount: Type.String(),
  paymentMethod: Nullable(Type.String()),
  accountId: Nullable(Type.String()),
  description: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  updatedAt: Type.String(),
  approvedBy: Nullable(Type.String()),
  approvedAt: Nullable(Type.String()),
  rejectedAt: Nullable(Type.String()),
  rejectionReason: Nullable(Type.String()),
  paidAt: Nullable(Type.String()),
  paidBankAccountId: Nullable(Type.String()),
});

export const ExpenseList = Paginated(ExpenseSummary);

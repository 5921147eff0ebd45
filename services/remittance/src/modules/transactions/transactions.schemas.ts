import { Type } from 'typebox';
import { PageQuery, Pagination } from '../../schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
export const TX_TYPES = ['remittance', 'qr_payment'] as const;
export const TX_STATUSES = ['initiating', 'processing', 'completed', 'failed'] as const;
const TxType = Type.Enum(TX_TYPES);
export const TxStatus = Type.Enum(TX_STATUSES, {
  description: 'initiating (waiting for the bank), processing, completed or failed',
});

export const TransactionIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const TransactionListQuery = Type.Object({
  ...PageQuery(50).properties,
  type: Type.Optional(TxType),
  status: Type.Optional(TxStatus),
});

export const TransactionListResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      type: TxType,
      status: TxStatus,
      amount: Type.Number({ description: 'negated: money going out' }),
      currency: Type.String(),
      recipientName: Type.String(),
      createdAt: Type.String(),
    }),
  ),
  pagination: Pagination,
});

export const TransactionDetailResponse = Type.Object({
  data: Type.Object({
    id: Type.String(),
    type: TxType,
    status: TxStatus,
    sendAmount: Type.Number(),
    sendCurrency: Type.String(),
    receiveAmount: Type.Number(),
    receiveCurrency: Type.String(),
    exchangeRate: Type.Number(),
    fee: Type.Number(),
    total: Type.Number({ description: 'sendAmount + fee' }),
    recipientName: Type.String(),
    recipientCountry: Nullable(Type.String()),
    createdAt: Type.String(),
    completedAt: Nullable(Type.String()),
  }),
});

const Figures = Type.Object({
  totalCount: Type.Integer(),
  totalSent: Type.Number({ description: 'remittance amounts' }),
  totalPaid: Type.Number({ description: 'QR payment amounts' }),
  remittanceCount: Type.Integer(),
  qrPaymentCount: Type.Integer(),
});

export const SummaryResponse = Type.Object({
  data: Type.Object({ allTime: Figures, thisMonth: Figures }),
});

export const ReceiptResponse = Type.Object({
  data: Type.Object({
    transactionId: Type.String(),
    date: Type.String(),
    type: TxType,
    amount: Type.Number(),
    currency: Type.String(),
    fee: Type.Number(),
    exchangeRate: Type.Number(),
    receiveAmount: Type.Number(),
    receiveCurrency: Type.String(),
    recipient: Type.Object({ name: Type.String(), countryCode: Nullable(Type.String()) }),
    reference: Type.String(),
    status: TxStatus,
    estimatedCompletion: Nullable(Type.String()),
    completedAt: Nullable(Type.String()),
  }),
});

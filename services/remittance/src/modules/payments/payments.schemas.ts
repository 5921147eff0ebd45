import { Type } from 'typebox';
import { TxStatus } from '../transactions/transactions.schemas.js';

const Amount = (description: string) => Type.Number({ description });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'same key and body within 24 h: the first response again, never a second debit; another body: 422 idempotency_mismatch',
    }),
  ),
});

export const RemittanceBody = Type.Object({
  recipientId: Type.String({ maxLength: 64 }),
  amount: Amount('100 to 50000 NOK, at most 2 decimals'),
  currency: Type.Optional(Type.String({ maxLength: 3, description: 'send currency; only NOK' })),
  bankAccountId: Type.Optional(Type.String({ maxLength: 64, description: 'default: the primary account' })),
});

export const QrPaymentBody = Type.Object({
  merchantId: Type.String({ maxLength: 64 }),
  amount: Amount('1 to 100000 NOK, at most 2 decimals'),
});

export const DisclosureBody = Type.Object({
  type: Type.Union([Type.Literal('remittance'), Type.Literal('qr_payment')]),
  amount: Amount('positive'),
  currency: Type.Optional(Type.String({ maxLength: 3 })),
  recipientId: Type.Optional(Type.String({ maxLength: 64, description: 'required for a remittance' })),
});

export const RemittanceResponse = Type.Object({
  data: Type.Object({
    id: Type.String(),
    type: Type.Literal('remittance'),
    status: TxStatus,
    sendAmount: Type.Number(),
    sendCurrency: Type.String(),
    receiveAmount: Type.Number(),
    receiveCurrency: Type.String(),
    exchangeRate: Type.Number(),
    fee: Type.Number(),
    feePercent: Type.Number(),
    total: Type.Number(),
    recipientName: Type.String(),
    recipientCountry: Type.String(),
    fromAccount: Type.String(),
    eta: Type.String(),
    createdAt: Type.String(),
    authorizationUrl: Type.Optional(
      Type.String({
        description:
          "the bank's page where the user authorizes the payment (status initiating); the bank sends the user back to GET /api/payments/callback",
      }),
    ),
  }),
});

export const QrPaymentResponse = Type.Object({
  data: Type.Object({
    id: Type.String(),
    type: Type.Literal('qr_payment'),
    status: TxStatus,
    amount: Type.Number(),
    currency: Type.String(),
    fee: Type.Number(),
    feePercent: Type.Number(),
    merchantName: Type.String(),
    merchantId: Type.String(),
    fromAccount: Type.String(),
    createdAt: Type.String(),
    authorizationUrl: Type.Optional(
      Type.String({
        description:
          "the bank's page where the user authorizes the payment (status initiating); the bank sends the user back to GET /api/payments/callback",
      }),
    ),
  }),
});

export const DisclosureResponse = Type.Object({
  amount: Type.Number(),
  fee: Type.Number(),
  feePercentage: Type.Number(),
  exchangeRate: Type.Number(),
  receiveAmount: Type.Number(),
  receiveCurrency: Type.String(),
  estimatedDelivery: Type.String(),
  totalCost: Type.Number(),
});

export const PaymentCallbackQuery = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});

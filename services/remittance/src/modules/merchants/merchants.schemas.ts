import { Type } from 'typebox';
import { PageQuery, Pagination } from '../../schemas.js';
import { TxStatus } from '../transactions/transactions.schemas.js';

export const RegisterMerchantBody = Type.Object({
  businessName: Type.String({ maxLength: 500, description: 'cut to 200 characters' }),
  orgNumber: Type.String({ maxLength: 20, description: '9 digits with the mod-11 check digit' }),
  address: Type.Optional(Type.String({ maxLength: 1000, description: 'cut to 300 characters' })),
  bankAccount: Type.String({ maxLength: 64, description: 'payout account: Norwegian account number or NO IBAN' }),
});

const MerchantQr = {
  merchantId: Type.String(),
  businessName: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  qrValue: Type.String({ description: 'app://pay/<merchantId>' }),
};

export const RegisterMerchantResponse = Type.Object({ data: Type.Object({ ...MerchantQr, orgNumber: Type.String() }) });
export const MerchantQrResponse = Type.Object({ data: Type.Object(MerchantQr) });

export const PayeeParams = Type.Object({
  merchantId: Type.String({ maxLength: 64, description: 'the id in a QR value app://pay/<merchantId>' }),
});
export const PayeeResponse = Type.Object({
  data: Type.Object({
    merchantId: Type.String(),
    businessName: Type.String(),
    own: Type.Boolean({ description: "the caller's own merchant, which the caller cannot pay (422 on payment)" }),
  }),
});

export const DashboardQuery = Type.Object({
  period: Type.Optional(
    Type.Union([Type.Literal('today'), Type.Literal('week'), Type.Literal('month')], { default: 'today' }),
  ),
});

export const DashboardResponse = Type.Object({
  data: Type.Object({
    period: Type.String(),
    revenue: Type.Number({ description: 'completed QR payment amounts in the period (Europe/Oslo)' }),
    transactionCount: Type.Integer(),
    fees: Type.Number({ description: 'fees the payers paid on them' }),
    netRevenue: Type.Number({ description: 'equals revenue: the merchant receives the full amount' }),
    nextPayout: Type.Number({ description: 'revenue since the last 15:00 Oslo cut-off' }),
    payoutTime: Type.String({ description: 'the next 15:00 Oslo cut-off' }),
  }),
});

export const MerchantPaymentsQuery = PageQuery(50);
export const MerchantPaymentsResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      status: TxStatus,
      amount: Type.Number(),
      currency: Type.String(),
      customerName: Type.String({ description: 'first name and last initial' }),
      createdAt: Type.String(),
    }),
  ),
  pagination: Pagination,
});

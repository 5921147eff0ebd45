import { Type } from 'typebox';

export const RatesResponse = Type.Object({
  data: Type.Object({
    baseCurrency: Type.Literal('NOK'),
    rates: Type.Record(Type.String(), Type.Number(), { description: 'units of the currency per 1 NOK' }),
    updatedAt: Type.Union([Type.String(), Type.Null()]),
    stale: Type.Boolean({ description: 'true when a rate is older than 24 h' }),
  }),
});

export const RateParams = Type.Object({ currency: Type.String({ pattern: '^[A-Za-z]{3}$' }) });

export const RateResponse = Type.Object({
  data: Type.Object({
    baseCurrency: Type.Literal('NOK'),
    currency: Type.String(),
    rate: Type.Number(),
    fee: Type.Number({ description: 'remittance fee fraction (0.005 = 0.5%)' }),
    updatedAt: Type.String(),
    stale: Type.Boolean(),
  }),
});

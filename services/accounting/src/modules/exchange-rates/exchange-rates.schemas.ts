import { Type } from 'typebox';
import { CurrencyCodeInput, IsoDate, literalUnion } from '../../lib/schemas.js';

/** Who gave a rate: a central bank's feed, a third-party feed, or a person (POST /exchange-rates). */
export const RATE_SOURCES = ['nbs', 'ecb', 'cbbh', 'hnb', 'third-party', 'manual'] as const;

const CurrencyCode = CurrencyCodeInput;

export const ExchangeRate = Type.Object({
  baseCurrency: Type.String(),
  targetCurrency: Type.String(),
  rate: Type.String({ description: '1 baseCurrency = rate targetCurrency, 6 decimals' }),
  effectiveDate: Type.String(),
  source: literalUnion(RATE_SOURCES),
  lastUpdated: Type.String(),
});

export const RateQuery = Type.Object({
  base: CurrencyCode,
  target: CurrencyCode,
  date: Type.Optional(IsoDate),
});

export const ManualRateBody = Type.Object({
  baseCurrency: CurrencyCode,
  targetCurrency: CurrencyCode,
  rate: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000 }),
  effectiveDate: IsoDate,
});

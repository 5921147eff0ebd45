import { Type } from 'typebox';
import { COUNTRIES, literalUnion } from '../../lib/schemas.js';

export const TaxRate = Type.Object({ name: Type.String(), rate: Type.Number(), description: Type.String() });

export const TaxRates = Type.Object({
  country: literalUnion(COUNTRIES),
  defaultVATRate: Type.Number({ description: 'percent' }),
  rates: Type.Array(TaxRate),
});

// Ranges are checked in the service so that every out-of-range rate answers SVC-8006.
export const UpdateTaxRatesBody = Type.Object({
  defaultVATRate: Type.Number(),
  rates: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 50 }),
      rate: Type.Number(),
      description: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    { minItems: 1, maxItems: 20 },
  ),
});

import { type TSchemaOptions, Type } from 'typebox';
import { LANGUAGES } from './catalog.js';

export const Uuid = Type.String({ format: 'uuid' });
export const IdParams = Type.Object({ id: Uuid });
export const IsoDate = Type.String({ format: 'date' });
/** An ISO 4217 code in a request: either case, stored and answered upper-case (docs/decisions.md). */
export const CurrencyCodeInput = Type.String({
  pattern: '^[A-Za-z]{3}$',
  description: 'ISO 4217 code, either case (answered upper-case)',
});

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
      requestId: Type.Optional(Type.String()),
    }),
  },
  { description: 'Catalog error (A1)' },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<number, typeof ErrorBody>;

export const BASE_CURRENCIES = ['EUR', 'RSD', 'BAM', 'HRK'] as const;
export const COUNTRIES = ['RS', 'BA', 'HR'] as const;
export const ORG_LANGUAGES = ['sr', 'bs', 'hr'] as const;
export { LANGUAGES };

/**
 * A fixed list of strings as an OpenAPI `enum` (request and response fields alike). A response field
 * whose column has a CHECK (... IN (...)) list uses the same values: test/openapi-enums.test.ts.
 */
export const literalUnion = <const T extends string[]>(values: readonly [...T], options?: TSchemaOptions) =>
  Type.Enum<T>(values, options);

import { Type } from 'typebox';
import { BASE_CURRENCIES, COUNTRIES, IsoDate, LANGUAGES, literalUnion, ORG_LANGUAGES } from '../../lib/schemas.js';

const Nullable = (s: ReturnType<typeof Type.String>) => Type.Optional(Type.Union([s, Type.Null()]));

/** E1: the seller's address and default payment account, accepted by register and PUT /organization. */
export const ORGANIZATION_ADDRESS = {
  addressLine1: Nullable(Type.String({ maxLength: 200 })),
  city: Nullable(Type.String({ maxLength: 100 })),
  postalCode: Nullable(Type.String({ maxLength: 20 })),
  iban: Nullable(
    Type.String({
      maxLength: 42,
      description: 'IBAN, or the 18-digit Serbian account number (spaces and hyphens ignored)',
    }),
  ),
};

export const Organization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  registrationNumber: Type.Union([Type.String(), Type.Null()]),
  vatNumber: Type.Union([Type.String(), Type.Null()]),
  addressLine1: Type.Union([Type.String(), Type.Null()]),
  city: Type.Union([Type.String(), Type.Null()]),
  postalCode: Type.Union([Type.String(), Type.Null()]),
  iban: Type.Union([Type.String(), Type.Null()]),
  baseCurrency: Type.String(),
  country: literalUnion(COUNTRIES),
  language: literalUnion(LANGUAGES),
  fiscalYearStart: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const UpdateOrganizationBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  registrationNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  vatNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  ...ORGANIZATION_ADDRESS,
  baseCurrency: Type.Optional(literalUnion(BASE_CURRENCIES)),
  language: Type.Optional(literalUnion(ORG_LANGUAGES)),
  fiscalYearStart: Type.Optional(IsoDate),
});

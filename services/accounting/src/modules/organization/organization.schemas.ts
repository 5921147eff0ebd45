import { Type } from 'typebox';
import { BASE_CURRENCIES, IsoDate, ORG_LANGUAGES, literalUnion } from '../../lib/schemas.js';

export const Organization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  registrationNumber: Type.Union([Type.String(), Type.Null()]),
  vatNumber: Type.Union([Type.String(), Type.Null()]),
  baseCurrency: Type.String(),
  country: Type.String(),
  language: Type.String(),
  fiscalYearStart: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const UpdateOrganizationBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  registrationNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  vatNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  baseCurrency: Type.Optional(literalUnion(BASE_CURRENCIES)),
  language: Type.Optional(literalUnion(ORG_LANGUAGES)),
  fiscalYearStart: Type.Optional(IsoDate),
});

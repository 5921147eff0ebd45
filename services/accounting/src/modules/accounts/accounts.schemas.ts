import { Type } from 'typebox';
import { CurrencyCodeInput, literalUnion, Uuid } from '../../lib/schemas.js';

export const Account = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  accountTypeId: Type.Integer(),
  accountTypeName: Type.String(),
  normalBalance: literalUnion(['debit', 'credit']),
  currencyCode: Type.String(),
  parentAccountId: Type.Union([Type.String(), Type.Null()]),
  parentAccountCode: Type.Union([Type.String(), Type.Null()]),
  isActive: Type.Boolean(),
  currentBalance: Type.String({ description: 'base currency, on the normal side (A9)' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const AccountsQuery = Type.Object({
  // The range is checked in the service: outside 1-5 answers SVC-8003.
  accountTypeId: Type.Optional(Type.Integer()),
  isActive: Type.Optional(Type.Boolean()),
});

export const CreateAccountBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9A-Za-z][0-9A-Za-z.-]*$' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  accountTypeId: Type.Integer({ minimum: 1, maximum: 5 }),
  currencyCode: Type.Optional(CurrencyCodeInput),
  parentAccountId: Type.Optional(Type.Union([Uuid, Type.Null()])),
});

export const UpdateAccountBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  isActive: Type.Optional(Type.Boolean()),
  parentAccountId: Type.Optional(
    Type.Union([Uuid, Type.Null()], {
      description:
        'move the account under another of its type (null: to the top); not under itself or its own sub-accounts',
    }),
  ),
});

export const ACCOUNT_FIELD_CODES = { accountTypeId: 'SVC-8003' } as const;

import { Type } from 'typebox';

export const UserBody = Type.Object({
  id: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  firstName: Type.String(),
  lastName: Type.String(),
  dateOfBirth: Type.Union([Type.String(), Type.Null()]),
  kycStatus: Type.String(),
  role: Type.String(),
  createdAt: Type.String(),
});

export const BankAccountBody = Type.Object({
  id: Type.String(),
  bankName: Type.String(),
  accountNumber: Type.String(),
  balance: Type.Number(),
  currency: Type.String(),
  isPrimary: Type.Boolean(),
});

export const MeResponse = Type.Object({
  data: Type.Object({
    id: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    firstName: Type.String(),
    lastName: Type.String(),
    role: Type.String(),
    totalBalance: Type.Number(),
    bankAccounts: Type.Array(BankAccountBody),
    kycStatus: Type.String(),
    createdAt: Type.String(),
  }),
});

export const RefreshResponse = Type.Object({
  data: Type.Object({
    userId: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    role: Type.String(),
    token: Type.Optional(
      Type.String({ description: 'the new token (standalone API only; the web surface resets the cookie)' }),
    ),
  }),
});

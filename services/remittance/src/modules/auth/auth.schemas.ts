import { Type } from 'typebox';

/** users.role: a merchant is a user who registered a business (POST /merchants/register). */
export const USER_ROLES = ['user', 'merchant'] as const;
const Role = Type.Enum(USER_ROLES);

export const UserBody = Type.Object({
  id: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  firstName: Type.String(),
  lastName: Type.String(),
  dateOfBirth: Type.Union([Type.String(), Type.Null()]),
  kycStatus: Type.String(),
  role: Role,
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
    role: Role,
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
    role: Role,
    token: Type.Optional(
      Type.String({ description: 'the new token (standalone API only; the web surface resets the cookie)' }),
    ),
  }),
});

import { Type } from 'typebox';
import { ROLES } from '../../lib/jwt.js';
import { BASE_CURRENCIES, COUNTRIES, LANGUAGES, literalUnion, ORG_LANGUAGES } from '../../lib/schemas.js';
import { ORGANIZATION_ADDRESS } from '../organization/organization.schemas.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 1, maxLength: 128 });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Code = Type.String({ pattern: '^[0-9]{6}$' });

export const RegisterBody = Type.Object({
  organizationName: Name,
  country: literalUnion(COUNTRIES),
  baseCurrency: literalUnion(BASE_CURRENCIES),
  language: literalUnion(ORG_LANGUAGES),
  registrationNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  vatNumber: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  ...ORGANIZATION_ADDRESS,
  email: Email,
  password: Password,
  fullName: Name,
});

export const LoginBody = Type.Object({
  email: Email,
  password: Password,
  rememberMe: Type.Optional(Type.Boolean()),
  code: Type.Optional(Code),
});

export const VerifyTwoFactorBody = Type.Object({
  email: Email,
  password: Password,
  code: Code,
  rememberMe: Type.Optional(Type.Boolean()),
});

export const CodeBody = Type.Object({ code: Code });

export const PasswordBody = Type.Object({ currentPassword: Password, newPassword: Password });

export const AcceptInviteBody = Type.Object({
  token: Type.String({ minLength: 10, maxLength: 200 }),
  password: Password,
});

const Role = literalUnion(ROLES);

export const LoginUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  fullName: Type.String(),
  role: Role,
  organizationId: Type.String(),
  organizationName: Type.String(),
});

export const LoginResponse = Type.Object({
  user: LoginUser,
  tokens: Type.Object({ accessToken: Type.String(), expiresIn: Type.Integer() }),
});

export const RegisterResponse = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), fullName: Type.String(), role: Role }),
  organization: Type.Object({
    id: Type.String(),
    name: Type.String(),
    country: literalUnion(COUNTRIES),
    baseCurrency: Type.String(),
  }),
  tokens: Type.Object({ accessToken: Type.String(), refreshToken: Type.String(), expiresIn: Type.Integer() }),
});

export const MeResponse = Type.Object({
  id: Type.String(),
  email: Type.String(),
  fullName: Type.String(),
  role: Role,
  twoFactorEnabled: Type.Boolean(),
  lastLoginAt: Type.Union([Type.String(), Type.Null()]),
  operatorOib: Type.Union([Type.String(), Type.Null()], {
    description: 'HR: the OIB of this user as invoice operator (CIUS-HR HR-BT-5)',
  }),
  organization: Type.Object({
    id: Type.String(),
    name: Type.String(),
    country: literalUnion(COUNTRIES),
    baseCurrency: Type.String(),
    language: literalUnion(LANGUAGES),
  }),
});

/** PUT /auth/me (E1): the caller's own name and, for Croatian e-invoices, operator OIB. */
export const UpdateMeBody = Type.Object({
  fullName: Type.Optional(Name),
  operatorOib: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
});

import { Type } from 'typebox';
import { INVITABLE_ROLES, ROLES } from '../../lib/jwt.js';
import { literalUnion } from '../../lib/schemas.js';

export const InvitableRole = literalUnion(INVITABLE_ROLES);
export const AnyRole = literalUnion(ROLES);

export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  fullName: Type.String(),
  role: AnyRole,
  twoFactorEnabled: Type.Boolean(),
  lastLoginAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const UsersQuery = Type.Object({ role: Type.Optional(AnyRole) });

export const InviteBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  fullName: Type.String({ minLength: 1, maxLength: 200 }),
  role: InvitableRole,
});

export const InviteResponse = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), fullName: Type.String(), role: AnyRole }),
  inviteLink: Type.String(),
  expiresAt: Type.String(),
});

export const RoleBody = Type.Object({ role: InvitableRole });

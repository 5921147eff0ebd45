import type { User } from '../../db/types.js';

export function toUserBody(user: User) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    dateOfBirth: user.date_of_birth,
    kycStatus: user.kyc_status,
    role: user.role,
    createdAt: user.created_at.toISOString(),
  };
}

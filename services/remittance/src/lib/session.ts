/**
 * A signed-in caller's session as the authentication hook keeps it for the request (plugins/authenticate.ts) and
 * the session look-ups read it (modules/auth/sessions.repository.ts).
 */
import type { Role, Surface } from './tokens.js';

export interface LiveSession {
  sessionId: string;
  /** The login (eID sign-in) this session continues; '' when only the token was checked. */
  loginId: string;
  /** When that eID sign-in happened, in milliseconds since the epoch (0: not loaded). */
  authAt: number;
  userId: string;
  email: string | null;
  role: Role;
  /** Loaded with the session for routes that show the user (GET /auth/me). */
  profile?: SessionProfile;
}

/**
 * What a route that checks its session inside its own transaction checks it with: the token's
 * hash and surface (the same conditions as SESSION_SQL: not revoked, not expired, user not
 * erased), read as the user under row-level security.
 */
export interface SessionProof {
  tokenHash: string;
  surface: Surface;
}

/** GET /auth/me's `data`, in its response schema's shape (MeResponse). */
export interface SessionProfile {
  id: string;
  email: string | null;
  firstName: string;
  lastName: string;
  role: 'user' | 'merchant';
  totalBalance: number;
  /** Primary first, then by linking time. */
  bankAccounts: Array<{
    id: string;
    bankName: string;
    accountNumber: string;
    balance: number;
    currency: string;
    isPrimary: boolean;
  }>;
  kycStatus: string;
  /** ISO 8601, UTC, milliseconds (as Date#toISOString writes it). */
  createdAt: string;
}

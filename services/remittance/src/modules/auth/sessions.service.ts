import { deepFreeze } from '@app/shared/config';
import type { Database } from '@app/shared/db/database';
import { NotifiedCache } from '@app/shared/notified-cache';
import { newId, sha256Hex } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { UserScope } from '../../db/user-scope.js';
import { unauthorized } from '../../errors.js';
import type { Surface, TokenClaims, TokenService } from '../../lib/tokens.js';
import {
  findLiveSession,
  findLiveSessionWithProfile,
  insertSession,
  type LiveSession,
  revokeAllSessions,
  revokeSession,
  type SessionProof,
} from './sessions.repository.js';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface IssuedSession {
  token: string;
  expiresAt: Date;
  sessionId: string;
}

/** The sessions this instance has checked, by surface, profile and token (see NotifiedCache). */
export type SessionCache = NotifiedCache<{ session: LiveSession; expiresAtMs: number }>;

/** The cache's notification channel; migration 20261127000100 sends on it. */
export const SESSION_CHANNEL = 'session_cache';

/**
 * A kept GET /auth/me profile is served for at most this long: balance changes are not notified
 * (migration 20261127000100 says why), so a balance moved by another instance or a job shows
 * within 5 s; this instance's payments drop their payer's profile when they commit.
 */
export const PROFILE_MAX_AGE_MS = 5_000;

export function sessionCache(maxAgeMs: number): SessionCache {
  return new NotifiedCache({ maxEntries: 10_000, maxAgeMs });
}

/**
 * Sign-in (issue) and the per-request check (authenticate) find sessions across users, as the
 * login role: they run before any user is known. Logout and refresh act in the caller's scope.
 */
export class SessionService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: TokenService,
    /** The per-request session look-ups take the database itself (Database.query: no query building). */
    private readonly database: Database<DB>,
    /** Sessions kept between requests; a cache that never listens (SESSION_CACHE=off) serves none. */
    private readonly cache: SessionCache = sessionCache(0),
  ) {}

  /** Signs a JWT for the surface and records its SHA-256 as a session (spec Authentication 7). */
  async issue(
    claims: TokenClaims,
    surface: Surface,
    client: ClientInfo,
    db: Kysely<DB> = this.db,
  ): Promise<IssuedSession> {
    const { token, expiresAt } = await this.tokens.sign(claims, surface);
    const sessionId = newId('ses');
    await insertSession(db, {
      id: sessionId,
      userId: claims.userId,
      tokenHash: sha256Hex(token),
      surface,
      expiresAt,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
    });
    return { token, expiresAt, sessionId };
  }

  /**
   * JWT signature and claims first (no database work for forged tokens), then the session row;
   * `withProfile` loads the user's profile and accounts in the same query (GET /auth/me).
   */
  async authenticate(token: string, surface: Surface, withProfile = false): Promise<LiveSession> {
    const verified = await this.tokens.verify(token, surface);
    if (!verified.ok) throw unauthorized(verified.reason === 'expired' ? 'Token expired' : 'Invalid token');
    const key = `${surface}${withProfile ? '+' : '-'}${token}`;
    const kept = this.cache.get(key);
    if (kept && kept.expiresAtMs > Date.now()) return kept.session;
    const ticket = this.cache.ticket();
    const found = await (withProfile ? findLiveSessionWithProfile : findLiveSession)(
      this.database,
      sha256Hex(token),
      surface,
    );
    if (!found) throw unauthorized('Session revoked or expired');
    // Shared by every request of the session from now on: frozen, so no route can change it.
    const session = deepFreeze(found.session);
    const maxAge = withProfile ? PROFILE_MAX_AGE_MS : undefined;
    this.cache.set(
      key,
      { session, expiresAtMs: found.expires_ms },
      [`s:${session.sessionId}`, `u:${session.userId}`],
      ticket,
      maxAge,
    );
    return session;
  }

  /**
   * The token only (signature, expiry, surface), for a route that checks the session row itself
   * inside its own transaction (`sessionInTransaction`): the session it returns carries the
   * token's hash and surface for that check (SessionProof), and no session id.
   */
  async verifyToken(token: string, surface: Surface): Promise<LiveSession & { proof: SessionProof }> {
    const verified = await this.tokens.verify(token, surface);
    if (!verified.ok) throw unauthorized(verified.reason === 'expired' ? 'Token expired' : 'Invalid token');
    const { userId, email, role } = verified.claims;
    return { sessionId: '', userId, email, role, proof: { tokenHash: sha256Hex(token), surface } };
  }

  async logout(user: UserScope): Promise<number> {
    return user.run((db) => revokeAllSessions(db, user.userId));
  }

  /** R7: the presented session is revoked and a new token and session replace it, atomically. */
  async refresh(user: UserScope, session: LiveSession, surface: Surface, client: ClientInfo): Promise<IssuedSession> {
    return user.transaction(async (trx) => {
      const revoked = await revokeSession(trx, user.userId, session.sessionId);
      if (revoked !== 1) throw unauthorized('Session revoked or expired');
      return this.issue({ userId: session.userId, email: session.email, role: session.role }, surface, client, trx);
    });
  }
}

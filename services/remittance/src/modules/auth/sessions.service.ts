import { deepFreeze } from '@app/shared/config';
import type { Database } from '@app/shared/db/database';
import { NotifiedCache } from '@app/shared/notified-cache';
import { newId, sha256Hex } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { AppError, unauthorized } from '../../errors.js';
import type { Surface, TokenClaims, TokenService } from '../../lib/tokens.js';
import {
  findLiveSession,
  findLiveSessionWithProfile,
  findSessionByToken,
  insertSession,
  type LiveSession,
  revokeAllSessions,
  revokeLogin,
  revokeSession,
  type SessionProof,
} from './sessions.repository.js';

/** SESSION_MAX_LIFETIME, REAUTH_MAX_AGE and REFRESH_REUSE_GRACE (config.sessions). */
export interface SessionLimits {
  maxLifetimeMs: number;
  reauthMaxAgeMs: number;
  refreshGraceMs: number;
}

/** The login a new session continues: its id and when its eID sign-in happened. */
export interface LoginChain {
  loginId: string;
  authenticatedAt: Date;
}

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

export interface SessionDeps {
  db: Kysely<DB>;
  tokens: TokenService;
  /** The per-request session look-ups take the database itself (Database.query: no query building). */
  database: Database<DB>;
  /** Sessions kept between requests; a cache that never listens (SESSION_CACHE=off) serves none. */
  cache?: SessionCache;
  limits?: SessionLimits;
  onReuse?: (info: { userId: string; loginId: string; revoked: number }) => void;
}

export type SessionService = ReturnType<typeof createSessionService>;

/**
 * Sign-in (issue) and the per-request check (authenticate) find sessions across users, as the
 * login role: they run before any user is known. Logout and refresh act in the caller's scope.
 * A factory, not plain functions: it holds this instance's session cache.
 */
export function createSessionService(deps: SessionDeps) {
  const { db, tokens, database } = deps;
  const cache = deps.cache ?? sessionCache(0);
  const limits = deps.limits ?? { maxLifetimeMs: 30 * 86_400_000, reauthMaxAgeMs: 600_000, refreshGraceMs: 10_000 };
  const onReuse = deps.onReuse ?? (() => {});

  /**
   * Signs a JWT for the surface and records its SHA-256 as a session (spec Authentication 7). A
   * new eID sign-in starts a login; a refresh passes the login it continues, whose sign-in time
   * bounds the session (SESSION_MAX_LIFETIME).
   */
  async function issue(
    claims: TokenClaims,
    surface: Surface,
    client: ClientInfo,
    trx: Kysely<DB> = db,
    login: LoginChain = { loginId: newId('lgn'), authenticatedAt: new Date() },
  ): Promise<IssuedSession> {
    const loginEnds = new Date(login.authenticatedAt.getTime() + limits.maxLifetimeMs);
    const { token, expiresAt } = await tokens.sign(claims, surface, loginEnds);
    const sessionId = newId('ses');
    await insertSession(trx, {
      id: sessionId,
      userId: claims.userId,
      tokenHash: sha256Hex(token),
      surface,
      expiresAt,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      loginId: login.loginId,
      authenticatedAt: login.authenticatedAt,
    });
    return { token, expiresAt, sessionId };
  }

  /**
   * JWT signature and claims first (no database work for forged tokens), then the session row;
   * `withProfile` loads the user's profile and accounts in the same query (GET /auth/me).
   */
  async function authenticate(token: string, surface: Surface, opts?: { withProfile?: boolean }): Promise<LiveSession> {
    const withProfile = opts?.withProfile === true;
    const verified = await tokens.verify(token, surface);
    if (!verified.ok) throw unauthorized(verified.reason === 'expired' ? 'Token expired' : 'Invalid token');
    const key = `${surface}${withProfile ? '+' : '-'}${token}`;
    const kept = cache.get(key);
    if (kept && kept.expiresAtMs > Date.now()) return kept.session;
    const ticket = cache.ticket();
    const found = await (withProfile ? findLiveSessionWithProfile : findLiveSession)(
      database,
      sha256Hex(token),
      surface,
    );
    if (!found) {
      await detectReuse(token, surface);
      throw unauthorized('Session revoked or expired');
    }
    // Shared by every request of the session from now on: frozen, so no route can change it.
    const session = deepFreeze(found.session);
    const maxAge = withProfile ? PROFILE_MAX_AGE_MS : undefined;
    cache.set(
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
  async function verifyToken(token: string, surface: Surface): Promise<LiveSession & { proof: SessionProof }> {
    const verified = await tokens.verify(token, surface);
    if (!verified.ok) throw unauthorized(verified.reason === 'expired' ? 'Token expired' : 'Invalid token');
    const { userId, email, role } = verified.claims;
    return {
      sessionId: '',
      loginId: '',
      authAt: 0,
      userId,
      email,
      role,
      proof: { tokenHash: sha256Hex(token), surface },
    };
  }

  /**
   * A genuine token (its signature checked) whose session a refresh replaced is being used again:
   * either the client lost the race with its own concurrent refresh (within REFRESH_REUSE_GRACE),
   * or someone else holds a copy. Past the grace the whole login ends, the thief's sessions and
   * the owner's alike; the owner signs in again with eID.
   */
  async function detectReuse(token: string, surface: Surface): Promise<void> {
    const row = await findSessionByToken(db, sha256Hex(token), surface);
    if (row?.revoked_reason !== 'rotated' || !row.revoked_at) return;
    if (Date.now() - row.revoked_at.getTime() <= limits.refreshGraceMs) return;
    const revoked = await revokeLogin(db, row.login_id);
    onReuse({ userId: row.user_id, loginId: row.login_id, revoked });
  }

  /** Step-up: the eID sign-in behind this session is at most REAUTH_MAX_AGE old. */
  function requireRecentSignIn(session: LiveSession): void {
    if (session.authAt > 0 && Date.now() - session.authAt <= limits.reauthMaxAgeMs) return;
    const minutes = Math.round(limits.reauthMaxAgeMs / 60_000);
    throw new AppError(
      'reauthentication_required',
      `Sign in with eID again: this needs a sign-in from the last ${minutes} minutes`,
    );
  }

  async function logout(user: UserScope): Promise<number> {
    return user.run((trx) => revokeAllSessions(trx, user.userId, 'logout'));
  }

  /**
   * R7: the presented session is revoked and a new token and session replace it, atomically. The
   * new session continues the same login: it ends no later than SESSION_MAX_LIFETIME after the
   * eID sign-in, and past that a refresh is refused.
   */
  async function refresh(
    user: UserScope,
    session: LiveSession,
    surface: Surface,
    client: ClientInfo,
  ): Promise<IssuedSession> {
    const authenticatedAt = new Date(session.authAt);
    if (authenticatedAt.getTime() + limits.maxLifetimeMs <= Date.now() + 1000) {
      throw unauthorized('The sign-in has reached its maximum lifetime (SESSION_MAX_LIFETIME); sign in with eID again');
    }
    return user.transaction(async (trx) => {
      const revoked = await revokeSession(trx, user.userId, session.sessionId, 'rotated');
      if (revoked !== 1) throw unauthorized('Session revoked or expired');
      return issue({ userId: session.userId, email: session.email, role: session.role }, surface, client, trx, {
        loginId: session.loginId,
        authenticatedAt,
      });
    });
  }

  return { issue, authenticate, verifyToken, requireRecentSignIn, logout, refresh };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export async function insertAuthRequest(
  db: Kysely<DB>,
  row: {
    state: string;
    nonce: string;
    /** Web: the server's own verifier. Mobile: null, the app holds it (RFC 8252). */
    codeVerifier: string | null;
    /** Mobile: the app's S256 challenge, checked against the verifier it sends with the callback. */
    codeChallenge: string | null;
    platform: 'web' | 'mobile';
    redirectUri: string;
    startedOrigin: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('eid_auth_requests')
    .values({
      state: row.state,
      nonce: row.nonce,
      code_verifier: row.codeVerifier,
      code_challenge: row.codeChallenge,
      platform: row.platform,
      redirect_uri: row.redirectUri,
      started_origin: row.startedOrigin,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Deletes and returns the started sign-in: a state is usable once, and only before it expires. */
export async function consumeAuthRequest(db: Kysely<DB>, state: string, platform: 'web' | 'mobile') {
  return db
    .deleteFrom('eid_auth_requests')
    .where('state', '=', state)
    .where('platform', '=', platform)
    .where('expires_at', '>', new Date())
    .returningAll()
    .executeTakeFirst();
}

/** Where a live sign-in started (to explain a callback without its state cookie); nothing is consumed. */
export async function findStartedOrigin(db: Kysely<DB>, state: string): Promise<string | null> {
  const row = await db
    .selectFrom('eid_auth_requests')
    .select('started_origin')
    .where('state', '=', state)
    .where('platform', '=', 'web')
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row?.started_origin ?? null;
}

export async function insertMockCode(
  db: Kysely<DB>,
  row: {
    code: string;
    clientId: string;
    redirectUri: string;
    codeChallenge: string | null;
    nonce: string | null;
    claims: object;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('eid_mock_codes')
    .values({
      code: row.code,
      client_id: row.clientId,
      redirect_uri: row.redirectUri,
      code_challenge: row.codeChallenge,
      nonce: row.nonce,
      claims: JSON.stringify(row.claims),
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function consumeMockCode(db: Kysely<DB>, code: string) {
  return db.deleteFrom('eid_mock_codes').where('code', '=', code).returningAll().executeTakeFirst();
}

/** Housekeeping for abandoned sign-ins and unused mock codes. */
export async function deleteExpiredEidRows(db: Kysely<DB>, now: Date): Promise<void> {
  await db.deleteFrom('eid_auth_requests').where('expires_at', '<=', now).execute();
  await db.deleteFrom('eid_mock_codes').where('expires_at', '<=', now).execute();
}

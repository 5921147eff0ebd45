import { newId, safeEqual, sha256Hex } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import * as oidc from 'openid-client';
import type { Config } from '../../config.js';
import type { DB, User } from '../../db/types.js';
import { ageOn, nationalIdHash, parseNationalId } from '../../lib/national-id.js';
import type { ClientInfo, IssuedSession, SessionService } from '../auth/sessions.service.js';
import { insertNotification } from '../notifications/notifications.repository.js';
import {
  findLiveUserByNationalIdHash,
  insertUserIfAbsent,
  isEmailTaken,
  recordLogin,
} from '../users/users.repository.js';
import { consumeAuthRequest, findStartedOrigin, insertAuthRequest } from './eid.repository.js';
import type { EidClaims, EidClient } from './eid-client.js';

export type Platform = 'web' | 'mobile';

export type EidFailure = 'state_mismatch' | 'eid_provider_error' | 'invalid_national_id' | 'age_restricted';

/** A failed sign-in; the routes turn it into a /login redirect (web) or a JSON error (mobile). */
export class EidError extends Error {
  constructor(
    readonly failure: EidFailure,
    message: string,
  ) {
    super(message);
  }
}

const MIN_AGE = 18;

function claimString(claims: EidClaims, name: string, max = 100): string | null {
  const v = claims[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null;
}

function isIsoDate(v: string | null): v is string {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

export interface EidDeps {
  db: Kysely<DB>;
  config: Config;
  client: EidClient;
  sessions: Pick<SessionService, 'issue'>;
}

export type EidService = ReturnType<typeof createEidService>;

/** The eID sign-in (spec Authentication 2-4). A factory: it holds the OIDC client, which keeps the discovered issuer. */
export function createEidService(deps: EidDeps) {
  const { db, config, sessions } = deps;
  const provider = deps.client;

  function redirectUriFor(platform: Platform): string {
    return platform === 'web' ? config.eid.callbackUrl : config.eid.callbackUrlMobile;
  }

  /**
   * Spec Authentication 2 and 3, first half: state and nonce kept server-side with the PKCE
   * binding. Web: this service creates and keeps the verifier (the state cookie ties the sign-in
   * to the browser). Mobile (RFC 8252): the app created the verifier and sends only its S256
   * challenge, so a code intercepted on its way to the app is useless without the app.
   */
  async function start(
    platform: Platform,
    opts: { codeChallenge?: string; startedOrigin?: string | null } = {},
  ): Promise<{ redirectUrl: string; state: string }> {
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const redirectUri = redirectUriFor(platform);
    let codeVerifier: string | null = null;
    let codeChallenge: string;
    if (platform === 'mobile') {
      if (!opts.codeChallenge) throw new EidError('state_mismatch', 'code_challenge is required (RFC 8252)');
      codeChallenge = opts.codeChallenge;
    } else {
      codeVerifier = oidc.randomPKCECodeVerifier();
      codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
    }
    let url: URL;
    try {
      url = await provider.authorizationUrl({ redirectUri, state, nonce, codeChallenge });
    } catch (err) {
      throw new EidError('eid_provider_error', `identity provider unavailable: ${(err as Error).message}`);
    }
    await insertAuthRequest(db, {
      state,
      nonce,
      codeVerifier,
      codeChallenge: platform === 'mobile' ? codeChallenge : null,
      platform,
      redirectUri,
      startedOrigin: opts.startedOrigin ?? null,
      expiresAt: new Date(Date.now() + config.eid.flowTtlMs),
    });
    return { redirectUrl: url.toString(), state };
  }

  /**
   * Why a web callback's state cookie did not come back, in words a newcomer can act on (issue
   * 25 item 5): most often the sign-in started on another host than EID_CALLBACK_URL's.
   */
  async function explainMissingCookie(state: string): Promise<string> {
    const callbackOrigin = new URL(config.eid.callbackUrl).origin;
    const startedOrigin = await findStartedOrigin(db, state);
    if (startedOrigin && startedOrigin !== callbackOrigin) {
      return (
        `the sign-in started on ${startedOrigin} but the identity provider returned to ${callbackOrigin} ` +
        `(EID_CALLBACK_URL), and a browser sends the state cookie only to the host that set it: open the app at ` +
        `${callbackOrigin}, or set REMITTANCE_PUBLIC_URL to the address you use`
      );
    }
    return (
      'no eid_state cookie came back: cookies are blocked, or the sign-in was started in another browser ' +
      `or more than ${Math.round(config.eid.flowTtlMs / 60_000)} minutes ago (EID_FLOW_TTL)`
    );
  }

  /**
   * Second half: the state must match what this browser started (web: the eid_state cookie) and
   * be unused; the code is exchanged, the ID token verified, the national id checked, the user
   * found or created and a session issued.
   */
  async function complete(
    input: {
      platform: Platform;
      code: string;
      state: string;
      iss?: string;
      expectedState?: string | null;
      /** Mobile: the verifier of the code_challenge the app sent at initiate. */
      codeVerifier?: string;
    },
    client: ClientInfo,
  ): Promise<{ session: IssuedSession; user: User; created: boolean }> {
    if (input.platform === 'web' && !input.expectedState) {
      throw new EidError('state_mismatch', await explainMissingCookie(input.state));
    }
    if (input.platform === 'web' && input.expectedState !== input.state) {
      throw new EidError('state_mismatch', 'the state does not match the sign-in started in this browser');
    }
    const started = await consumeAuthRequest(db, input.state, input.platform);
    if (!started) throw new EidError('state_mismatch', 'unknown, used or expired state');
    // Mobile: the state is spent either way, so a wrong verifier cannot be retried against it.
    const codeVerifier =
      input.platform === 'mobile'
        ? await mobileVerifier(started.code_challenge, input.codeVerifier)
        : started.code_verifier;
    if (!codeVerifier) throw new EidError('state_mismatch', 'this sign-in has no PKCE verifier');

    let claims: EidClaims;
    try {
      claims = await provider.exchange({
        code: input.code,
        state: input.state,
        iss: input.iss,
        redirectUri: started.redirect_uri,
        nonce: started.nonce,
        codeVerifier,
      });
    } catch (err) {
      const cause = (err as Error).cause instanceof Error ? `: ${((err as Error).cause as Error).message}` : '';
      throw new EidError(
        'eid_provider_error',
        `code exchange or ID token verification failed: ${(err as Error).message}${cause}`,
      );
    }

    const pid = claimString(claims, 'pid', 20) ?? claimString(claims, 'nnin', 20);
    const parsed = pid ? parseNationalId(pid, { allowSynthetic: config.eid.allowSynthetic }) : null;
    if (!pid || !parsed?.ok)
      throw new EidError('invalid_national_id', 'the identity provider sent no valid national id');
    // A provider's birthdate claim wins: numbers issued from 2032 need not encode the birth date.
    const birthdate = claimString(claims, 'birthdate', 10);
    const dateOfBirth = isIsoDate(birthdate) ? birthdate : parsed.birthDate;
    if (ageOn(dateOfBirth, new Date()) < MIN_AGE)
      throw new EidError('age_restricted', 'users must be at least 18 years old');

    const { user, created } = await findOrCreateUser(pid, dateOfBirth, claims);
    const surface = input.platform === 'web' ? 'web' : 'api';
    const session = await sessions.issue({ userId: user.id, email: user.email, role: user.role }, surface, client);
    return { session, user, created };
  }

  /** The app's verifier, when its S256 is the challenge the app sent at initiate. */
  async function mobileVerifier(challenge: string | null, verifier: string | undefined): Promise<string> {
    if (!challenge || !verifier || !safeEqual(await oidc.calculatePKCECodeChallenge(verifier), challenge)) {
      throw new EidError('state_mismatch', 'code_verifier does not match the code_challenge sent at initiate');
    }
    return verifier;
  }

  /** Spec Authentication 4 and R6: matched by national_id_hash among live users. */
  async function findOrCreateUser(
    pid: string,
    dateOfBirth: string,
    claims: EidClaims,
  ): Promise<{ user: User; created: boolean }> {
    const hash = { keyed: nationalIdHash(pid, config.nationalIdPepper), legacy: sha256Hex(pid) };
    const now = new Date();
    return db.transaction().execute(async (trx) => {
      let created = false;
      let user = await findLiveUserByNationalIdHash(trx, hash);
      if (!user) {
        const email = claimString(claims, 'email', 254);
        const usableEmail =
          email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && !(await isEmailTaken(trx, email)) ? email : null;
        created = await insertUserIfAbsent(trx, {
          id: newId('usr'),
          email: usableEmail,
          first_name: claimString(claims, 'given_name') ?? '',
          last_name: claimString(claims, 'family_name') ?? '',
          date_of_birth: dateOfBirth,
          kyc_status: 'approved',
          kyc_method: 'eid',
          auth_provider: config.eid.provider,
          national_id_hash: hash.keyed,
          national_id_hash_version: 2,
          password_hash: 'EIDONLY',
          last_login_at: now,
        });
        user = await findLiveUserByNationalIdHash(trx, hash);
        if (!user) throw new Error('user vanished after insert');
      }
      if (!created) {
        await recordLogin(trx, user.id, now);
        await insertNotification(trx, {
          userId: user.id,
          type: 'security',
          title: 'Ny innlogging',
          body: 'Det ble registrert en ny innlogging på kontoen din med eID. Var det ikke deg, logg ut av alle enheter og kontakt oss.',
        });
      }
      return { user, created };
    });
  }

  return { redirectUriFor, start, explainMissingCookie, complete };
}

import type { CounterStore } from '@app/shared/counters';
import { AppError } from '../../lib/errors.js';

/**
 * Per-account backoff for sign-in guesses (issue 33 item 3): the per-IP lockout (limits.ts) does
 * not stop one account being guessed from many addresses. Failed passwords and failed two-factor
 * codes for one e-mail address are counted across every address in a 15-minute window; from the
 * 5th failure on, the account answers 429 SVC-1007 for a wait that doubles with each further
 * failure (1 s, 2 s, 4 s ... at most 5 minutes). A backoff, never a lock: once the wait is over the
 * owner's correct attempt succeeds, and an attacker cannot make the wait longer than 5 minutes.
 */
export const ACCOUNT_BACKOFF = { free: 4, windowMs: 15 * 60_000, firstWaitMs: 1000, maxWaitMs: 5 * 60_000 } as const;

const keyOf = (email: string) => email.trim().toLowerCase();

export function waitMsAfter(failures: number): number {
  if (failures <= ACCOUNT_BACKOFF.free) return 0;
  const doublings = Math.min(failures - ACCOUNT_BACKOFF.free - 1, 30);
  return Math.min(ACCOUNT_BACKOFF.firstWaitMs * 2 ** doublings, ACCOUNT_BACKOFF.maxWaitMs);
}

function tooSoon(until: number): AppError {
  return new AppError('SVC-1007', undefined, { 'retry-after': Math.max(1, Math.ceil((until - Date.now()) / 1000)) });
}

export interface AccountBackoff {
  /** Throws 429 SVC-1007 while the account's wait runs. */
  assertMayTry(email: string): Promise<void>;
  /** Counts a failed password or code and starts the next wait. */
  recordFailure(email: string): Promise<void>;
}

export function accountBackoff(counters: CounterStore, enabled: boolean): AccountBackoff {
  if (!enabled) return { assertMayTry: async () => {}, recordFailure: async () => {} };
  return {
    async assertMayTry(email) {
      const until = await counters.flaggedUntil(`acct-wait:${keyOf(email)}`);
      if (until) throw tooSoon(until);
    },
    async recordFailure(email) {
      const { count } = await counters.hit(`acct-fail:${keyOf(email)}`, ACCOUNT_BACKOFF.windowMs);
      const wait = waitMsAfter(count);
      if (wait > 0) await counters.flag(`acct-wait:${keyOf(email)}`, wait);
    },
  };
}

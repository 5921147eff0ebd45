import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Ledgerline',
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });
}

/**
 * RFC 6238 check (A17): SHA-1, 6 digits, 30 s; the current and the previous step are accepted.
 * Returns the matching time step, so the caller can refuse a code that was already used.
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secret, 'x').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null || delta > 0) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}

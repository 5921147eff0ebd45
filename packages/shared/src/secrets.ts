import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Compares a presented secret with the expected one in constant time (no early exit to time). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** An unguessable URL-safe token (state, callback secrets). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** An unguessable opaque token (refresh, invitation, session) and the hash stored in its place. */
export function newOpaqueToken(bytes = 32): { token: string; hash: string } {
  const token = randomToken(bytes);
  return { token, hash: sha256Hex(token) };
}

/** Prefixed opaque ids: usr_, con_ ... + 2 x bytes hex characters. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('hex')}`;
}

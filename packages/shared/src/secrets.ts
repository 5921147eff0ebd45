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

// Ids take their randomness from a pool refilled 4 KiB at a time: one call into the CSPRNG per
// few hundred ids instead of one per id (a payment makes several; randomBytes was 3 % of the
// payment route's CPU). The bytes are the same CSPRNG output, each used once; Node's own
// randomUUID keeps such a cache too. Secrets (tokens above) still take their bytes directly.
const ID_POOL_BYTES = 4096;
let idPool = Buffer.alloc(0);
let idPoolAt = 0;

/** Prefixed opaque ids: usr_, con_ ... + 2 x bytes hex characters. */
export function newId(prefix: string, bytes = 12): string {
  if (bytes > ID_POOL_BYTES) return `${prefix}_${randomBytes(bytes).toString('hex')}`;
  if (idPoolAt + bytes > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idPoolAt = 0;
  }
  const hex = idPool.toString('hex', idPoolAt, idPoolAt + bytes);
  idPoolAt += bytes;
  return `${prefix}_${hex}`;
}

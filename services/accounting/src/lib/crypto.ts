import bcrypt from 'bcrypt';

/** Native bcrypt runs on libuv's thread pool, so hashing never blocks the event loop. */
export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

// Compared against when the e-mail is unknown, so both paths cost one bcrypt verification at the
// configured cost (a fixed cost-10 hash made an unknown address answer faster under BCRYPT_COST=12).
const dummyHashes = new Map<number, Promise<string>>();

export function dummyHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = bcrypt.hash('no such user', cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

export async function verifyPassword(password: string, hash: string | null, cost: number): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? (await dummyHash(cost)));
  return ok && hash !== null;
}

/** Spec Authentication 5: at least 8 characters, one upper-case, one lower-case, one digit. */
export function passwordWeaknesses(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push('must be at least 8 characters');
  if (!/[A-Z]/.test(password)) problems.push('must contain an upper-case letter');
  if (!/[a-z]/.test(password)) problems.push('must contain a lower-case letter');
  if (!/[0-9]/.test(password)) problems.push('must contain a digit');
  return problems;
}

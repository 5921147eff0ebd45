import bcrypt from 'bcrypt';

/** Native bcrypt runs on libuv's thread pool, so hashing never blocks the event loop. */
export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(password, cost);
}

// Compared against when the e-mail is unknown, so both paths cost one bcrypt verification.
const DUMMY_HASH = '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.0hy7.M0zPq5hPO1rFpY6cR6dNhe6';

export function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  return bcrypt.compare(password, hash ?? DUMMY_HASH).then((ok) => ok && hash !== null);
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

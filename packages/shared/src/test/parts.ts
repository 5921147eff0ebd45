/**
 * The parts of the test environment that npm cannot install: a program from Debian (clamd,
 * pdftoppm), the official e-invoice rules beside the repository (../shared/einvoice), a Redis
 * server named by REDIS_URL. A bare `npm test` on a clone skips the tests that need a missing part
 * and says why. In CI (CI=true), where .ci/run provides every part, a missing one fails the test
 * file with the part's name instead, so a green CI run means every part was there (issue 34).
 */
export const IN_CI = /^(1|true|yes)$/i.test(process.env.CI ?? '');

/**
 * Whether the tests that need `part` can run: true when it is there (`missing` is null). Outside
 * CI a missing part answers false after a warning (the caller skips); in CI it throws.
 */
export function partPresent(part: string, missing: string | null, where: string, ci = IN_CI): boolean {
  if (missing === null) return true;
  const message = `${where}: ${part} is missing (${missing})`;
  if (ci) throw new Error(`${message}; CI=true: a missing part fails the run instead of skipping its tests`);
  console.warn(`${message}; its tests are skipped`);
  return false;
}

import { defineConfig } from 'vitest/config';

/**
 * The vitest configuration of mutation runs only (stryker.config.mjs, scripts/mutation.ts): it
 * includes only the test files scripts/mutation.ts names for the module (MUTATION_TESTS), and its
 * global setup migrates only the database templates those tests use (MUTATION_DB), or none.
 */
const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('vitest.mutation.config.ts: MUTATION_TESTS names no test file');

export default defineConfig({
  test: {
    include: tests,
    globalSetup: ['./test/mutation-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
  },
});

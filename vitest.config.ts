import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
    ],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores here and in CI: more workers only add PGlite start-up contention.
    maxWorkers: 2,
    env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
  },
});

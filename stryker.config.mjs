// Mutation testing of the money and trust paths (issue 34). Not part of CI: one module at a time,
// `npm run mutation -- <module>` (scripts/mutation.ts picks the files and their tests). See docs/testing.md.
const report = process.env.MUTATION_REPORT_DIR ?? 'reports/mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // The mutation-only vitest config: no global migration of databases the module does not use.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // MUTATION_CHECKER=off runs every mutant without compiling it first (the checker is ~90 % of a
  // pure module's cost on a loaded machine); a mutant that would not compile is then run and
  // counted, so docs/testing.md says which runs were made so and judges their survivors by hand.
  checkers: process.env.MUTATION_CHECKER === 'off' ? [] : ['typescript'],
  // The service's project (scripts/mutation.ts sets it): a mutant that does not compile is not run.
  tsconfigFile: process.env.MUTATION_TSCONFIG ?? 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // Two cores shared with others: one test process.
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `${report}/mutation.json` },
  htmlReporter: { fileName: `${report}/mutation.html` },
  // One sandbox directory per module (scripts/mutation.ts sets it), so two modules can run at once
  // without one's clean-up removing the other's sandbox or one copying the other's into its own.
  tempDirName: process.env.MUTATION_TEMP_DIR ?? '.stryker-tmp',
  cleanTempDir: 'always',
  // Anchored at the root: a bare 'reports' also left services/accounting/src/modules/reports out of
  // the sandbox, so every test that builds the app failed to import there.
  ignorePatterns: ['/bench', '/reports', '/data', '/dist', '/scratch', '/.stryker-tmp*', '/apps', '**/dist'],
  thresholds: { high: 90, low: 80, break: null },
};

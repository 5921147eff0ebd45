/**
 * Mutation testing of one module of the money and trust paths (issue 34, docs/testing.md):
 * `npm run mutation -- <module>` runs StrykerJS (stryker.config.mjs) on the module's files with
 * only the test files that defend them, one test process at a time. Slow on two cores, so it is a
 * command and not part of CI. `npm run mutation -- --list` names the modules.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

interface Module {
  mutate: string[];
  tests: string[];
  /** The project the TypeScript checker compiles a mutant in. */
  tsconfig: string;
  /** The database templates its tests need (test/mutation-global-setup.ts migrates only these). */
  db: string;
}

const A = 'services/accounting';
const R = 'services/remittance';
const accounting = (mutate: string[], tests: string[], db = 'accounting'): Module => ({
  mutate: mutate.map((m) => `${A}/src/${m}`),
  tests: tests.map((t) => `${A}/test/${t}`),
  tsconfig: `${A}/tsconfig.json`,
  db,
});
const remittance = (mutate: string[], tests: string[]): Module => ({
  mutate: mutate.map((m) => `${R}/src/${m}`),
  tests: tests.map((t) => `${R}/test/${t}`),
  tsconfig: `${R}/tsconfig.json`,
  db: 'remittance',
});

// Mutate only the functions that carry the money or the trust (`file:from-to` is a line range), and
// run only the test files that defend them: each mutant re-runs the covering tests of those files.
export const MODULES: Record<string, Module> = {
  // Pure arithmetic: its unit tests, no database.
  'invoice-totals': accounting(['modules/invoices/invoice-totals.ts'], ['invoices-totals.test.ts'], ''),
  // The number itself is formatted by the insert's SQL (invoices.sql.ts), which Stryker does not
  // mutate; the TypeScript around it: the year taken from the invoice date and the insert's arguments.
  'invoice-numbering': accounting(
    ['modules/invoices/invoices.repository.ts:50-80', 'modules/invoices/invoices.service.ts:218-229'],
    ['invoices-numbering.test.ts'],
  ),
  // The invoice's postings (A8: sale, payment, reversal). The manual entry (transactions.service.ts,
  // books-transactions.test.ts) is the module manual-postings below.
  // Its unit tests (invoice-postings.test.ts: the account look-up and the journal replaced by their
  // answers), no database; invoices-api.test.ts checks the same end to end at a minute a mutant.
  postings: accounting(['modules/invoices/invoice-postings.ts'], ['invoice-postings.test.ts'], ''),
  // The manual entry and the journal entry of several lines: the account checks, currency, decimals,
  // rate and base amount, the posting and its retry with the base currency the statement finds, the
  // reversal (lines 82-221), and the journal entry's balance check, pairing and postings (234-372).
  // Re-check the ranges when the file changes (presentTransaction and the reads are not in them).
  'manual-postings': accounting(
    ['modules/ledger/transactions.service.ts:82-221', 'modules/ledger/transactions.service.ts:234-372'],
    ['books-transactions.test.ts'],
  ),
  // Run it with TEST_DATABASE_URL (PostgreSQL): the lock test of ledger-fold.test.ts runs only there.
  'ledger-fold': accounting(['modules/ledger/fold-job.ts'], ['ledger-fold.test.ts']),
  // The scoring is pure: its unit tests alone (banking-api.test.ts would make a run of ~1 hour).
  reconciliation: accounting(['modules/banking/reconciliation.ts'], ['reconciliation-score.test.ts'], ''),
  // The UBL document built from the invoice (buildEInvoice): the VAT category, the identifiers, the
  // issue time, and from the lines to the totals; the required-field checks of seller and buyer
  // (lines 115-159) and the XML writer (ubl.ts) are not in it. Its pure unit tests, no database
  // (einvoice-fields.test.ts checks the same through the routes and would cost a minute a mutant).
  'einvoice-document': accounting(
    ['modules/einvoice/einvoice-document.ts:58-107', 'modules/einvoice/einvoice-document.ts:160-327'],
    ['einvoice-document.test.ts'],
    '',
  ),
  // The check of the caller in the auth plugin: the hook that sends every non-public route through
  // it, the Bearer header, the token's session read or found kept (checked against the token's user
  // and organization), the revoked or deactivated login, and the role. With auth.test.ts
  // ("the check of the caller") and principal-cache.test.ts (what is kept, and when it is read
  // again); security.test.ts checks every route's roles too, but builds every route's fixture,
  // minutes a mutant here. The repository filters are contacts-tenant-filter.
  'tenant-scope': accounting(['plugins/auth.ts:141-192'], ['auth.test.ts', 'principal-cache.test.ts']),
  // The first wall alone: the contacts repository's organization filter (the surviving
  // mutant), with its test that runs it with row-level security off. A part of tenant-scope.
  'contacts-tenant-filter': accounting(
    ['modules/contacts/contacts.repository.ts:22-24', 'modules/contacts/contacts.repository.ts:50-82'],
    ['tenant-filters.test.ts'],
  ),
  // The Idempotency-Key (R9) on issue 30's layout: the key taken, replayed or refused for another body
  // (idempotency.ts without the housekeeping job deleteExpiredKeys), the request hash and claim in
  // the remittance's intent (with the session checked first, 228-235) and the QR payment's (345-350),
  // and after the intent: the replay or the wait for the first request's answer (finishRequest),
  // the answer kept or the key released on a refusal (answerFor, 413-448), and a same-key request
  // while the first is still at the bank (answerInFlight, 461-490). enable-banking-payments.test.ts
  // has the released key and the same-key retry during an outage; run it with TEST_DATABASE_URL
  // (payments-concurrency.test.ts races one key on PostgreSQL).
  idempotency: remittance(
    [
      'modules/payments/idempotency.ts:1-85',
      'modules/payments/payments.service.ts:228-235',
      'modules/payments/payments.service.ts:345-350',
      'modules/payments/payments.service.ts:413-448',
      'modules/payments/payments.service.ts:461-490',
    ],
    ['payments.test.ts', 'enable-banking-payments.test.ts', 'payments-concurrency.test.ts'],
  ),
  // Remittance and QR payments after issue 30's state machine, without the Idempotency-Key lines
  // (the module idempotency): the intents (amount, fee, total, the session, recipient, KYC, account
  // and balance checks, the recorded transaction and its conditional debit: 223-227, 236-288,
  // 310-344, 351-358), the order the bank gets (orderOf, 361-376) and the intent's end-to-end id,
  // callback state and lease (intentOf, 378-401), and the outcome recorded for the money: a failed
  // payment's reservation restored (fail, 677-691). The bank's calls and polling (driveIntent,
  // applyState, the jobs) and the answer to a refusal at once (refusalOf) are not in it.
  // merchants.test.ts holds the QR payments' own tests (fee, stored row, refusals, bounds).
  // enable-banking-payments.test.ts and payments-concurrency.test.ts (PostgreSQL: the conditional
  // debit raced) defend it too, but with them a run on PostgreSQL under load ~15 went at ~1.5
  // mutants a minute (16 of 125 in 11 min): they are left out. Re-check the ranges when the file changes.
  payments: remittance(
    [
      'modules/payments/payments.service.ts:223-227',
      'modules/payments/payments.service.ts:236-288',
      'modules/payments/payments.service.ts:310-344',
      'modules/payments/payments.service.ts:351-358',
      'modules/payments/payments.service.ts:361-376',
      'modules/payments/payments.service.ts:378-401',
      'modules/payments/payments.service.ts:677-691',
    ],
    ['payments.test.ts', 'merchants.test.ts'],
  ),
};

const [name, ...extra] = process.argv.slice(2);
if (!name || name === '--list' || !(name in MODULES)) {
  console.log(`usage: npm run mutation -- <module>\nmodules: ${Object.keys(MODULES).join(', ')}`);
  process.exit(name && name !== '--list' ? 2 : 0);
}
const m = MODULES[name];
const report = `reports/mutation/${name}`;
// The TypeScript checker compiles each mutant in a project of only the module's files and its test
// files (and what they import), not the whole service: a mutant that breaks the types there is
// still rejected, at a fraction of the cost (the whole project made a mutant cost ~45 s of checking
// on this machine). A mutant that only breaks a caller outside that project runs as a test.
const service = dirname(m.tsconfig);
const tsconfig = `${service}/.mutation-tsconfig.${name}.json`;
// The files that add the service's declarations to fastify's types (request.lang, route config),
// which the module's files rely on without importing them.
const AUGMENTATIONS: Record<string, string[]> = {
  [A]: [`${A}/src/plugins/errors.ts`, `${A}/src/plugins/limits.ts`],
  [R]: [`${R}/src/lib/limits.ts`, `${R}/src/plugins/authenticate.ts`],
};
const files = [
  ...new Set([...m.mutate.map((f) => f.replace(/:[\d-]+$/, '')), ...m.tests, ...(AUGMENTATIONS[service] ?? [])]),
];
writeFileSync(
  tsconfig,
  `${JSON.stringify({ extends: './tsconfig.json', include: [], files: files.map((f) => relative(service, f)) }, null, 2)}\n`,
);
const r = spawnSync(
  'npx',
  // Anything after the module name goes to Stryker as it is (e.g. --concurrency 2).
  ['stryker', 'run', 'stryker.config.mjs', '--mutate', m.mutate.join(','), ...extra],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      // Where this module's report goes (stryker.config.mjs reads it).
      MUTATION_REPORT_DIR: report,
      // Its own sandbox directory (stryker.config.mjs), so modules can run side by side.
      MUTATION_TEMP_DIR: `.stryker-tmp-${name}`,
      MUTATION_TSCONFIG: tsconfig,
      MUTATION_DB: m.db,
      // The only test files vitest.mutation.config.ts includes.
      MUTATION_TESTS: m.tests.join(','),
    },
  },
);
process.exit(r.status ?? 1);

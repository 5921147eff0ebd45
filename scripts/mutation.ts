/**
 * Mutation testing of one module of the money and trust paths (issue 34, docs/testing.md):
 * `npm run mutation -- <module>` runs StrykerJS (stryker.config.mjs) on the module's files with
 * only the test files that defend them, one test process at a time. Slow on two cores, so it is a
 * command and not part of CI. `npm run mutation -- --list` names the modules.
 */
import { spawnSync } from 'node:child_process';

interface Module {
  mutate: string[];
  tests: string[];
  /** The project the TypeScript checker compiles a mutant in. */
  tsconfig: string;
}

const A = 'services/accounting';
const R = 'services/remittance';
const accounting = (mutate: string[], tests: string[]): Module => ({
  mutate: mutate.map((m) => `${A}/src/${m}`),
  tests: tests.map((t) => `${A}/test/${t}`),
  tsconfig: `${A}/tsconfig.json`,
});
const remittance = (mutate: string[], tests: string[]): Module => ({
  mutate: mutate.map((m) => `${R}/src/${m}`),
  tests: tests.map((t) => `${R}/test/${t}`),
  tsconfig: `${R}/tsconfig.json`,
});

export const MODULES: Record<string, Module> = {
  'invoice-totals': accounting(['modules/invoices/invoice-totals.ts'], ['invoices-totals.test.ts']),
  'invoice-numbering': accounting(
    ['modules/invoices/invoices.repository.ts'],
    ['invoices-totals.test.ts', 'invoices-api.test.ts'],
  ),
  postings: accounting(
    ['modules/invoices/invoice-postings.ts', 'modules/ledger/transactions.service.ts'],
    ['books-transactions.test.ts', 'books-ledger.test.ts', 'invoices-api.test.ts'],
  ),
  'ledger-fold': accounting(['modules/ledger/fold-job.ts'], ['books-ledger.test.ts', 'reports-book.test.ts']),
  // The scoring is pure: its unit tests alone (banking-api.test.ts would make a run of ~1 hour).
  reconciliation: accounting(['modules/banking/reconciliation.ts'], ['reconciliation-score.test.ts']),
  'einvoice-document': accounting(
    ['modules/einvoice/einvoice-document.ts', 'modules/einvoice/ubl.ts'],
    ['einvoice-ubl.test.ts', 'einvoice-data.test.ts'],
  ),
  'tenant-scope': accounting(
    ['modules/contacts/contacts.repository.ts', 'plugins/auth.ts'],
    ['books-contacts.test.ts', 'books-isolation.test.ts', 'security.test.ts'],
  ),
  payments: remittance(
    ['modules/payments/payments.service.ts', 'modules/payments/idempotency.ts'],
    ['payments.test.ts', 'transactions.test.ts'],
  ),
};

const [name] = process.argv.slice(2);
if (!name || name === '--list' || !(name in MODULES)) {
  console.log(`usage: npm run mutation -- <module>\nmodules: ${Object.keys(MODULES).join(', ')}`);
  process.exit(name && name !== '--list' ? 2 : 0);
}
const m = MODULES[name];
const report = `reports/mutation/${name}`;
const r = spawnSync(
  'npx',
  ['stryker', 'run', 'stryker.config.mjs', '--mutate', m.mutate.join(','), '--testFiles', m.tests.join(',')],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      // Where this module's report goes (stryker.config.mjs reads it).
      MUTATION_REPORT_DIR: report,
      MUTATION_TSCONFIG: m.tsconfig,
    },
  },
);
process.exit(r.status ?? 1);

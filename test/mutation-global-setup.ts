import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropTemplate, prepareTemplate, type TemplateInfo } from '../packages/shared/src/test/databases.js';

/**
 * The global setup of mutation runs (vitest.mutation.config.ts): migrates the template of only the
 * services named in MUTATION_DB (comma-separated; scripts/mutation.ts sets it per module), so a
 * module whose tests need no database, or one service's, does not pay for the other's migrations.
 */
const DIRS: Record<string, string> = {
  accounting: join(import.meta.dirname, '../services/accounting/src/db/migrations'),
  remittance: join(import.meta.dirname, '../services/remittance/src/db/migrations'),
};

let templates: Record<string, TemplateInfo> = {};

export async function setup(project: TestProject) {
  const names = (process.env.MUTATION_DB ?? '').split(',').filter((n) => n in DIRS);
  const entries = await Promise.all(names.map(async (n) => [n, await prepareTemplate(n, DIRS[n])] as const));
  templates = Object.fromEntries(entries);
  project.provide('dbTemplates', templates);
}

export async function teardown() {
  await Promise.all(Object.values(templates).map(dropTemplate));
}

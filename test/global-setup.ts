import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropTemplate, prepareTemplate, type TemplateInfo } from '../packages/shared/src/test/databases.js';

/** Migrates one template database per service per run; test files clone it (see databases.ts). */
const SERVICES = {
  accounting: join(import.meta.dirname, '../services/accounting/src/db/migrations'),
  remittance: join(import.meta.dirname, '../services/remittance/src/db/migrations'),
} as const;

let templates: Record<string, TemplateInfo> = {};

export async function setup(project: TestProject) {
  const { existsSync } = await import('node:fs');
  const entries = await Promise.all(
    Object.entries(SERVICES)
      .filter(([, dir]) => existsSync(dir))
      .map(async ([name, dir]) => [name, await prepareTemplate(name, dir)] as const),
  );
  templates = Object.fromEntries(entries);
  project.provide('dbTemplates', templates);
}

export async function teardown() {
  await Promise.all(Object.values(templates).map(dropTemplate));
}

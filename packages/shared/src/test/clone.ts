import { inject } from 'vitest';
import { type CloneOptions, cloneTemplate, type TemplateInfo, type TestDatabase } from './databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/global-setup.ts: one migrated template per service. */
    dbTemplates: Record<string, TemplateInfo>;
  }
}

/**
 * A freshly migrated database for one test file (cloned from the run's template), opened as the
 * service opens its own (`opts.settings`, e.g. the accounting service's db/settings.ts).
 */
export async function freshDatabase<DB>(
  service: string,
  appRole: string,
  opts: CloneOptions = {},
): Promise<TestDatabase<DB>> {
  const info = inject('dbTemplates')[service];
  if (!info) throw new Error(`no database template for ${service}`);
  return cloneTemplate<DB>(info, appRole, opts);
}

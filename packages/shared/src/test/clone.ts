import { inject } from 'vitest';
import { cloneTemplate, type TemplateInfo, type TestDatabase } from './databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/global-setup.ts: one migrated template per service. */
    dbTemplates: Record<string, TemplateInfo>;
  }
}

/** A freshly migrated database for one test file (cloned from the run's template). */
export async function freshDatabase<DB>(service: string, appRole: string, poolSize?: number): Promise<TestDatabase<DB>> {
  const info = inject('dbTemplates')[service];
  if (!info) throw new Error(`no database template for ${service}`);
  return cloneTemplate<DB>(info, appRole, poolSize);
}

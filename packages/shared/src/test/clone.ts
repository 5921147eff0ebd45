import { inject } from 'vitest';
import { cloneTemplate, type TestDatabase } from './databases.js';

/** A freshly migrated database for one test file (cloned from the run's template). */
export async function freshDatabase<DB>(service: string, appRole: string, poolSize?: number): Promise<TestDatabase<DB>> {
  const info = inject('dbTemplates')[service];
  if (!info) throw new Error(`no database template for ${service}`);
  return cloneTemplate<DB>(info, appRole, poolSize);
}

import { join } from 'node:path';

/**
 * The SQL migrations. This module sits at the source root on purpose: in the bundle `npm start`
 * runs (scripts/build.ts), `import.meta.dirname` is the bundle's directory, `dist/`, where the build
 * copies `db/migrations` as it sits under `src/`.
 */
export const MIGRATIONS_DIR = join(import.meta.dirname, 'db/migrations');

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `npm run migrate`: applies each service's SQL migrations to its configured database. */
const root = fileURLToPath(new URL('..', import.meta.url));
let status = 0;
for (const name of ['accounting', 'remittance']) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `services/${name}/src/migrate.ts`], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);

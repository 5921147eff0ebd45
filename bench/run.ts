/** `npm run bench -- <name>`: runs bench/<name>.ts (auth, books, invoices, einvoice, hot-paths, banking, banking-memory, flags-duel, reports, remittance-session, remittance-payments, pg-cork, web-bundle, web-pages, wal). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error(
    'usage: npm run bench -- <auth|books|invoices|einvoice|hot-paths|banking|banking-memory|flags-duel|reports|remittance-session|remittance-payments|pg-cork|web-bundle|web-pages|wal> [...]',
  );
  process.exit(2);
}
const dir = fileURLToPath(new URL('.', import.meta.url));
for (const name of names) {
  const file = `${dir}${name}.ts`;
  if (!existsSync(file)) {
    console.error(`no benchmark ${name}`);
    process.exit(2);
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

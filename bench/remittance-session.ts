/**
 * Hot path of every authenticated remittance request: JWT verification plus the one indexed
 * session query. Builds the production app on an embedded (or REMITTANCE_DATABASE_URL) database,
 * signs in through the mock eID, then times N authenticated requests in process (app.inject, no
 * network): GET /v1/open-banking/consents (session check + one small query).
 *   node --import tsx bench/remittance-session.ts [N]
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '@app/shared/db/database';
import { migrate } from '@app/shared/db/migrate';
import { buildApp } from '../services/remittance/src/app.js';
import { loadConfig } from '../services/remittance/src/config.js';
import type { DB } from '../services/remittance/src/db/types.js';
import { MIGRATIONS_DIR } from '../services/remittance/src/paths.js';

const n = Number(process.argv[2] ?? 2000);
const config = loadConfig({
  NODE_ENV: 'development',
  LOG_LEVEL: 'silent',
  RATE_LIMITS: 'off',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'remittance-bench-')),
  CONSENT_EXPIRY_INTERVAL: '0s',
  BALANCE_SYNC_INTERVAL: '0s',
});
const db = await createDatabase<DB>({
  url: process.env.REMITTANCE_DATABASE_URL ?? 'memory://',
  appRole: 'remittance_app',
});
await migrate(db.raw, MIGRATIONS_DIR);
const app = await buildApp(config, db);
await app.ready();

// RFC 8252: the app keeps the PKCE verifier and sends its challenge (issue 33 item 1).
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');
const start = await app.inject({
  method: 'GET',
  url: `/v1/auth/eid/initiate?platform=mobile&code_challenge=${challenge}&code_challenge_method=S256`,
});
const authorize = new URL(start.json().redirectUrl);
const back = new URL(
  (await app.inject({ method: 'GET', url: authorize.pathname + authorize.search })).headers.location as string,
);
const signIn = await app.inject({
  method: 'POST',
  url: '/v1/auth/eid/callback',
  payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state'), code_verifier: verifier },
});
const headers = { authorization: `Bearer ${signIn.json().token}` };

for (let i = 0; i < 200; i++) await app.inject({ method: 'GET', url: '/v1/open-banking/consents', headers });
const times: number[] = [];
for (let i = 0; i < n; i++) {
  const t = performance.now();
  const res = await app.inject({ method: 'GET', url: '/v1/open-banking/consents', headers });
  times.push(performance.now() - t);
  if (res.statusCode !== 200) throw new Error(`unexpected ${res.statusCode}`);
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(3);
console.log(
  `remittance authenticated request (${db.kind}, n=${n}): p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms`,
);
await app.close();
await db.close();

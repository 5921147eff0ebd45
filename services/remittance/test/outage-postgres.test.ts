import { freshDatabase } from '@app/shared/test/clone';
import type { TestDatabase } from '@app/shared/test/databases';
import {
  type DatabaseBehindProxy,
  databaseBehindProxy,
  OUTAGE_SKIP_REASON,
  outageScenarios,
} from '@app/shared/test/outage';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/types.js';
import { bearer, signInMobile, type TestApp, testConfig } from './helpers.js';

// CONTRACT G15 on a real server: the database goes away under a running service and comes back.
describe.skipIf(!process.env.TEST_DATABASE_URL)(`a PostgreSQL outage (${OUTAGE_SKIP_REASON})`, () => {
  let t: TestDatabase<DB>;
  let cut: DatabaseBehindProxy<DB>;
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await freshDatabase<DB>('remittance', 'remittance_app');
    cut = await databaseBehindProxy(t, 'remittance_app');
    app = await buildApp(testConfig(), cut.db);
    await app.ready();
    token = (await signInMobile(app)).token;
  });
  afterAll(async () => {
    await app?.close();
    await cut?.close();
    await t?.destroy();
  });

  const accounts = () => app.inject({ method: 'GET', url: '/v1/bank-accounts', ...bearer(token) });
  const health = () => app.inject({ method: 'GET', url: '/v1/health' });

  outageScenarios({
    cut: () => cut,
    request: accounts,
    health,
    outage: '503 service_unavailable',
    never: 'internal_error',
    expectOutage: (res) => {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    },
  });
});

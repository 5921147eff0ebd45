import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '@app/shared/test/clone';
import type { TestDatabase } from '@app/shared/test/databases';
import { databaseBehindProxy, OUTAGE_SKIP_REASON, type DatabaseBehindProxy } from '@app/shared/test/outage';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/schema.js';
import { bearer, signInMobile, testConfig, type TestApp } from './helpers.js';

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

  it('answers 503 service_unavailable with Retry-After: 1 while the server is unreachable, and recovers without a restart', async () => {
    expect((await health()).statusCode).toBe(200);
    await cut.proxy.down();

    const during = await accounts();
    expect(during.statusCode).toBe(503);
    expect(during.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    expect(during.headers['retry-after']).toBe('1');
    const sick = await health();
    expect(sick.statusCode).toBe(503);
    expect(sick.json()).toMatchObject({ status: 'error', db: 'disconnected' });

    await cut.proxy.up();
    expect((await health()).statusCode).toBe(200);
    expect((await accounts()).statusCode).toBe(200);
  });

  it('answers the outage code, never internal_error, when an administrator terminates the backends', async () => {
    expect((await accounts()).statusCode).toBe(200);
    expect(await cut.terminateBackends()).toBeGreaterThan(0);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await accounts());
    for (const res of answers) {
      if (res.statusCode === 200) continue;
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('service_unavailable');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(answers.at(-1)!.statusCode).toBe(200);
    expect((await health()).statusCode).toBe(200);
  });
});

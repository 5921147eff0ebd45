import { isDatabaseUnavailable } from '@app/shared/db/unavailable';
import { freshDatabase } from '@app/shared/test/clone';
import type { TestDatabase } from '@app/shared/test/databases';
import {
  type DatabaseBehindProxy,
  databaseBehindProxy,
  OUTAGE_SKIP_REASON,
  outageScenarios,
} from '@app/shared/test/outage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { DATABASE_SETTINGS } from '../src/db/settings.js';
import type { DB } from '../src/db/types.js';
import { registerOrg, type Session, testConfig } from './helpers.js';

// CONTRACT G15 on a real server: the database goes away under a running service and comes back.
describe.skipIf(!process.env.TEST_DATABASE_URL)(`a PostgreSQL outage (${OUTAGE_SKIP_REASON})`, () => {
  let t: TestDatabase<DB>;
  let cut: DatabaseBehindProxy<DB>;
  let app: FastifyInstance;
  let owner: Session;
  beforeAll(async () => {
    t = await freshDatabase<DB>('accounting', 'accounting_app', { settings: DATABASE_SETTINGS });
    cut = await databaseBehindProxy(t, 'accounting_app');
    app = await buildApp(testConfig(), cut.db);
    await app.ready();
    owner = await registerOrg(app);
  });
  afterAll(async () => {
    await app?.close();
    await cut?.close();
    await t?.destroy();
  });

  const contacts = () =>
    app.inject({ method: 'GET', url: '/api/v1/contacts', headers: { authorization: `Bearer ${owner.token}` } });
  const health = () => app.inject({ method: 'GET', url: '/health' });

  outageScenarios({
    cut: () => cut,
    request: contacts,
    health,
    outage: '500 SVC-9006',
    never: 'SVC-9004',
    expectOutage: (res) => {
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toMatchObject({ code: 'SVC-9006', requestId: res.headers['x-request-id'] });
    },
  });

  it('classifies a connection lost inside a transaction as the database being unavailable', async () => {
    const failure = await cut.db
      .transaction({ kind: 'system' }, async (trx) => {
        await trx.selectFrom('organizations').select('id').execute();
        await cut.terminateBackends();
        await trx.selectFrom('organizations').select('id').execute();
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // The broken connection was discarded: the next statement gets a fresh one.
    await expect(cut.db.system.selectFrom('organizations').select('id').execute()).resolves.toEqual(expect.any(Array));
  });
});

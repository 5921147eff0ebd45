import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '@app/shared/test/clone';
import type { TestDatabase } from '@app/shared/test/databases';
import { databaseBehindProxy, OUTAGE_SKIP_REASON, type DatabaseBehindProxy } from '@app/shared/test/outage';
import { isDatabaseUnavailable } from '@app/shared/db/unavailable';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/types.js';
import { registerOrg, testConfig, type Session } from './helpers.js';

// CONTRACT G15 on a real server: the database goes away under a running service and comes back.
describe.skipIf(!process.env.TEST_DATABASE_URL)(`a PostgreSQL outage (${OUTAGE_SKIP_REASON})`, () => {
  let t: TestDatabase<DB>;
  let cut: DatabaseBehindProxy<DB>;
  let app: FastifyInstance;
  let owner: Session;
  beforeAll(async () => {
    t = await freshDatabase<DB>('accounting', 'accounting_app');
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

  const contacts = () => app.inject({ method: 'GET', url: '/api/v1/contacts', headers: { authorization: `Bearer ${owner.token}` } });
  const health = () => app.inject({ method: 'GET', url: '/health' });

  it('answers 500 SVC-9006 with Retry-After: 1 while the server is unreachable, and recovers without a restart', async () => {
    expect((await health()).statusCode).toBe(200);
    await cut.proxy.down();

    const during = await contacts();
    expect(during.statusCode).toBe(500);
    expect(during.json().error).toMatchObject({ code: 'SVC-9006', requestId: during.headers['x-request-id'] });
    expect(during.headers['retry-after']).toBe('1');
    const sick = await health();
    expect(sick.statusCode).toBe(503);
    expect(sick.json()).toMatchObject({ status: 'error', db: 'disconnected' });

    await cut.proxy.up();
    expect((await health()).statusCode).toBe(200);
    expect((await contacts()).statusCode).toBe(200);
  });

  it('answers the outage code, never SVC-9004, when an administrator terminates the backends', async () => {
    expect((await contacts()).statusCode).toBe(200);
    expect(await cut.terminateBackends()).toBeGreaterThan(0);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await contacts());
    for (const res of answers) {
      if (res.statusCode === 200) continue;
      expect(res.statusCode).toBe(500);
      expect(res.json().error.code).toBe('SVC-9006');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(answers.at(-1)!.statusCode).toBe(200);
    expect((await health()).statusCode).toBe(200);
  });

  it('classifies a connection lost inside a transaction as the database being unavailable', async () => {
    const failure = await cut.db
      .transaction({ kind: 'system' }, async (trx) => {
        await trx.selectFrom('organizations').select('id').execute();
        await cut.terminateBackends();
        await trx.selectFrom('organizations').select('id').execute();
      })
      .then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // The broken connection was discarded: the next statement gets a fresh one.
    await expect(cut.db.system.selectFrom('organizations').select('id').execute()).resolves.toEqual(expect.any(Array));
  });
});

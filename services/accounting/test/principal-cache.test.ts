import { createDatabase, type Database } from '@app/shared/db/database';
import { eventually } from '@app/shared/test/eventually';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { DATABASE_SETTINGS } from '../src/db/settings.js';
import type { DB } from '../src/db/types.js';
import { addMember, authed, buildTestApp, registerOrg, type TestApp, testConfig } from './helpers.js';

// The signed-in caller kept between requests (plugins/auth.ts, NotifiedCache): served while
// nothing changed, dropped by the change that commits on this instance before it answers, and by
// PostgreSQL's notification on every other instance.
let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

const me = (app: FastifyInstance, token: string) =>
  app.inject(authed(token, { method: 'GET', url: '/api/v1/auth/me' }));

/** Changes a user's name without the trigger that tells the caches: what a cache serves shows through. */
async function renameQuietly(db: Database<DB>, userId: string, fullName: string): Promise<void> {
  await db.system.transaction().execute(async (trx) => {
    await sql`ALTER TABLE users DISABLE TRIGGER principal_cache`.execute(trx);
    await sql`UPDATE users SET full_name = ${fullName} WHERE id = ${userId}`.execute(trx);
    await sql`ALTER TABLE users ENABLE TRIGGER principal_cache`.execute(trx);
  });
}

describe('the signed-in caller kept in memory', () => {
  it('is served from memory while nothing notifies a change, and read again once something does', async () => {
    const s = await registerOrg(h.app, { fullName: 'First Name' });
    expect((await me(h.app, s.token)).json().fullName).toBe('First Name');
    await renameQuietly(h.t.db, s.userId, 'Quiet Name');
    // Kept: the change told nobody.
    expect((await me(h.app, s.token)).json().fullName).toBe('First Name');
    // Any committed change of the row (here plain SQL, as a job or an operator would write it) tells.
    await h.t.db.system.updateTable('users').set({ full_name: 'Loud Name' }).where('id', '=', s.userId).execute();
    expect((await me(h.app, s.token)).json().fullName).toBe('Loud Name');
  });

  it('refuses a logged-out session on the very next request', async () => {
    const s = await registerOrg(h.app);
    expect((await me(h.app, s.token)).statusCode).toBe(200);
    expect((await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/logout' }))).statusCode).toBe(204);
    const after = await me(h.app, s.token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('SVC-1004');
  });

  it("applies a member's new role and a removal to the member's next request", async () => {
    const owner = await registerOrg(h.app);
    const member = await addMember(h.app, owner, 'admin');
    let n = 0;
    const accounts = () =>
      h.app.inject(
        authed(member.token, {
          method: 'POST',
          url: '/api/v1/accounts',
          payload: { code: `98${++n}`, name: 'Cache test', accountTypeId: 5 },
        }),
      );
    expect((await me(h.app, member.token)).json().role).toBe('admin');
    expect((await accounts()).statusCode).toBe(201);
    const role = await h.app.inject(
      authed(owner.token, { method: 'PUT', url: `/api/v1/users/${member.userId}/role`, payload: { role: 'viewer' } }),
    );
    expect(role.statusCode).toBe(200);
    expect((await me(h.app, member.token)).json().role).toBe('viewer');
    expect((await accounts()).statusCode).toBe(403);
    expect(
      (await h.app.inject(authed(owner.token, { method: 'DELETE', url: `/api/v1/users/${member.userId}` }))).statusCode,
    ).toBe(204);
    // Removal deactivates the user and revokes every session.
    const removed = await me(h.app, member.token);
    expect(removed.statusCode).toBe(401);
    expect(removed.json().error.code).toBe('SVC-1004');
  });

  it("shows the organization's new name and language on the next request", async () => {
    const s = await registerOrg(h.app, { language: 'sr' });
    const missing = () =>
      h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/invoices/00000000-0000-4000-8000-000000000000' }));
    expect((await me(h.app, s.token)).json().organization.name).toBe('Test d.o.o.');
    const before = (await missing()).json().error.message;
    const put = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        payload: { name: 'Preimenovano d.o.o.', language: 'hr' },
      }),
    );
    expect(put.statusCode).toBe(200);
    expect((await me(h.app, s.token)).json().organization.name).toBe('Preimenovano d.o.o.');
    // Error messages follow the organization's language at once too.
    const after = (await missing()).json().error.message;
    expect(before).toBe('Faktura nije pronađena.');
    expect(after).toBe('Račun nije pronađen.');
  });

  it('reads the database on every request with SESSION_CACHE=off', async () => {
    const app = await buildApp(testConfig({ SESSION_CACHE: 'off' }), h.t.db);
    try {
      const s = await registerOrg(app, { fullName: 'Uncached' });
      expect((await me(app, s.token)).json().fullName).toBe('Uncached');
      await renameQuietly(h.t.db, s.userId, 'Seen At Once');
      expect((await me(app, s.token)).json().fullName).toBe('Seen At Once');
    } finally {
      await app.close();
    }
  });
});

// Two instances on one PostgreSQL database, each with its own pool, as behind a load balancer.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('several instances (PostgreSQL)', () => {
  let other: { app: FastifyInstance; db: Database<DB> };
  beforeAll(async () => {
    const db = await createDatabase<DB>({
      url: h.t.url,
      appRole: 'accounting_app',
      poolSize: 3,
      settings: DATABASE_SETTINGS,
    });
    other = { app: await buildApp(h.config, db), db };
    await other.app.ready();
    // Every connection of the pool opened and listening before the tests: the first statement on a
    // pool's first listening connection switches the cache on, and what it read is not kept.
    await Promise.all(
      [1, 2, 3].map(() => db.withContext({ kind: 'system' }, (c) => sql`SELECT pg_sleep(0.05)`.execute(c))),
    );
  });

  /**
   * Signs the caller in on the other instance until it serves them from memory, seen by a name
   * changed without notification not showing. A read is not kept when a notification arrives
   * while it runs, and those of the caller's own registration reach the other instance
   * asynchronously, so one warm-up request is not enough (issue 34: failed 4 of 7 runs).
   */
  async function servedFromMemory(token: string, userId: string): Promise<void> {
    let i = 0;
    const kept = await eventually(async () => {
      const before = (await me(other.app, token)).json().fullName;
      i += 1;
      await renameQuietly(h.t.db, userId, `Warm-up ${i}`);
      return (await me(other.app, token)).json().fullName === before;
    }, 10_000);
    expect(kept).toBe(true);
  }
  afterAll(async () => {
    await other?.app.close();
    await other?.db.close();
  });

  it('drops a session on the other instance when the notification of its logout arrives', async () => {
    const s = await registerOrg(h.app);
    // The other instance keeps the caller...
    await servedFromMemory(s.token, s.userId);
    await renameQuietly(h.t.db, s.userId, 'Quiet Name');
    expect((await me(other.app, s.token)).json().fullName).not.toBe('Quiet Name');
    // ...until this one logs the session out.
    expect((await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/auth/logout' }))).statusCode).toBe(204);
    expect(await eventually(async () => (await me(other.app, s.token)).statusCode === 401)).toBe(true);
  });

  it('serves nothing from memory once its connections are gone, until one listens again', async () => {
    const s = await registerOrg(h.app, { fullName: 'Before' });
    expect((await me(other.app, s.token)).json().fullName).toBe('Before');
    // Every connection of the other instance ends: notifications sent now would reach nobody there.
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = ''`.execute(h.t.db.system);
    await new Promise((r) => setTimeout(r, 200));
    await renameQuietly(h.t.db, s.userId, 'While Deaf');
    // The first request may meet a connection the pool has not seen die yet (a 503); the next reads afresh.
    const names = await eventually(async () => (await me(other.app, s.token)).json()?.fullName === 'While Deaf');
    expect(names).toBe(true);
  });
});

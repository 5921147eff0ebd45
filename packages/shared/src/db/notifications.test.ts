import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/clone.js';
import type { TestDatabase } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import type { NotificationListener } from './raw-client.js';

// RawPool.listen, which the session caches rely on: what a connection of the pool commits is
// delivered before its COMMIT resolves; rolled-back work delivers nothing; on PostgreSQL, another
// client's commit reaches the pool, and the pool says when no connection listens any more.
let t: TestDatabase<any>;
const heard: string[] = [];
const states: boolean[] = [];
const listener: NotificationListener = { notify: (p) => heard.push(p), listening: (up) => states.push(up) };
let stop: () => void;

beforeAll(async () => {
  t = await freshDatabase('accounting', 'accounting_app', { poolSize: 3 });
  stop = await t.db.raw.listen('pool_test', listener);
  const conn = await t.db.raw.acquire();
  try {
    await conn.script(`CREATE TABLE notified (id int PRIMARY KEY, v int);
      CREATE FUNCTION notify_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('pool_test', 'row:' || NEW.id); RETURN NULL; END $$;
      CREATE TRIGGER notify_test AFTER INSERT OR UPDATE ON notified FOR EACH ROW EXECUTE FUNCTION notify_test();`);
  } finally {
    t.db.raw.release(conn);
  }
});
afterAll(async () => {
  stop?.();
  await t?.destroy();
});

async function onOneConnection(script: string): Promise<void> {
  const conn = await t.db.raw.acquire();
  try {
    await conn.script(script);
  } finally {
    t.db.raw.release(conn);
  }
}

describe('pool notifications', () => {
  it('says a connection listens once one has sent LISTEN', () => {
    expect(states).toEqual([true]);
  });

  it("delivers a transaction's notifications before its COMMIT resolves, once per payload", async () => {
    heard.length = 0;
    await onOneConnection('BEGIN; INSERT INTO notified VALUES (1, 0); UPDATE notified SET v = 1 WHERE id = 1; COMMIT');
    // Nothing awaited in between: the connection that committed delivered it first. Every
    // connection listening delivers it once (here those the pool has opened so far).
    expect(heard.length).toBeGreaterThanOrEqual(1);
    expect(new Set(heard)).toEqual(new Set(['row:1']));
  });

  it('delivers nothing for work that is rolled back', async () => {
    await new Promise((r) => setTimeout(r, 50));
    heard.length = 0;
    await onOneConnection('BEGIN; INSERT INTO notified VALUES (2, 0); ROLLBACK');
    await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual([]);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('hears what another client commits (PostgreSQL)', async () => {
    heard.length = 0;
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query('INSERT INTO notified VALUES (3, 0)');
    } finally {
      await other.end();
    }
    // Pushed to the idle connections of the pool as the commit completes.
    expect(await eventually(async () => heard.includes('row:3'))).toBe(true);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'says when no connection listens any more, and when one listens again (PostgreSQL)',
    async () => {
      states.length = 0;
      const admin = new pg.Client({ connectionString: t.url });
      await admin.connect();
      try {
        // Every connection of the pool is gone (as when the server restarts, or the pool closes idle ones).
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
      } finally {
        await admin.end();
      }
      expect(await eventually(async () => states.includes(false))).toBe(true);
      expect(states).toEqual([false]);
      // The next statement runs on a new connection, which listens before it.
      await onOneConnection('SELECT 1').catch(() => onOneConnection('SELECT 1'));
      expect(states).toEqual([false, true]);
    },
  );
});

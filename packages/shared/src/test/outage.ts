import pg from 'pg';
import { expect, it } from 'vitest';
import { type Database, openRawPool, wrapPool } from '../db/database.js';
import type { TestDatabase } from './databases.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** Why outage tests skip on the embedded database: they need a server whose connections can be cut. */
export const OUTAGE_SKIP_REASON = 'needs TEST_DATABASE_URL (a real PostgreSQL server to cut off)';

export interface DatabaseBehindProxy<DB> {
  /** The service's database, reached through the proxy. */
  db: Database<DB>;
  proxy: TcpProxy;
  /** Terminates every backend of this database (pg_terminate_backend), as an administrator would. */
  terminateBackends(): Promise<number>;
  close(): Promise<void>;
}

/** The test database of `t` (a PostgreSQL clone), reached through a TCP proxy that can go down. */
export async function databaseBehindProxy<DB>(t: TestDatabase<DB>, appRole: string): Promise<DatabaseBehindProxy<DB>> {
  const direct = new URL(t.url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(t.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const raw = await openRawPool({ url: viaProxy.toString(), appRole, poolSize: 4 });
  const db = wrapPool<DB>(raw, appRole);
  return {
    db,
    proxy,
    async terminateBackends() {
      const admin = new pg.Client({ connectionString: t.url });
      await admin.connect();
      try {
        const r = await admin.query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        return r.rows[0].n as number;
      } finally {
        await admin.end();
      }
    },
    async close() {
      await proxy.up().catch(() => {});
      await db.close().catch(() => {});
      await proxy.close();
    },
  };
}

/** What the scenarios read from an injected response. */
interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): any;
}

/**
 * The G15 scenarios both services must pass, run with each service's own route and outage
 * answer: (1) the server unreachable, then back, with no restart; (2) an administrator
 * terminating every backend, which must read as the outage, never as an internal error. Call
 * inside the describe block that builds the app on `databaseBehindProxy`.
 */
export function outageScenarios(opts: {
  cut: () => Pick<DatabaseBehindProxy<unknown>, 'proxy' | 'terminateBackends'>;
  /** A route that reads the database for a signed-in caller. */
  request: () => Promise<Answer>;
  health: () => Promise<Answer>;
  /** How the service names its outage answer in the test titles, e.g. "500 SVC-9006". */
  outage: string;
  /** The answer that must never appear instead, e.g. "SVC-9004". */
  never: string;
  /** The service's outage answer: status, envelope and Retry-After. */
  expectOutage: (res: Answer) => void;
}): void {
  it(`answers ${opts.outage} with Retry-After: 1 while the server is unreachable, and recovers without a restart`, async () => {
    expect((await opts.health()).statusCode).toBe(200);
    await opts.cut().proxy.down();

    const during = await opts.request();
    opts.expectOutage(during);
    expect(during.headers['retry-after']).toBe('1');
    const sick = await opts.health();
    expect(sick.statusCode).toBe(503);
    expect(sick.json()).toMatchObject({ status: 'error', db: 'disconnected' });

    await opts.cut().proxy.up();
    // Recovery needs a fresh connection (TCP, authentication, the role), which a loaded machine may not
    // finish within one ping's 800 ms; the service must recover by itself within a few seconds.
    await expect.poll(async () => (await opts.health()).statusCode, { timeout: 10_000, interval: 200 }).toBe(200);
    expect((await opts.request()).statusCode).toBe(200);
  });

  it(`answers the outage code, never ${opts.never}, when an administrator terminates the backends`, async () => {
    expect((await opts.request()).statusCode).toBe(200);
    // The pool would drop an idle connection as soon as it hears the server end it, so that news is
    // held back until a request has taken one: that request meets a dead connection, as one does
    // whose connection dies while it runs, and must answer the outage.
    const { proxy } = opts.cut();
    proxy.hold();
    let during: Promise<Answer>;
    try {
      expect(await opts.cut().terminateBackends()).toBeGreaterThan(0);
      during = opts.request();
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      proxy.release();
    }
    const answers: Answer[] = [await during];
    for (let i = 0; i < 3; i++) answers.push(await opts.request());
    // A scenario in which every request succeeded would prove nothing about the outage answer.
    const failed = answers.filter((res) => res.statusCode !== 200);
    expect(failed.length, 'no request saw the outage answer').toBeGreaterThan(0);
    for (const res of failed) {
      opts.expectOutage(res);
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(answers.at(-1)!.statusCode).toBe(200);
    expect((await opts.health()).statusCode).toBe(200);
  });
}

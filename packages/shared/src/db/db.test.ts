import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/clone.js';
import type { TestDatabase } from '../test/databases.js';

// Exercises the context layer against the accounting schema (the first service to use it).
let t: TestDatabase<any>;
beforeAll(async () => {
  t = await freshDatabase('accounting', 'accounting_app');
});
afterAll(() => t?.destroy());

async function org(name: string): Promise<string> {
  const row = await t.db.system
    .insertInto('organizations')
    .values({ name, base_currency: 'EUR', country: 'RS', language: 'sr', fiscal_year_start: '2026-01-01' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('database context', () => {
  it('runs tenant queries as the restricted role with the organization set', async () => {
    const a = await org('A');
    const r = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      sql<{ who: string; org: string }>`select current_user as who, current_setting('app.org_id') as org`.execute(db),
    );
    expect(r.rows[0]).toEqual({ who: 'accounting_app', org: a });
  });

  it('keeps the context right when one connection alternates between organizations', async () => {
    const a = await org('Alt A');
    const b = await org('Alt B');
    for (let i = 0; i < 3; i++) {
      for (const [id, name] of [
        [a, 'Alt A'],
        [b, 'Alt B'],
      ]) {
        const rows = await t.db.withContext({ kind: 'tenant', orgId: id }, (db) =>
          db.selectFrom('organizations').select('name').execute(),
        );
        expect(rows).toEqual([{ name }]);
      }
    }
  });

  it('restores the cached context correctly after a rolled-back transaction', async () => {
    const a = await org('RB A');
    const b = await org('RB B');
    await expect(
      t.db.withContext({ kind: 'tenant', orgId: b }, (db) =>
        db.transaction().execute(async (trx) => {
          await trx.updateTable('organizations').set({ name: 'changed' }).execute();
          throw new Error('abort');
        }),
      ),
    ).rejects.toThrow('abort');
    // The SET ROLE inside the aborted transaction was undone by ROLLBACK; the layer must notice.
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select('name').execute(),
    );
    expect(rows).toEqual([{ name: 'RB A' }]);
    const who = await t.db.withContext({ kind: 'anonymous' }, (db) =>
      sql<{ u: string }>`select current_user as u`.execute(db),
    );
    expect(who.rows[0].u).toBe('accounting_app');
  });

  it('refuses a second connection requested while one is held (it would deadlock PGlite)', async () => {
    const a = await org('Nested');
    await expect(
      t.db.withContext({ kind: 'tenant', orgId: a }, async () =>
        t.db.system.selectFrom('organizations').selectAll().execute(),
      ),
    ).rejects.toThrow(/second database connection/);
    await expect(
      t.db.withContext({ kind: 'tenant', orgId: a }, async () =>
        t.db.withContext({ kind: 'anonymous' }, async () => 1),
      ),
    ).rejects.toThrow(/second database connection/);
  });

  it('shows no tenant rows to the anonymous context', async () => {
    await org('Hidden');
    const rows = await t.db.withContext({ kind: 'anonymous' }, (db) =>
      db.selectFrom('organizations').selectAll().execute(),
    );
    expect(rows).toEqual([]);
  });

  it("applies each organization's context when consecutive queries switch organizations on one connection", async () => {
    const ids = await Promise.all(['Sw 1', 'Sw 2', 'Sw 3'].map(org));
    for (let round = 0; round < 3; round++) {
      for (const [i, id] of ids.entries()) {
        const rows = await t.db.withContext({ kind: 'tenant', orgId: id }, (db) =>
          sql<{
            name: string;
            org: string;
          }>`select name, current_setting('app.org_id') as org from organizations`.execute(db),
        );
        expect(rows.rows).toEqual([{ name: `Sw ${i + 1}`, org: id }]);
      }
    }
  });

  it('commits a transaction together with the statement given to end.commitWith', async () => {
    const a = await org('Commit A');
    const renamed = await t.db.transaction({ kind: 'tenant', orgId: a }, async (trx, end) => {
      const r = await end.commitWith(() =>
        trx.executeQuery<{ name: string }>(
          CompiledQuery.raw(`UPDATE organizations SET name = 'Commit A2' WHERE id = $1 RETURNING name`, [a]),
        ),
      );
      // The transaction is over: another statement in it is a programming error.
      await expect(trx.selectFrom('organizations').select('name').execute()).rejects.toThrow(/commitWith/);
      return r.rows[0].name;
    });
    expect(renamed).toBe('Commit A2');
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select('name').execute(),
    );
    expect(rows).toEqual([{ name: 'Commit A2' }]);
  });

  it('sends the COMMIT of end.commitWith in the round trip of its statement, not after it', async () => {
    const a = await org('Trip A');
    const sent: string[] = [];
    const pool = t.db.raw;
    const acquire = pool.acquire;
    const restore: Array<() => void> = [];
    const wrapped = new Set<unknown>();
    pool.acquire = async () => {
      const conn = await acquire.call(pool);
      // The embedded backend hands out its one connection again: wrap it once.
      if (wrapped.has(conn)) return conn;
      wrapped.add(conn);
      const { script, pipelined } = conn;
      // The embedded backend's pipelined() runs its parts through script(): count the outer call only.
      let inside = false;
      conn.script = (sql) => {
        if (!inside) sent.push(`alone: ${sql}`);
        return script.call(conn, sql);
      };
      conn.pipelined = async (before, sql, params, after, lead) => {
        sent.push(`with the statement: ${after ?? '-'}${lead ? `, after ${lead.sql}` : ''}`);
        inside = true;
        try {
          return await pipelined.call(conn, before, sql, params, after, lead);
        } finally {
          inside = false;
        }
      };
      restore.push(() => Object.assign(conn, { script, pipelined }));
      return conn;
    };
    const lead = `UPDATE organizations SET country = 'HR' WHERE id = $1`;
    try {
      await t.db.transaction({ kind: 'tenant', orgId: a }, (trx, end) =>
        end.commitWith(() => trx.updateTable('organizations').set({ name: 'Trip A2' }).where('id', '=', a).execute()),
      );
      // A lead statement travels in the same round trip, ahead of the last one.
      await t.db.transaction({ kind: 'tenant', orgId: a }, (trx, end) =>
        end.commitWith(
          () => trx.updateTable('organizations').set({ name: 'Trip A3' }).where('id', '=', a).execute(),
          CompiledQuery.raw(lead, [a]),
        ),
      );
    } finally {
      pool.acquire = acquire;
      for (const r of restore) r();
    }
    expect(sent).toEqual(['with the statement: COMMIT', `with the statement: COMMIT, after ${lead}`]);
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select(['name', 'country']).execute(),
    );
    expect(rows).toEqual([{ name: 'Trip A3', country: 'HR' }]);
  });

  it("rolls back everything when end.commitWith's lead fails, and throws the lead's error", async () => {
    const a = await org('Lead A');
    await expect(
      t.db.transaction({ kind: 'tenant', orgId: a }, async (trx, end) => {
        await trx.updateTable('organizations').set({ name: 'Lead A2' }).where('id', '=', a).execute();
        await end.commitWith(
          () => trx.updateTable('organizations').set({ name: 'Lead A3' }).where('id', '=', a).execute(),
          CompiledQuery.raw(`UPDATE organizations SET country = $2 WHERE id = $1`, [a, 'too long a country code']),
        );
      }),
    ).rejects.toThrow(/organizations_country_check/);
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select(['name', 'country']).execute(),
    );
    expect(rows).toEqual([{ name: 'Lead A', country: 'RS' }]);
  });

  it('rolls back everything when the statement given to end.commitWith fails', async () => {
    const a = await org('Fail A');
    await expect(
      t.db.transaction({ kind: 'tenant', orgId: a }, async (trx, end) => {
        await trx.updateTable('organizations').set({ name: 'Fail A2' }).where('id', '=', a).execute();
        await end.commitWith(() =>
          trx.executeQuery(
            CompiledQuery.raw(`UPDATE organizations SET country = $2 WHERE id = $1`, [a, 'too long a country code']),
          ),
        );
      }),
    ).rejects.toThrow();
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select(['name', 'country']).execute(),
    );
    expect(rows).toEqual([{ name: 'Fail A', country: 'RS' }]);
  });

  it('refuses an end.commitWith that sends no statement, and writes nothing', async () => {
    const a = await org('Empty A');
    await expect(
      t.db.transaction({ kind: 'tenant', orgId: a }, async (trx, end) => {
        await trx.updateTable('organizations').set({ name: 'Empty A2' }).where('id', '=', a).execute();
        await end.commitWith(async () => null);
      }),
    ).rejects.toThrow(/sent no statement/);
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select('name').execute(),
    );
    expect(rows).toEqual([{ name: 'Empty A' }]);
  });

  it('keeps a transaction whose first statement fails from writing anything', async () => {
    const a = await org('First A');
    await expect(
      t.db.transaction({ kind: 'tenant', orgId: a }, async (trx) => {
        await trx
          .updateTable('organizations')
          .set({ country: 'too long a country code' })
          .where('id', '=', a)
          .execute();
      }),
    ).rejects.toThrow();
    const rows = await t.db.withContext({ kind: 'tenant', orgId: a }, (db) =>
      db.selectFrom('organizations').select(['country']).execute(),
    );
    expect(rows).toEqual([{ country: 'RS' }]);
  });
});

import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRawPool } from '@app/shared/db/database';
import { migrate } from '@app/shared/db/migrate';
import type { RawPool } from '@app/shared/db/raw-client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type TestApp } from './helpers.js';

// Issue 31: audit rows keep their values as JSON arrays with the column names once per shape
// (migration 20261204000100); logged_actions reads them back as the objects they were.

const MIGRATIONS = join(import.meta.dirname, '..', 'src', 'db', 'migrations');
const SHAPES_MIGRATION = '20261204000100_audit_shapes.sql';

async function rows(pool: RawPool, text: string, params: unknown[] = []) {
  const conn = await pool.acquire();
  try {
    return (await conn.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    pool.release(conn);
  }
}

describe('audit shapes: the upgrade', () => {
  let pool: RawPool;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-shapes-'));
    for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < SHAPES_MIGRATION)) {
      cpSync(join(MIGRATIONS, f), join(dir, f));
    }
    pool = await openRawPool({ url: 'memory://', appRole: '' });
    await migrate(pool, dir);
  });
  afterAll(async () => {
    await pool?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every row written before it as it read then', async () => {
    const [org] = await rows(
      pool,
      `INSERT INTO organizations (name, base_currency, country, language, fiscal_year_start)
       VALUES ('Stara d.o.o.', 'RSD', 'RS', 'sr', '2026-01-01') RETURNING id`,
    );
    const [contact] = await rows(
      pool,
      `INSERT INTO contacts (organization_id, type, name, city, currency_code)
       VALUES ($1, 'customer', 'Kupac', 'Niš', 'RSD') RETURNING id`,
      [org.id],
    );
    await rows(pool, `UPDATE contacts SET name = 'Kupac 2', city = NULL WHERE id = $1`, [contact.id]);
    await rows(pool, 'UPDATE contacts SET name = name WHERE id = $1', [contact.id]);
    await rows(pool, 'DELETE FROM contacts WHERE id = $1', [contact.id]);
    const read = `SELECT id, organization_id, table_name, action, record_id, user_id, request_id, old_values, new_values, created_at
                    FROM logged_actions ORDER BY id`;
    const before = await rows(pool, read);
    expect(before.map((r) => `${r.table_name} ${r.action}`)).toEqual([
      'organizations INSERT',
      'contacts INSERT',
      'contacts UPDATE',
      'contacts UPDATE',
      'contacts DELETE',
    ]);
    expect(before[2]).toMatchObject({
      old_values: { name: 'Kupac', city: 'Niš' },
      new_values: { name: 'Kupac 2', city: null },
    });

    await migrate(pool, MIGRATIONS);

    expect(await rows(pool, read)).toEqual(before);
    // Stored without their names: arrays in the order of the shape's columns.
    const stored = await rows(
      pool,
      `SELECT a.old_values, a.new_values, s.table_name, s.columns
         FROM audit_rows a JOIN audit_shapes s ON s.id = a.shape_id ORDER BY a.id`,
    );
    expect(stored[2]).toEqual({
      table_name: 'contacts',
      columns: ['city', 'name'],
      old_values: ['Niš', 'Kupac'],
      new_values: [null, 'Kupac 2'],
    });
    expect(stored[3]).toMatchObject({ columns: [], old_values: [], new_values: [] });
    expect(stored[1].old_values).toBeNull();
    expect(stored[4].new_values).toBeNull();
    expect(stored[1].new_values).toEqual(
      (stored[1].columns as string[]).map((c) => (before[1].new_values as Record<string, unknown>)[c]),
    );
  });
});

describe('audit shapes: writing', () => {
  let h: TestApp;
  beforeAll(async () => {
    h = await buildTestApp();
  });
  afterAll(() => h?.close());

  const shapesOf = (table: string) =>
    h.t.db.system.selectFrom('audit_shapes').select(['id', 'columns']).where('table_name', '=', table).execute();

  it('names each column once per shape, and the audit API reads the values with their names', async () => {
    const s = await registerOrg(h.app);
    const payload = { type: 'customer', name: 'Oblik', email: 'oblik@example.test', city: 'Tuzla' };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.app.inject(
        authed(s.token, { method: 'POST', url: '/api/v1/contacts', payload: { ...payload, name: `Oblik ${i}` } }),
      );
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const stored = await h.t.db.system
      .selectFrom('audit_rows')
      .select(['shape_id', 'new_values', 'record_id'])
      .where('record_id', 'in', ids)
      .execute();
    expect(stored).toHaveLength(3);
    expect(new Set(stored.map((r) => r.shape_id)).size).toBe(1);
    const [shape] = (await shapesOf('contacts')).filter((r) => r.id === stored[0].shape_id);
    expect(shape.columns).toEqual(expect.arrayContaining(['name', 'email', 'city', 'type']));
    for (const r of stored) expect(Array.isArray(r.new_values)).toBe(true);

    const res = await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/audit-log?recordId=${ids[1]}` }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(1);
    expect(res.json().data[0]).toMatchObject({
      tableName: 'contacts',
      action: 'INSERT',
      recordId: ids[1],
      oldValues: null,
      newValues: { name: 'Oblik 1', email: 'oblik@example.test', city: 'Tuzla', type: 'customer' },
    });
  });

  it('computes a shape id in place, not as a function call planned again in every transaction', async () => {
    // Migration 20261206000100: a SQL function is inlined only when its body is no more volatile than
    // it is declared; audit_shape_id() declared IMMUTABLE over a STABLE cast was called, not inlined.
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (VERBOSE, COSTS OFF)
      SELECT audit_shape_id(table_name, columns) FROM audit_shapes`.execute(h.t.db.system);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('hashtextextended');
    expect(text).not.toContain('audit_shape_id(');
  });

  it('keeps no shape of a write that rolled back, and writes it again with the next write', async () => {
    const s = await registerOrg(h.app);
    // A contact with a column list no contact had before: a shape first seen in this transaction.
    const fresh = { type: 'vendor', name: 'Novi oblik', postalCode: '71000', country: 'BA', notes: 'prvi' };
    const before = (await shapesOf('contacts')).length;
    await sql`CREATE OR REPLACE FUNCTION test_fail_after_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected failure'; END $$`.execute(h.t.db.system);
    await sql`CREATE CONSTRAINT TRIGGER test_fail AFTER INSERT ON contacts DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION test_fail_after_audit()`.execute(h.t.db.system);
    try {
      const failed = await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/contacts', payload: fresh }));
      expect(failed.statusCode).toBe(500);
      expect((await shapesOf('contacts')).length).toBe(before);
    } finally {
      await sql`DROP TRIGGER test_fail ON contacts`.execute(h.t.db.system);
    }
    const ok = await h.app.inject(authed(s.token, { method: 'POST', url: '/api/v1/contacts', payload: fresh }));
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await shapesOf('contacts')).length).toBe(before + 1);
    const [logged] = await h.t.db.system
      .selectFrom('logged_actions')
      .selectAll()
      .where('record_id', '=', ok.json().id)
      .execute();
    expect(logged.new_values).toMatchObject({ name: 'Novi oblik', postal_code: '71000', country: 'BA', notes: 'prvi' });
  });

  it('refuses a write whose shape id another column list holds, rather than name its values wrongly', async () => {
    const s = await registerOrg(h.app);
    const created = await h.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/contacts', payload: { type: 'customer', name: 'Sudar' } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const rename = (name: string) =>
      h.app.inject(authed(s.token, { method: 'PUT', url: `/api/v1/contacts/${id}`, payload: { name } }));
    expect((await rename('Sudar 1')).statusCode).toBe(200);
    // The shape a rename records, and another column list planted under its id.
    const shape = await h.t.db.system
      .selectFrom('audit_rows')
      .innerJoin('audit_shapes', 'audit_shapes.id', 'audit_rows.shape_id')
      .select(['audit_shapes.id', 'audit_shapes.columns'])
      .where('record_id', '=', id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(shape.columns).toContain('name');
    const plant = (columns: string[]) =>
      h.t.db.system.transaction().execute(async (trx) => {
        await trx.deleteFrom('audit_shapes').where('id', '=', shape.id).execute();
        await trx.insertInto('audit_shapes').values({ id: shape.id, table_name: 'contacts', columns }).execute();
      });
    await plant(['email']);
    try {
      const res = await rename('Sudar 2');
      expect(res.statusCode).toBe(500);
      expect(res.json().error.code).toBe('SVC-9006');
      const contact = await h.t.db.system.selectFrom('contacts').select('name').where('id', '=', id).executeTakeFirst();
      expect(contact?.name).toBe('Sudar 1');
      expect(
        await h.t.db.system
          .selectFrom('audit_rows')
          .select('action')
          .where('record_id', '=', id)
          .orderBy('id')
          .execute(),
      ).toEqual([{ action: 'INSERT' }, { action: 'UPDATE' }]);
    } finally {
      await plant(shape.columns);
    }
    expect((await rename('Sudar 3')).statusCode).toBe(200);
    const names = await h.t.db.system
      .selectFrom('logged_actions')
      .select('new_values')
      .where('record_id', '=', id)
      .where('action', '=', 'UPDATE')
      .orderBy('id')
      .execute();
    expect(names.map((r) => (r.new_values as { name: string }).name)).toEqual(['Sudar 1', 'Sudar 3']);
  });
});

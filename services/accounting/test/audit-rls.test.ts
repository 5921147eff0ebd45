import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, authed, buildTestApp, registerOrg, type TestApp, uniqueEmail } from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

const auditRows = (orgId: string) =>
  h.t.db.system.selectFrom('logged_actions').selectAll().where('organization_id', '=', orgId).orderBy('id').execute();

describe('audit log (A20)', () => {
  it('writes a row for each insert, update and delete, with user, request id and values', async () => {
    const s = await registerOrg(h.app);
    const afterRegister = await auditRows(s.orgId);
    expect(afterRegister.filter((r) => r.table_name === 'organizations' && r.action === 'INSERT')).toHaveLength(1);
    expect(afterRegister.filter((r) => r.table_name === 'accounts')).toHaveLength(17);
    expect(afterRegister.every((r) => r.user_id === s.userId)).toBe(true);
    // Secrets never reach the log.
    const userInsert = afterRegister.find((r) => r.table_name === 'users')!;
    expect(userInsert.new_values).not.toHaveProperty('password_hash');
    expect(afterRegister.find((r) => r.table_name === 'refresh_tokens')!.new_values).not.toHaveProperty('token_hash');

    const res = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        headers: { 'x-request-id': 'audit-req-1' },
        payload: { name: 'Renamed' },
      }),
    );
    expect(res.headers['x-request-id']).toBe('audit-req-1');
    const update = (await auditRows(s.orgId)).find((r) => r.request_id === 'audit-req-1')!;
    expect(update).toMatchObject({
      table_name: 'organizations',
      action: 'UPDATE',
      record_id: s.orgId,
      user_id: s.userId,
    });
    expect(update.old_values).toMatchObject({ name: 'Test d.o.o.' });
    expect(update.new_values).toMatchObject({ name: 'Renamed' });
  });

  it('keeps each value once: no ids or nulls in an insert, only the changed columns of an update (issue 31)', async () => {
    const s = await registerOrg(h.app);
    const created = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/contacts',
        payload: { type: 'customer', name: 'Audit Kupac', email: 'kupac@example.test', city: 'Beograd' },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const rowsOf = async () => (await auditRows(s.orgId)).filter((r) => r.record_id === id);
    const [insert] = await rowsOf();
    expect(insert).toMatchObject({ table_name: 'contacts', action: 'INSERT', old_values: null });
    const inserted = insert.new_values as Record<string, unknown>;
    expect(inserted).toMatchObject({
      name: 'Audit Kupac',
      email: 'kupac@example.test',
      city: 'Beograd',
      type: 'customer',
    });
    // The record and organization ids are the audit row's own columns; a column absent was null.
    expect(inserted).not.toHaveProperty('id');
    expect(inserted).not.toHaveProperty('organization_id');
    expect(Object.values(inserted)).not.toContain(null);
    const stored = await h.t.db.system
      .selectFrom('contacts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    for (const [k, v] of Object.entries(stored)) {
      if (k === 'id' || k === 'organization_id') continue;
      if (v === null) expect(inserted, k).not.toHaveProperty(k);
      else expect(inserted, k).toHaveProperty(k);
    }

    const updated = await h.app.inject(
      authed(s.token, { method: 'PUT', url: `/api/v1/contacts/${id}`, payload: { name: 'Audit Kupac 2', city: null } }),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    const update = (await rowsOf()).find((r) => r.action === 'UPDATE')!;
    const changedKeys = Object.keys(update.new_values as object).sort();
    expect(changedKeys).toContain('name');
    expect(changedKeys).toContain('city');
    expect(changedKeys).not.toContain('email');
    expect(Object.keys(update.old_values as object).sort()).toEqual(changedKeys);
    expect(update.old_values).toMatchObject({ name: 'Audit Kupac', city: 'Beograd' });
    // A change to null is kept, as JSON null.
    expect(update.new_values).toMatchObject({ name: 'Audit Kupac 2', city: null });

    // The API archives a contact (an update); a row deleted in the database is logged too.
    await h.t.db.system.deleteFrom('contacts').where('id', '=', id).execute();
    const del = (await rowsOf()).find((r) => r.action === 'DELETE')!;
    expect(del.new_values).toBeNull();
    expect(del.old_values).toMatchObject({ name: 'Audit Kupac 2', email: 'kupac@example.test' });
    expect(del.old_values).not.toHaveProperty('city');
    expect(del.old_values).not.toHaveProperty('id');
  });

  it('writes no row for a write that failed and rolled back', async () => {
    const s = await registerOrg(h.app);
    const email = uniqueEmail('rollback');
    // Make the second insert of the invite transaction fail after the first one succeeded.
    await sql`CREATE OR REPLACE FUNCTION test_fail_invitation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected failure'; END $$`.execute(h.t.db.system);
    await sql`CREATE TRIGGER test_fail BEFORE INSERT ON invitations FOR EACH ROW EXECUTE FUNCTION test_fail_invitation()`.execute(
      h.t.db.system,
    );
    try {
      const before = (await auditRows(s.orgId)).length;
      const res = await h.app.inject(
        authed(s.token, {
          method: 'POST',
          url: '/api/v1/users/invite',
          payload: { email, fullName: 'Never', role: 'viewer' },
        }),
      );
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toMatchObject({ code: 'SVC-9006', requestId: res.headers['x-request-id'] });
      expect(res.json().error.message).not.toContain('injected');
      const user = await h.t.db.system.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      expect(user).toBeUndefined();
      expect((await auditRows(s.orgId)).length).toBe(before);
    } finally {
      await sql`DROP TRIGGER test_fail ON invitations`.execute(h.t.db.system);
    }
  });

  it('lists the log for owners and admins with filters and pagination', async () => {
    const s = await registerOrg(h.app);
    const admin = await addMember(h.app, s, 'admin');
    await h.app.inject(authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { name: 'One' } }));
    await h.app.inject(authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { name: 'Two' } }));
    const res = await h.app.inject(
      authed(admin.token, { method: 'GET', url: '/api/v1/audit-log?tableName=organizations&action=UPDATE&perPage=1' }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ total: 2, page: 1, perPage: 1, totalPages: 2 });
    expect(body.data[0]).toMatchObject({
      tableName: 'organizations',
      action: 'UPDATE',
      recordId: s.orgId,
      newValues: expect.objectContaining({ name: 'Two' }),
    });
    const asc = await h.app.inject(
      authed(s.token, { method: 'GET', url: `/api/v1/audit-log?recordId=${s.orgId}&order=asc` }),
    );
    expect(asc.json().data.map((r: { action: string }) => r.action)).toEqual(['INSERT', 'UPDATE', 'UPDATE']);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await h.app.inject(
      authed(s.token, {
        method: 'GET',
        url: `/api/v1/audit-log?fromDate=${today}&toDate=${today}&tableName=organizations`,
      }),
    );
    expect(dated.json().meta.total).toBe(3);
    const past = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/audit-log?toDate=2000-01-01' }));
    expect(past.json().meta.total).toBe(0);
    const bad = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/audit-log?perPage=101' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('SVC-9008');
    const badSort = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/audit-log?sort=secret' }));
    expect(badSort.json().error.code).toBe('SVC-9008');
  });

  it('leaves out the sign-in records with sessions=false, unless the table filter names them', async () => {
    const s = await registerOrg(h.app);
    await h.app.inject(authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { name: 'Renamed' } }));
    const tables = async (query: string) => {
      const res = await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/audit-log?perPage=100${query}` }));
      expect(res.statusCode, res.body).toBe(200);
      return new Set(res.json().data.map((r: { tableName: string }) => r.tableName));
    };
    // Registering signed the owner in: its session and refresh token are in the full log.
    const all = await tables('');
    expect(all.has('sessions') || all.has('refresh_tokens')).toBe(true);
    const changes = await tables('&sessions=false');
    expect(changes.has('sessions') || changes.has('refresh_tokens')).toBe(false);
    expect(changes.has('organizations')).toBe(true);
    expect([...changes].sort()).toEqual([...all].filter((t) => t !== 'sessions' && t !== 'refresh_tokens').sort());
    expect([...(await tables('&sessions=true'))].sort()).toEqual([...all].sort());
    const named = await tables('&sessions=false&tableName=refresh_tokens');
    expect([...named]).toEqual(['refresh_tokens']);
  });
});

describe('row-level security (A21)', () => {
  it("shows only the caller's rows even when a query forgets its organization filter", async () => {
    const a = await registerOrg(h.app);
    const b = await registerOrg(h.app);
    await addMember(h.app, b, 'viewer');
    const users = await h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
      db.selectFrom('users').select('organization_id').execute(),
    );
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(users.map((u) => u.organization_id))).toEqual(new Set([a.orgId]));
    const accounts = await h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
      db.selectFrom('accounts').select('organization_id').execute(),
    );
    expect(accounts).toHaveLength(17);
    const audit = await h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
      db.selectFrom('logged_actions').select('organization_id').distinct().execute(),
    );
    expect(audit).toEqual([{ organization_id: a.orgId }]);
  });

  it('refuses to write a row into another organization, and updates nothing there', async () => {
    const a = await registerOrg(h.app);
    const b = await registerOrg(h.app);
    await expect(
      h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
        db
          .insertInto('tax_rates')
          .values({ organization_id: b.orgId, position: 9, name: 'Evil', rate: '1', description: '' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    const updated = await h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
      db.updateTable('organizations').set({ name: 'Hijacked' }).where('id', '=', b.orgId).executeTakeFirst(),
    );
    expect(updated.numUpdatedRows).toBe(0n);
  });

  it('runs tenant queries as a role that is neither superuser nor table owner, and cannot touch the audit log', async () => {
    const a = await registerOrg(h.app);
    const role = await h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, (db) =>
      sql<{
        name: string;
        superuser: boolean;
        bypass: boolean;
      }>`SELECT current_user AS name, rolsuper AS superuser, rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user`.execute(
        db,
      ),
    );
    expect(role.rows[0]).toEqual({ name: 'accounting_app', superuser: false, bypass: false });
    const owner = await h.t.db.system
      .selectFrom('pg_tables' as never)
      .select('tableowner' as never)
      .where('tablename' as never, '=', 'users' as never)
      .executeTakeFirst();
    expect(owner).not.toEqual({ tableowner: 'accounting_app' });
    // The audit rows and their column lists (migration 20261204000100) are written only by the
    // triggers; the logged_actions view reads them and cannot be written through.
    const tenant = <T>(fn: (db: Parameters<Parameters<typeof h.t.db.withContext>[1]>[0]) => Promise<T>) =>
      h.t.db.withContext({ kind: 'tenant', orgId: a.orgId }, fn);
    await expect(
      tenant((db) => db.deleteFrom('audit_rows').where('organization_id', '=', a.orgId).execute()),
    ).rejects.toThrow(/permission denied/);
    await expect(
      tenant((db) =>
        db.updateTable('audit_rows').set({ new_values: '[]' }).where('organization_id', '=', a.orgId).execute(),
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(tenant((db) => db.deleteFrom('audit_shapes').execute())).rejects.toThrow(/permission denied/);
    await expect(
      tenant((db) => db.insertInto('audit_shapes').values({ id: 1, table_name: 'contacts', columns: [] }).execute()),
    ).rejects.toThrow(/permission denied/);
    await expect(tenant((db) => sql`SELECT audit_shape('contacts', ARRAY['x'])`.execute(db))).rejects.toThrow(
      /permission denied/,
    );
    await expect(
      tenant((db) => db.deleteFrom('logged_actions').where('organization_id', '=', a.orgId).execute()),
    ).rejects.toThrow(/cannot delete from view/);
    expect((await tenant((db) => db.selectFrom('logged_actions').select('id').execute())).length).toBeGreaterThan(0);
  });
});

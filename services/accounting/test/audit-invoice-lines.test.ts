import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer } from './invoices-fixtures.js';

// Issue 31 (migration 20261205000300): an invoice's lines are audited once per statement (insert and
// delete), not once per line; the audit must read exactly as the per-row trigger wrote it.

let t: TestApp;
let s: Session;
let customerId: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  s = await registerOrg(t.app);
  customerId = (await createCustomer(t.app, s)).id;
});
afterAll(async () => t?.close());

const body = (descriptions: string[]) => ({
  customerId,
  invoiceDate: '2026-05-04',
  dueDate: '2026-06-03',
  items: descriptions.map((description, i) => ({ description, quantity: i + 1, unitPrice: 10, taxRate: 20 })),
});

/** A line as audit_row() recorded it: every column but id and organization, nulls left out. */
async function asRowTriggerWrote(itemIds: string[]) {
  const { rows } = await sql<{ id: string; values: Record<string, unknown> }>`
    SELECT id::text, jsonb_strip_nulls(to_jsonb(i) - 'id' - 'organization_id') AS values
      FROM invoice_items i WHERE id = ANY(${itemIds}::uuid[])`.execute(t.t.db.system);
  return new Map(rows.map((r) => [r.id, r.values]));
}

async function auditOf(recordId: string) {
  const res = await t.app.inject(
    authed(s.token, { method: 'GET', url: `/api/v1/audit-log?recordId=${recordId}&order=asc` }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<{
    tableName: string;
    action: string;
    userId: string | null;
    requestId: string | null;
    oldValues: Record<string, unknown> | null;
    newValues: Record<string, unknown> | null;
  }>;
}

describe('invoice lines audited per statement', () => {
  it('writes one insert entry per line, read as the per-row trigger wrote it, with the caller and the request', async () => {
    const created = await t.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/invoices',
        payload: body(['Prva', 'Druga', 'Treća']),
        headers: { 'x-request-id': 'lines-audit-1' },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const ids = created.json().items.map((i: { id: string }) => i.id) as string[];
    const expected = await asRowTriggerWrote(ids);
    for (const id of ids) {
      const entries = await auditOf(id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        tableName: 'invoice_items',
        action: 'INSERT',
        userId: s.userId,
        requestId: 'lines-audit-1',
        oldValues: null,
        newValues: expected.get(id),
      });
      expect(Object.values(entries[0].newValues ?? {})).not.toContain(null);
    }
    // One statement, one shape, the nulls (no account, no classification) kept in place.
    const stored = await t.t.db.system
      .selectFrom('audit_rows')
      .select(['shape_id', 'new_values'])
      .where('record_id', 'in', ids)
      .execute();
    expect(stored).toHaveLength(3);
    expect(new Set(stored.map((r) => r.shape_id)).size).toBe(1);
    expect((stored[0].new_values as unknown[]).includes(null)).toBe(true);
  });

  it('writes a delete entry per replaced line with its old values, and insert entries for the new lines', async () => {
    const created = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(['Stara 1', 'Stara 2']) }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const invoice = created.json();
    const oldIds = invoice.items.map((i: { id: string }) => i.id) as string[];
    const oldValues = await asRowTriggerWrote(oldIds);
    const put = await t.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: `/api/v1/invoices/${invoice.id}`,
        payload: body(['Nova']),
        headers: { 'x-request-id': 'lines-audit-2' },
      }),
    );
    expect(put.statusCode, put.body).toBe(200);
    for (const id of oldIds) {
      const entries = await auditOf(id);
      expect(entries.map((e) => e.action)).toEqual(['INSERT', 'DELETE']);
      expect(entries[1]).toMatchObject({
        tableName: 'invoice_items',
        userId: s.userId,
        requestId: 'lines-audit-2',
        oldValues: oldValues.get(id),
        newValues: null,
      });
      expect(entries[1].oldValues).toEqual(entries[0].newValues);
    }
    const [newLine] = put.json().items as Array<{ id: string }>;
    const entries = await auditOf(newLine.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'INSERT',
      requestId: 'lines-audit-2',
      newValues: (await asRowTriggerWrote([newLine.id])).get(newLine.id),
    });
  });

  it('still audits a line update per row, with only the changed values', async () => {
    const created = await t.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body(['Jedna']) }),
    );
    const [line] = created.json().items as Array<{ id: string }>;
    await sql`UPDATE invoice_items SET description = 'Izmijenjena' WHERE id = ${line.id}`.execute(t.t.db.system);
    const entries = await auditOf(line.id);
    expect(entries.map((e) => e.action)).toEqual(['INSERT', 'UPDATE']);
    expect(entries[1]).toMatchObject({
      oldValues: { description: 'Jedna' },
      newValues: { description: 'Izmijenjena' },
    });
  });

  it('has the statement-level triggers on invoice_items', async () => {
    const { rows } = await sql<{ def: string }>`
      SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger
       WHERE tgrelid = 'invoice_items'::regclass AND tgname LIKE 'audit%' ORDER BY tgname`.execute(t.t.db.system);
    expect(rows.map((r) => r.def.replace(/^CREATE TRIGGER (\S+) AFTER (\w+) .*FOR EACH (\w+).*$/, '$1 $2 $3'))).toEqual(
      ['audit UPDATE ROW', 'audit_delete DELETE STATEMENT', 'audit_insert INSERT STATEMENT'],
    );
  });
});

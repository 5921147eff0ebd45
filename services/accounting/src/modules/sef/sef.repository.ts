import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB>;

export function findSettings(db: Db, orgId: string) {
  return db.selectFrom('sef_settings').selectAll().where('organization_id', '=', orgId).executeTakeFirst();
}

export function findSettingsByWebhookToken(db: Db, token: string) {
  return db.selectFrom('sef_settings').selectAll().where('webhook_token', '=', token).executeTakeFirst();
}

/** The organizations whose SEF is switched on and has a key (the sync job's work). */
export function enabledSettings(db: Db) {
  return db
    .selectFrom('sef_settings')
    .innerJoin('organizations', 'organizations.id', 'sef_settings.organization_id')
    .selectAll('sef_settings')
    .where('enabled', '=', true)
    .where('api_key_ciphertext', 'is not', null)
    .where('organizations.country', '=', 'RS')
    .execute();
}

export function findDocument(db: Db, orgId: string, invoiceId: string, kind: 'invoice' | 'credit-note') {
  return db
    .selectFrom('sef_documents')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

export function documentsOf(db: Db, orgId: string, invoiceId: string) {
  return db
    .selectFrom('sef_documents')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .execute();
}

export type SefDocumentRow = NonNullable<Awaited<ReturnType<typeof findDocument>>>;

/**
 * Claims up to `limit` queued documents whose next attempt is due, and moves their next attempt
 * `leaseMs` ahead in the same committed statement: another instance (or the request that queued
 * one) skips them while this attempt runs; if this process dies, the lease runs out and the
 * document is tried again with the same requestId.
 */
export async function claimDue(db: Db, leaseMs: number, limit: number, only?: { orgId: string; id: string }) {
  const { rows } = await sql<SefDocumentRow>`
    UPDATE sef_documents d SET attempts = d.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    WHERE d.id IN (
      SELECT id FROM sef_documents
      WHERE status = 'Pending' AND next_attempt_at <= now()
        ${only ? sql`AND organization_id = ${only.orgId} AND id = ${only.id}` : sql``}
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING d.*`.execute(db);
  return rows;
}

export function updateDocument(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<{
    status: string;
    sales_invoice_id: number | null;
    last_error: string | null;
    next_attempt_at: Date | null;
    request_id: string;
    attempts: number;
  }>,
) {
  return db
    .updateTable('sef_documents')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function setStatusBySalesId(db: Db, orgId: string, salesInvoiceId: number, status: string) {
  return db
    .updateTable('sef_documents')
    .set({ status, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('sales_invoice_id', '=', salesInvoiceId)
    .where('status', '<>', status)
    .executeTakeFirst();
}

export function findPurchase(db: Db, orgId: string, id: string) {
  return db
    .selectFrom('purchase_invoices')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type PurchaseRow = NonNullable<Awaited<ReturnType<typeof findPurchase>>>;

export async function knownPurchaseIds(db: Db, orgId: string, source: 'sef' | 'hr-intermediary', ids: string[]) {
  if (!ids.length) return new Set<string>();
  const rows = await db
    .selectFrom('purchase_invoices')
    .select('external_id')
    .where('organization_id', '=', orgId)
    .where('source', '=', source)
    .where('external_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.external_id));
}

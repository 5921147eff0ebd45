import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/types.js';

/**
 * The invoice's state in SEF (CONTRACT D2): part of the invoice as the invoices module shows it, so
 * it lives here and the SEF module (which writes that state) imports it, not the other way round
 * (no folder loop, test/import-graph.test.ts).
 */
export const SefState = Type.Object({
  status: Type.String({
    description: "SEF's own status (Sent, Approved, Rejected, Cancelled, Storno, Mistake, ...) or Pending / Failed",
  }),
  requestId: Type.String({ format: 'uuid' }),
  salesInvoiceId: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
});

interface SefDocumentLike {
  status: string;
  request_id: string;
  sales_invoice_id: number | string | null;
  last_error: string | null;
  updated_at: Date | string;
}

export function presentSef(doc: SefDocumentLike | undefined | null) {
  if (!doc) return null;
  return {
    status: doc.status,
    requestId: doc.request_id,
    salesInvoiceId: doc.sales_invoice_id === null ? null : Number(doc.sales_invoice_id),
    lastError: doc.last_error,
    updatedAt: new Date(doc.updated_at).toISOString(),
  };
}

/** The invoice's own SEF state (not its credit note's), or null. */
export async function sefStateOf(db: Kysely<DB>, orgId: string, invoiceId: string) {
  const doc = await db
    .selectFrom('sef_documents')
    .select(['status', 'request_id', 'sales_invoice_id', 'last_error', 'updated_at'])
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();
  return presentSef(doc);
}

import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/types.js';
import { literalUnion } from '../../lib/schemas.js';

/**
 * The invoice's delivery through the Croatian information intermediary (issue 28): part of the
 * invoice as the invoices module shows it, so it lives here and the exchange module (which writes
 * it) imports it, not the other way round (no folder loop), as sef-state.ts.
 */
export const INTERMEDIARY_STATUSES = [
  'Pending',
  'Failed',
  'Sent',
  'Delivered',
  'Accepted',
  'Rejected',
  'Undeliverable',
] as const;
export type IntermediaryStatus = (typeof INTERMEDIARY_STATUSES)[number];

export const IntermediaryStatusSchema = literalUnion(INTERMEDIARY_STATUSES, {
  description:
    'Pending: recorded, not yet accepted by the intermediary (tried again with backoff; lastError says why); Failed: refused by the intermediary (its message in lastError) or not buildable; Sent: accepted by the intermediary; Delivered: downloaded by the recipient; Accepted / Rejected: the recipient decided (statusReason); Undeliverable: the intermediary could not deliver it',
});

export const IntermediaryState = Type.Object({
  status: IntermediaryStatusSchema,
  provider: Type.String({ description: 'the intermediary (moj-eracun)' }),
  idempotencyKey: Type.String({
    format: 'uuid',
    description: 'fixed and committed before the first call; kept for every retry',
  }),
  documentNumber: Type.String({ description: 'the e-invoice number the intermediary knows it by' }),
  documentId: Type.Union([Type.String(), Type.Null()], { description: "the intermediary's id (ElectronicId)" }),
  providerStatus: Type.Union([Type.String(), Type.Null()], { description: "the intermediary's own status name" }),
  statusReason: Type.Union([Type.String(), Type.Null()], { description: "the recipient's reason for a rejection" }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
});

export interface IntermediaryDocumentLike {
  status: string;
  idempotency_key: string;
  document_number: string;
  document_id: string | null;
  provider_status: string | null;
  status_reason: string | null;
  last_error: string | null;
  attempts: number;
  next_attempt_at: Date | string | null;
  sent_at: Date | string | null;
  updated_at: Date | string;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function presentIntermediary(d: IntermediaryDocumentLike | undefined | null) {
  if (!d) return null;
  return {
    status: d.status as IntermediaryStatus,
    provider: 'moj-eracun',
    idempotencyKey: d.idempotency_key,
    documentNumber: d.document_number,
    documentId: d.document_id,
    providerStatus: d.provider_status,
    statusReason: d.status_reason,
    lastError: d.last_error,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'Pending' ? iso(d.next_attempt_at) : null,
    sentAt: iso(d.sent_at),
    updatedAt: new Date(d.updated_at).toISOString(),
  };
}

/** The invoice's own intermediary delivery (not its credit note's), or null. */
export async function intermediaryStateOf(db: Kysely<DB>, orgId: string, invoiceId: string) {
  const doc = await db
    .selectFrom('intermediary_documents')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();
  return presentIntermediary(doc);
}

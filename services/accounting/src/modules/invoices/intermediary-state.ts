import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/types.js';
import type { Language } from '../../lib/catalog.js';
import { localizeDetail } from '../../lib/detail-messages.js';
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

export const PAYMENT_REPORT_STATUSES = ['Pending', 'Reported', 'Failed'] as const;

/**
 * The payment report of an e-invoice the intermediary fiscalized (fiscalizationBy: intermediary):
 * queued when the invoice is marked paid, told to the intermediary outside any transaction.
 */
export const IntermediaryPaymentReport = Type.Object(
  {
    status: literalUnion(PAYMENT_REPORT_STATUSES, {
      description:
        'Pending: recorded, not yet accepted by the intermediary (tried again with backoff; waits for the e-invoice to be sent; lastError says why); Reported: the intermediary accepted the payment report; Failed: refused by the intermediary (its message in lastError)',
    }),
    idempotencyKey: Type.String({ format: 'uuid', description: 'fixed when the payment was recorded' }),
    paidAt: Type.String({ format: 'date' }),
    amount: Type.String({ description: 'the amount reported as paid (the invoice total)' }),
    paymentMethod: literalUnion(['T', 'O', 'Z'], {
      description: 'T: to a bank account (transakcijski račun); O: other; Z: otherwise (as EvidentirajNaplatu)',
    }),
    lastError: Type.Union([Type.String(), Type.Null()]),
    attempts: Type.Integer(),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reportedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    fiscalizedAt: Type.Union([Type.String(), Type.Null()], {
      description: "the intermediary's fiscalization time of the report, when its answer carries one",
    }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'the payment report (eIzvještavanje) through the intermediary' },
);

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
  paymentReport: Type.Union([IntermediaryPaymentReport, Type.Null()], {
    description:
      'the payment report through the intermediary (an invoice it fiscalized, marked paid); null: none (a credit note, unpaid, or fiscalized by this service)',
  }),
});

export interface PaymentReportLike {
  status: string;
  idempotency_key: string;
  paid_at: string | Date;
  amount: string | number;
  payment_method: string;
  last_error: string | null;
  attempts: number;
  next_attempt_at: Date | string | null;
  reported_at: Date | string | null;
  fiscalized_at: string | null;
  updated_at: Date | string;
}

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
const day = (d: Date | string) => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));
const localized = (m: string | null, lang: Language) => (m === null ? null : localizeDetail(m, lang));

export function presentPaymentReport(r: PaymentReportLike | undefined | null, lang: Language = 'en') {
  if (!r) return null;
  return {
    status: r.status as (typeof PAYMENT_REPORT_STATUSES)[number],
    idempotencyKey: r.idempotency_key,
    paidAt: day(r.paid_at),
    amount: String(r.amount),
    paymentMethod: r.payment_method as 'T' | 'O' | 'Z',
    lastError: localized(r.last_error, lang),
    attempts: r.attempts,
    nextAttemptAt: r.status === 'Pending' ? iso(r.next_attempt_at) : null,
    reportedAt: iso(r.reported_at),
    fiscalizedAt: r.fiscalized_at,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** lastError in the organization's language where it is the service's own text (lib/detail-messages.ts). */
export function presentIntermediary(
  d: IntermediaryDocumentLike | undefined | null,
  lang: Language = 'en',
  report: PaymentReportLike | undefined | null = null,
) {
  if (!d) return null;
  return {
    status: d.status as IntermediaryStatus,
    provider: 'moj-eracun',
    idempotencyKey: d.idempotency_key,
    documentNumber: d.document_number,
    documentId: d.document_id,
    providerStatus: d.provider_status,
    statusReason: d.status_reason,
    lastError: localized(d.last_error, lang),
    attempts: d.attempts,
    nextAttemptAt: d.status === 'Pending' ? iso(d.next_attempt_at) : null,
    sentAt: iso(d.sent_at),
    updatedAt: new Date(d.updated_at).toISOString(),
    paymentReport: presentPaymentReport(report, lang),
  };
}

/** The invoice's own intermediary delivery (not its credit note's), or null. */
export async function intermediaryStateOf(db: Kysely<DB>, orgId: string, invoiceId: string, lang: Language = 'en') {
  const doc = await db
    .selectFrom('intermediary_documents')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();
  if (!doc) return null;
  const report = await paymentReportOf(db, orgId, invoiceId);
  return presentIntermediary(doc, lang, report);
}

export function paymentReportOf(db: Kysely<DB>, orgId: string, invoiceId: string) {
  return db
    .selectFrom('intermediary_payment_reports')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
}

import { randomUUID } from 'node:crypto';
import { runExclusive } from '@app/shared/scheduler';
import { type Kysely, sql } from 'kysely';
import { type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import type { Language } from '../../lib/catalog.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../plugins/auth.js';
import { invoiceUbl } from '../einvoice/einvoice.service.js';
import { type IntermediaryStatus, paymentReportOf, presentIntermediary } from '../invoices/intermediary-state.js';
import { todayIso } from '../invoices/invoice-status.js';
import type { InvoiceEvent } from '../invoices/invoice-transitions.js';
import { backoffMs, requireOwnInvoice, type SefDeps } from '../sef/sef.service.js';
import { adapterFor } from './exchange.service.js';
import type { IntermediaryAdapter, IntermediaryResult, SentDocument } from './intermediary.js';

/**
 * Croatian e-invoices sent through the information intermediary (issue 28), as SEF's delivery:
 * the intent (an idempotency key, the document's number) is committed first, the provider is
 * called outside any transaction, the outcome recorded; failures are retried by a job with backoff.
 * docs/accounting/exchange-hr.md says what this relies on.
 */
type Db = Kysely<DB>;
export type DeliveryKind = 'invoice' | 'credit-note';

/** How long an attempt (or a status check) holds its document before another may take it. */
const LEASE_MS = 120_000;

/**
 * An attempt's lease: at least LEASE_MS, and longer than the attempt itself can last (the outbox
 * look-up, the recipient look-up and the send, each up to INTERMEDIARY_TIMEOUT, and the rendering).
 * Moj-eRačun takes no idempotency key: a lease that ran out while the send was still on its way
 * would let another pass ask the outbox too early, find nothing, and send the document again.
 */
function attemptLeaseMs(timeoutMs: number): number {
  return Math.max(LEASE_MS, 4 * timeoutMs + 30_000);
}
/** Status checks of a sent document: the first after 5 minutes, doubling to 6 hours, for 30 days. */
const CHECK_FIRST_MS = 5 * 60_000;
const CHECK_MAX_MS = 6 * 3_600_000;
const CHECK_FOR_MS = 30 * 86_400_000;
const LOCK_DELIVERY = 7_2026_1202;
/** The recipient look-up's answer is kept per OIB: a registered one for a day, an unregistered one an hour. */
const REGISTERED_FOR_MS = 86_400_000;
const UNREGISTERED_FOR_MS = 3_600_000;
const RECIPIENT_CACHE_MAX = 10_000;
const LOCK_STATUS = 8_2026_1202;
const FINAL: IntermediaryStatus[] = ['Accepted', 'Rejected', 'Undeliverable'];

function findDocument(db: Db, orgId: string, invoiceId: string, kind: DeliveryKind) {
  return db
    .selectFrom('intermediary_documents')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}
type DocumentRow = NonNullable<Awaited<ReturnType<typeof findDocument>>>;

type DocumentUpdate = Partial<{
  status: IntermediaryStatus;
  idempotency_key: string;
  document_number: string;
  send_year: number;
  document_id: string | null;
  provider_status: string | null;
  status_reason: string | null;
  last_error: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  next_check_at: Date | null;
  checks: number;
  sent_at: Date | null;
}>;

function updateDocument(db: Db, orgId: string, id: string, values: DocumentUpdate) {
  return db
    .updateTable('intermediary_documents')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

function enabledSettings(db: Db, orgId: string) {
  return db
    .selectFrom('intermediary_settings')
    .select(['enabled', 'fiscalization_by'])
    .where('organization_id', '=', orgId)
    .where('enabled', '=', true)
    .executeTakeFirst();
}

/** The buyer's OIB in the e-invoice (its endpoint or VAT number, HR + 11 digits); null: none (a foreign buyer). */
export function buyerOibOf(xml: string): string | null {
  const party = /<cac:AccountingCustomerParty>([\s\S]*?)<\/cac:AccountingCustomerParty>/.exec(xml)?.[1] ?? '';
  const ids = [
    /<cbc:EndpointID[^>]*>([^<]+)</.exec(party)?.[1],
    /<cac:PartyTaxScheme>\s*<cbc:CompanyID[^>]*>([^<]+)</.exec(party)?.[1],
  ];
  for (const id of ids) {
    const m = /^(?:HR)?(\d{11})$/.exec((id ?? '').replace(/\s/g, ''));
    if (m) return m[1];
  }
  return null;
}

/**
 * The recipient look-up's answers, per OIB, in this process (the register changes rarely; an
 * unregistered buyer is asked again after an hour, or at once when a person queues the invoice
 * again). Not shared between instances: each asks at most once a day per OIB.
 */
const recipients = new Map<string, { registered: boolean; until: number }>();

/** Whether the buyer can receive e-invoices; null: the look-up did not answer (the caller sends anyway). */
async function recipientRegistered(deps: SefDeps, adapter: IntermediaryAdapter, oib: string) {
  const known = recipients.get(oib);
  if (known && known.until > Date.now()) return known.registered;
  const res = await adapter.recipientRegistered(oib);
  if (!res.ok) {
    deps.log.warn(
      { oib, status: res.status, message: res.message },
      'intermediary: recipient look-up failed, sent anyway',
    );
    return null;
  }
  if (recipients.size >= RECIPIENT_CACHE_MAX) recipients.delete(recipients.keys().next().value as string);
  recipients.set(oib, {
    registered: res.value,
    until: Date.now() + (res.value ? REGISTERED_FOR_MS : UNREGISTERED_FOR_MS),
  });
  return res.value;
}

/** The message of a delivery refused before sending: the buyer is not in the register of recipients. */
export const unregisteredMessage = (oib: string) =>
  `the buyer's OIB ${oib} is not registered to receive e-invoices (AMS); not sent`;

/** The e-invoice's number (its first cbc:ID outside the extensions): what the provider lists it by. */
export function documentNumberOf(xml: string): string {
  const body = xml.replace(/<ext:UBLExtensions>[\s\S]*?<\/ext:UBLExtensions>/, '');
  return /<cbc:ID(?:\s[^>]*)?>([^<]+)<\/cbc:ID>/.exec(body)?.[1]?.trim() ?? '';
}

/** GET /invoices/:id/intermediary: the invoice's delivery and its credit note's. */
export async function invoiceDelivery(scope: TenantScope, p: Principal, invoiceId: string) {
  await requireOwnInvoice(scope, p, invoiceId);
  const [rows, report] = await scope.run((db) =>
    Promise.all([
      db
        .selectFrom('intermediary_documents')
        .selectAll()
        .where('organization_id', '=', p.orgId)
        .where('invoice_id', '=', invoiceId)
        .execute(),
      paymentReportOf(db, p.orgId, invoiceId),
    ]),
  );
  const lang = (p.organization?.language ?? 'en') as Language;
  return {
    invoiceId,
    intermediary: presentIntermediary(
      rows.find((r) => r.kind === 'invoice'),
      lang,
      report,
    ),
    creditNoteIntermediary: presentIntermediary(
      rows.find((r) => r.kind === 'credit-note'),
      lang,
    ),
  };
}

function requireHr(p: Principal) {
  if (p.organization.country !== 'HR')
    throw new AppError('SVC-9003', { country: ['the information intermediary is for organizations in Croatia (HR)'] });
}

/**
 * POST /invoices/:id/intermediary (and /credit-note/intermediary): the document is built first
 * (what it lacks is 422 at once), then its intent is recorded with a fresh idempotency key and
 * committed, then the first attempt is made outside any transaction. Queueing one already queued,
 * sent or delivered changes nothing; one the intermediary refused (Failed) is queued again with a
 * new key (the intermediary registered nothing under the old).
 */
export async function queueDelivery(
  deps: SefDeps,
  scope: TenantScope,
  p: Principal,
  invoiceId: string,
  kind: DeliveryKind,
  byHand = false,
) {
  await requireOwnInvoice(scope, p, invoiceId);
  requireHr(p);
  if (!(await scope.run((db) => enabledSettings(db, p.orgId))) || !deps.box)
    throw new AppError('SVC-9003', {
      intermediary: ['the information intermediary is not enabled for the organization'],
    });
  const xml = (await invoiceUbl(scope, deps.invoices, p, invoiceId, kind, todayIso())).xml;
  const documentNumber = documentNumberOf(xml);
  // Queued again by a person (the buyer may have registered since): its look-up is asked afresh.
  const oib = buyerOibOf(xml);
  if (byHand && oib && recipients.get(oib)?.registered === false) recipients.delete(oib);
  const queued = await scope.transaction(async (trx) => {
    const old = await findDocument(trx, p.orgId, invoiceId, kind);
    if (old && old.status !== 'Failed') return { doc: old, fresh: false };
    const values = {
      idempotency_key: randomUUID(),
      document_number: documentNumber,
      send_year: new Date().getUTCFullYear(),
      status: 'Pending' as const,
      document_id: null,
      provider_status: null,
      status_reason: null,
      last_error: null,
      attempts: 0,
      next_attempt_at: new Date(),
      next_check_at: null,
      checks: 0,
      sent_at: null,
    };
    if (old) return { doc: (await updateDocument(trx, p.orgId, old.id, values))!, fresh: true };
    const row = await trx
      .insertInto('intermediary_documents')
      .values({ organization_id: p.orgId, invoice_id: invoiceId, kind, ...values })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { doc: row, fresh: true };
  });
  if (queued.fresh) {
    await deliverIntermediaryDue(deps, { orgId: p.orgId, id: queued.doc.id });
    // A payment recorded while the invoice waited for the intermediary goes out once it was sent.
    if (kind === 'invoice') await deliverPaymentReportsDue(deps, { orgId: p.orgId, invoiceId });
  }
  return invoiceDelivery(scope, p, invoiceId);
}

/**
 * After `send`: with the intermediary enabled, an HR invoice is queued in its own transaction and
 * tried. Never fails the send: what the document lacks shows as the invoice's intermediary (Failed).
 */
export async function queueDeliveryAfterSend(deps: SefDeps, scope: TenantScope, p: Principal, invoiceId: string) {
  if (p.organization.country !== 'HR') return;
  if (!(await scope.run((db) => enabledSettings(db, p.orgId)))) return;
  try {
    await queueDelivery(deps, scope, p, invoiceId, 'invoice');
  } catch (err) {
    const message =
      err instanceof AppError && err.details
        ? Object.entries(err.details)
            .map(([k, v]) => `${k}: ${v.join(' ')}`)
            .join('; ')
        : String(err);
    deps.log.warn({ err, invoiceId }, 'intermediary: invoice not queued after send');
    await scope.transaction(async (trx) => {
      const inv = await trx
        .selectFrom('invoices')
        .select('invoice_number')
        .where('organization_id', '=', p.orgId)
        .where('id', '=', invoiceId)
        .executeTakeFirst();
      await trx
        .insertInto('intermediary_documents')
        .values({
          organization_id: p.orgId,
          invoice_id: invoiceId,
          kind: 'invoice',
          idempotency_key: randomUUID(),
          document_number: inv?.invoice_number ?? '',
          send_year: new Date().getUTCFullYear(),
          status: 'Failed',
          last_error: `not sent: ${message}`.slice(0, 2000),
        })
        .onConflict((oc) => oc.columns(['organization_id', 'invoice_id', 'kind']).doNothing())
        .execute();
    });
  }
}

/**
 * Claims up to `limit` documents whose attempt is due and moves their next attempt a lease ahead
 * in the same committed statement (SKIP LOCKED): another instance, or the request that queued one,
 * skips them while this attempt runs; a crash lets the lease run out and the job tries again.
 */
async function claimDue(db: Db, limit: number, leaseMs: number, only?: { orgId: string; id: string }) {
  const { rows } = await sql<DocumentRow>`
    UPDATE intermediary_documents d SET attempts = d.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    WHERE d.id IN (
      SELECT id FROM intermediary_documents
      WHERE status = 'Pending' AND next_attempt_at <= now()
        ${only ? sql`AND organization_id = ${only.orgId} AND id = ${only.id}` : sql``}
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING d.*`.execute(db);
  return rows;
}

function systemPrincipal(orgId: string): Principal {
  return { orgId } as Principal;
}

async function renderDocument(deps: SefDeps, doc: DocumentRow) {
  const scope = tenantScope(deps.db, doc.organization_id, null);
  return (
    await invoiceUbl(scope, deps.invoices, systemPrincipal(doc.organization_id), doc.invoice_id, doc.kind, todayIso())
  ).xml;
}

/**
 * One attempt. The intermediary publishes no idempotency key, so an attempt after an earlier one
 * (which may have reached it and lost only its answer: a crash, a timeout, a cut connection) first
 * asks the intermediary's outbox for the document's number and takes what it finds instead of
 * sending a second time.
 */
async function attempt(deps: SefDeps, doc: DocumentRow) {
  const sys = deps.db.system;
  const org = doc.organization_id;
  const sent = async (value: SentDocument) => {
    const row = await updateDocument(sys, org, doc.id, {
      status: 'Sent',
      document_id: value.documentId,
      provider_status: value.status || null,
      last_error: null,
      next_attempt_at: null,
      sent_at: new Date(),
      next_check_at: new Date(Date.now() + CHECK_FIRST_MS),
      checks: 0,
    });
    // A payment report that waited for this document is due now.
    if (doc.kind === 'invoice')
      await sys
        .updateTable('intermediary_payment_reports')
        .set({ next_attempt_at: new Date(), updated_at: new Date() })
        .where('organization_id', '=', org)
        .where('invoice_id', '=', doc.invoice_id)
        .where('status', '=', 'Pending')
        .execute();
    return row;
  };
  const failed = (res: Extract<IntermediaryResult<unknown>, { ok: false }>) => {
    if (res.retry) {
      const wait = backoffMs(doc.attempts, res.retryAfterMs ?? null);
      deps.log.warn({ invoiceId: doc.invoice_id, status: res.status, waitMs: wait }, 'intermediary: retried later');
      return updateDocument(sys, org, doc.id, {
        status: 'Pending',
        last_error: res.message.slice(0, 2000),
        next_attempt_at: new Date(Date.now() + wait),
      });
    }
    return updateDocument(sys, org, doc.id, {
      status: 'Failed',
      last_error: res.message.slice(0, 2000),
      next_attempt_at: null,
    });
  };
  const adapter = await adapterFor(deps, sys, org);
  if (!adapter)
    return failed({
      ok: false,
      retry: false,
      status: null,
      message: 'the information intermediary is not enabled for the organization',
    });
  if (doc.attempts > 1) {
    const found = await adapter.findSent(doc.document_number, doc.send_year);
    if (!found.ok) return failed(found);
    if (found.value) {
      deps.log.info({ invoiceId: doc.invoice_id }, 'intermediary: found already sent, not sent again');
      return sent(found.value);
    }
  }
  let xml: string;
  try {
    xml = await renderDocument(deps, doc);
  } catch (err) {
    const details = err instanceof AppError && err.details ? JSON.stringify(err.details) : String(err);
    return failed({ ok: false, retry: false, status: null, message: `the e-invoice cannot be built: ${details}` });
  }
  // The recipient look-up first (cached per OIB): an unregistered buyer is refused here, not by a
  // round trip of the whole document; the look-up down or refusing does not hold the document back.
  const oib = buyerOibOf(xml);
  if (oib && (await recipientRegistered(deps, adapter, oib)) === false)
    return failed({ ok: false, retry: false, status: null, message: unregisteredMessage(oib) });
  const res = await adapter.send(xml);
  return res.ok ? sent(res.value) : failed(res);
}

/** One pass of the delivery job (or one document, right after it was queued). */
export async function deliverIntermediaryDue(deps: SefDeps, only?: { orgId: string; id: string }): Promise<number> {
  const due = await claimDue(deps.db.system, only ? 1 : 20, attemptLeaseMs(deps.config.intermediary.timeoutMs), only);
  for (const doc of due) {
    try {
      await attempt(deps, doc);
    } catch (err) {
      deps.log.error({ err, invoiceId: doc.invoice_id }, 'intermediary: delivery attempt failed');
    }
  }
  return due.length;
}

/** The delivery job (INTERMEDIARY_DELIVERY_INTERVAL): once across instances, drains what is due. */
export function runIntermediaryDelivery(deps: SefDeps) {
  return runExclusive(deps.db.system, deps.db.kind, LOCK_DELIVERY, async () => {
    let n = 0;
    for (let got = await deliverIntermediaryDue(deps); got > 0; got = await deliverIntermediaryDue(deps)) n += got;
    // Then the payment reports (one whose document was just sent is due now).
    for (let got = await deliverPaymentReportsDue(deps); got > 0; got = await deliverPaymentReportsDue(deps)) n += got;
    return n;
  });
}

// ---- payment reports of e-invoices the intermediary fiscalized ----

const WAITING_FOR_DOCUMENT = 'waiting for the e-invoice to be accepted by the information intermediary';

/**
 * InvoiceDeps.recordIntent: inside the mark-paid transaction of an HR invoice sent through the
 * intermediary, with the intermediary enabled and fiscalizing (fiscalizationBy: intermediary), the
 * payment report is recorded (Pending, due now, an idempotency key): it commits with the payment or
 * not at all. The service's own EvidentirajNaplatu is not recorded then (no e-invoice of its own to
 * refer to), so the payment is reported once.
 */
export async function recordPaymentReportIntent(trx: Db, p: Principal, invoiceId: string, event: InvoiceEvent) {
  if (event !== 'paid' || p.organization.country !== 'HR') return;
  const settings = await enabledSettings(trx, p.orgId);
  if (settings?.fiscalization_by !== 'intermediary') return;
  // Only an invoice that went to the intermediary (queued, sent or refused) is its to report.
  if (!(await findDocument(trx, p.orgId, invoiceId, 'invoice'))) return;
  const inv = await trx
    .selectFrom('invoices')
    .select(['paid_at', 'total_amount', 'paid_bank_account_id'])
    .where('organization_id', '=', p.orgId)
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('intermediary_payment_reports')
    .values({
      organization_id: p.orgId,
      invoice_id: invoiceId,
      idempotency_key: randomUUID(),
      paid_at: String(inv.paid_at).slice(0, 10),
      amount: String(inv.total_amount),
      // T: to a bank account (transakcijski račun); Z otherwise, as the service's own report.
      payment_method: inv.paid_bank_account_id ? 'T' : 'Z',
      status: 'Pending',
      next_attempt_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['organization_id', 'invoice_id']).doNothing())
    .execute();
}

/** InvoiceDeps.afterCommit: the first attempt of the payment report just recorded; never throws. */
export async function afterPaymentReportCommit(deps: SefDeps, p: Principal, invoiceId: string, event: InvoiceEvent) {
  if (event !== 'paid' || p.organization.country !== 'HR') return;
  try {
    await deliverPaymentReportsDue(deps, { orgId: p.orgId, invoiceId });
  } catch (err) {
    deps.log.warn({ err, invoiceId }, 'intermediary: payment report attempt failed, the job tries again');
  }
}

type ReportRow = NonNullable<Awaited<ReturnType<typeof paymentReportOf>>>;

async function claimReports(db: Db, limit: number, leaseMs: number, only?: { orgId: string; invoiceId: string }) {
  const { rows } = await sql<ReportRow>`
    UPDATE intermediary_payment_reports r SET attempts = r.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    WHERE r.id IN (
      SELECT id FROM intermediary_payment_reports
      WHERE status = 'Pending' AND next_attempt_at <= now()
        ${only ? sql`AND organization_id = ${only.orgId} AND invoice_id = ${only.invoiceId}` : sql``}
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING r.*`.execute(db);
  return rows;
}

function updateReport(
  db: Db,
  r: ReportRow,
  values: Partial<{
    status: 'Pending' | 'Reported' | 'Failed';
    last_error: string | null;
    next_attempt_at: Date | null;
    reported_at: Date | null;
    fiscalized_at: string | null;
  }>,
) {
  return db
    .updateTable('intermediary_payment_reports')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', r.organization_id)
    .where('id', '=', r.id)
    .execute();
}

/**
 * One attempt: the report waits (Pending) until its e-invoice has the intermediary's id; then
 * markPaid outside any transaction. Down, 429, 5xx: again with backoff; a refusal is final.
 */
async function reportPayment(deps: SefDeps, r: ReportRow) {
  const sys = deps.db.system;
  const later = (message: string, retryAfterMs: number | null = null) =>
    updateReport(sys, r, {
      status: 'Pending',
      last_error: message.slice(0, 2000),
      next_attempt_at: new Date(Date.now() + backoffMs(r.attempts, retryAfterMs)),
    });
  const fail = (message: string) =>
    updateReport(sys, r, { status: 'Failed', last_error: message.slice(0, 2000), next_attempt_at: null });
  const doc = await findDocument(sys, r.organization_id, r.invoice_id, 'invoice');
  if (!doc?.document_id) return later(WAITING_FOR_DOCUMENT);
  // The settings may have been switched off since: a document it sent is still its to report.
  const adapter = await adapterFor(deps, sys, r.organization_id, false);
  if (!adapter) return fail('no information intermediary is set up');
  const res = await adapter.markPaid(doc.document_id, {
    paidAt: String(r.paid_at).slice(0, 10),
    amount: String(r.amount),
    method: r.payment_method,
  });
  if (res.ok)
    return updateReport(sys, r, {
      status: 'Reported',
      last_error: null,
      next_attempt_at: null,
      reported_at: new Date(),
      fiscalized_at: res.value.fiscalizedAt,
    });
  if (res.retry) {
    deps.log.warn({ invoiceId: r.invoice_id, status: res.status }, 'intermediary: payment report retried later');
    return later(res.message, res.retryAfterMs ?? null);
  }
  return fail(res.message);
}

/** One pass of the payment reports (or one invoice's, right after it was marked paid or sent). */
export async function deliverPaymentReportsDue(
  deps: SefDeps,
  only?: { orgId: string; invoiceId: string },
): Promise<number> {
  const due = await claimReports(
    deps.db.system,
    only ? 1 : 20,
    attemptLeaseMs(deps.config.intermediary.timeoutMs),
    only,
  );
  for (const r of due) {
    try {
      await reportPayment(deps, r);
    } catch (err) {
      deps.log.error({ err, invoiceId: r.invoice_id }, 'intermediary: payment report attempt failed');
    }
  }
  return due.length;
}

// ---- status of sent documents ----

async function claimChecks(db: Db, limit: number, only?: { orgId: string; invoiceId: string }) {
  const { rows } = await sql<DocumentRow>`
    UPDATE intermediary_documents d SET next_check_at = now() + make_interval(secs => ${LEASE_MS / 1000})
    WHERE d.id IN (
      SELECT id FROM intermediary_documents
      WHERE status IN ('Sent', 'Delivered') AND document_id IS NOT NULL AND next_check_at <= now()
        ${only ? sql`AND organization_id = ${only.orgId} AND invoice_id = ${only.invoiceId}` : sql``}
      ORDER BY next_check_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING d.*`.execute(db);
  return rows;
}

function nextCheck(doc: DocumentRow, now = Date.now()): Date | null {
  if (doc.sent_at && now - new Date(doc.sent_at).getTime() > CHECK_FOR_MS) return null;
  return new Date(now + Math.min(CHECK_MAX_MS, CHECK_FIRST_MS * 2 ** doc.checks));
}

async function check(deps: SefDeps, doc: DocumentRow) {
  const sys = deps.db.system;
  const adapter = await adapterFor(deps, sys, doc.organization_id, false);
  if (!adapter) return updateDocument(sys, doc.organization_id, doc.id, { next_check_at: nextCheck(doc) });
  const res = await adapter.status(doc.document_id!);
  if (!res.ok)
    return updateDocument(sys, doc.organization_id, doc.id, {
      last_error: res.message.slice(0, 2000),
      checks: doc.checks + 1,
      next_check_at: nextCheck(doc),
    });
  const v = res.value;
  const status: IntermediaryStatus =
    v.decision === 'accepted'
      ? 'Accepted'
      : v.decision === 'rejected'
        ? 'Rejected'
        : v.delivery === 'undeliverable'
          ? 'Undeliverable'
          : v.delivery === 'delivered'
            ? 'Delivered'
            : 'Sent';
  return updateDocument(sys, doc.organization_id, doc.id, {
    status,
    provider_status: v.status || doc.provider_status,
    status_reason: v.reason,
    last_error: null,
    checks: doc.checks + 1,
    next_check_at: FINAL.includes(status) ? null : nextCheck(doc),
  });
}

/** One pass of the status checks: sent documents whose check is due, until their status is final. */
export async function checkIntermediaryStatuses(
  deps: SefDeps,
  only?: { orgId: string; invoiceId: string },
): Promise<number> {
  const due = await claimChecks(deps.db.system, 50, only);
  for (const doc of due) {
    try {
      await check(deps, doc);
    } catch (err) {
      deps.log.warn({ err, invoiceId: doc.invoice_id }, 'intermediary: status check failed');
    }
  }
  return due.length;
}

/** The status job (INTERMEDIARY_SYNC_INTERVAL): once across instances. */
export function runIntermediaryStatus(deps: SefDeps) {
  return runExclusive(deps.db.system, deps.db.kind, LOCK_STATUS, async () => {
    let n = 0;
    for (let got = await checkIntermediaryStatuses(deps); got > 0; got = await checkIntermediaryStatuses(deps))
      n += got;
    return n;
  });
}

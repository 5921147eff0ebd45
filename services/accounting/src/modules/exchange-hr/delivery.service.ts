import { randomUUID } from 'node:crypto';
import { runExclusive } from '@app/shared/scheduler';
import { type Kysely, sql } from 'kysely';
import { type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../plugins/auth.js';
import { invoiceUbl } from '../einvoice/einvoice.service.js';
import { type IntermediaryStatus, presentIntermediary } from '../invoices/intermediary-state.js';
import { todayIso } from '../invoices/invoice-status.js';
import { backoffMs, requireOwnInvoice, type SefDeps } from '../sef/sef.service.js';
import { adapterFor } from './exchange.service.js';
import type { IntermediaryResult, SentDocument } from './intermediary.js';

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
/** Status checks of a sent document: the first after 5 minutes, doubling to 6 hours, for 30 days. */
const CHECK_FIRST_MS = 5 * 60_000;
const CHECK_MAX_MS = 6 * 3_600_000;
const CHECK_FOR_MS = 30 * 86_400_000;
const LOCK_DELIVERY = 7_2026_1202;
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

/** The e-invoice's number (its first cbc:ID outside the extensions): what the provider lists it by. */
export function documentNumberOf(xml: string): string {
  const body = xml.replace(/<ext:UBLExtensions>[\s\S]*?<\/ext:UBLExtensions>/, '');
  return /<cbc:ID(?:\s[^>]*)?>([^<]+)<\/cbc:ID>/.exec(body)?.[1]?.trim() ?? '';
}

/** GET /invoices/:id/intermediary: the invoice's delivery and its credit note's. */
export async function invoiceDelivery(scope: TenantScope, p: Principal, invoiceId: string) {
  await requireOwnInvoice(scope, p, invoiceId);
  const rows = await scope.run((db) =>
    db
      .selectFrom('intermediary_documents')
      .selectAll()
      .where('organization_id', '=', p.orgId)
      .where('invoice_id', '=', invoiceId)
      .execute(),
  );
  return {
    invoiceId,
    intermediary: presentIntermediary(rows.find((r) => r.kind === 'invoice')),
    creditNoteIntermediary: presentIntermediary(rows.find((r) => r.kind === 'credit-note')),
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
) {
  await requireOwnInvoice(scope, p, invoiceId);
  requireHr(p);
  if (!(await scope.run((db) => enabledSettings(db, p.orgId))) || !deps.box)
    throw new AppError('SVC-9003', {
      intermediary: ['the information intermediary is not enabled for the organization'],
    });
  const xml = (await invoiceUbl(scope, deps.invoices, p, invoiceId, kind, todayIso())).xml;
  const documentNumber = documentNumberOf(xml);
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
  if (queued.fresh) await deliverIntermediaryDue(deps, { orgId: p.orgId, id: queued.doc.id });
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
async function claimDue(db: Db, limit: number, only?: { orgId: string; id: string }) {
  const { rows } = await sql<DocumentRow>`
    UPDATE intermediary_documents d SET attempts = d.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${LEASE_MS / 1000}), updated_at = now()
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
  const sent = (value: SentDocument) =>
    updateDocument(sys, org, doc.id, {
      status: 'Sent',
      document_id: value.documentId,
      provider_status: value.status || null,
      last_error: null,
      next_attempt_at: null,
      sent_at: new Date(),
      next_check_at: new Date(Date.now() + CHECK_FIRST_MS),
      checks: 0,
    });
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
  const res = await adapter.send(xml);
  return res.ok ? sent(res.value) : failed(res);
}

/** One pass of the delivery job (or one document, right after it was queued). */
export async function deliverIntermediaryDue(deps: SefDeps, only?: { orgId: string; id: string }): Promise<number> {
  const due = await claimDue(deps.db.system, only ? 1 : 20, only);
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
    return n;
  });
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

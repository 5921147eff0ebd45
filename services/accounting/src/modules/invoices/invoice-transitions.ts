import { randomUUID } from 'node:crypto';
import type { Database } from '@app/shared/db/database';
import { sha256Hex } from '@app/shared/secrets';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import type { DB, InvoiceStatus } from '../../db/types.js';
import { MailDeliveryError, type Mailer } from '../../infra/mail/mailer.js';
import type { FileStorage } from '../../infra/storage/storage.js';
import { AppError } from '../../lib/errors.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import { insertAlert } from '../alerts/alerts.repository.js';
import type { Posting } from '../ledger/ledger.types.js';
import { invoiceEmail, pdfKey, renderStoredInvoice, viewLink, viewToken } from './invoice-delivery.js';
import { buildSalePostings, postInvoicePayment, reverseInvoicePostings, writePostings } from './invoice-postings.js';
import { nextStatus } from './invoice-status.js';
import * as repo from './invoices.repository.js';
import type { SendBody, StatusBody } from './invoices.schemas.js';
import { readInvoice } from './invoices.service.js';

export interface InvoiceDeps {
  config: Readonly<Config>;
  db: Database<DB>;
  storage: FileStorage;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Runs after a successful send, outside its transaction (SEF queueing, issue 28); never throws. */
  afterSend?: (scope: TenantScope, p: Principal, invoiceId: string) => Promise<void>;
  /**
   * Runs inside the transaction that records a first send, a payment or a cancellation, so what it
   * writes commits with it or not at all (the Croatian fiscalization intent, issue 28).
   */
  recordIntent?: (trx: TenantTx, p: Principal, invoiceId: string, event: InvoiceEvent) => Promise<void>;
  /** Runs after that transaction committed, outside any (the fiscalization call); never throws. */
  afterCommit?: (p: Principal, invoiceId: string, event: InvoiceEvent) => Promise<void>;
}

/** The status changes that may owe a message to the Tax Administration (HR). */
export type InvoiceEvent = 'sent' | 'paid' | 'cancelled';

export const DELIVERY_FAILED_NOTE = 'Email delivery failed';

async function lockOrThrow(trx: TenantTx, orgId: string, id: string, today: string) {
  const inv = await repo.lockInvoice(trx, orgId, id, today);
  if (!inv) throw new AppError('SVC-3001');
  return inv;
}

function paidDate(body: { paidAt?: string }, invoiceDate: string): string {
  if (!body.paidAt) throw new AppError('SVC-9003', { paidAt: ['is required for mark-paid'] });
  const m = /^(\d{4}-\d{2}-\d{2})(T[0-9:.]+(Z|[+-]\d{2}:\d{2})?)?$/.exec(body.paidAt);
  const date = m?.[1];
  if (
    !date ||
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  ) {
    throw new AppError('SVC-9003', { paidAt: ['must be an ISO date (YYYY-MM-DD) or date-time'] });
  }
  if (date < invoiceDate) throw new AppError('SVC-9003', { paidAt: ['must not be before invoiceDate'] });
  return date;
}

/** PATCH /invoices/:id/status: send, mark-paid or cancel, with their postings in the same transaction (A8). */
export async function changeStatus(
  scope: TenantScope,
  deps: InvoiceDeps,
  p: Principal,
  id: string,
  body: StatusBody,
  today: string,
) {
  if (body.action === 'send') {
    await deliver(deps, scope, p, id, {}, today, 'transition');
    return scope.transaction((trx) => readInvoice(trx, p, id, today));
  }
  const event: InvoiceEvent = body.action === 'mark-paid' ? 'paid' : 'cancelled';
  const out = await scope.transaction(async (trx) => {
    if (body.action === 'mark-paid') {
      await markInvoicePaid(trx, deps, p, id, body, today);
    } else {
      const inv = await lockOrThrow(trx, p.orgId, id, today);
      const to = nextStatus(inv.status, body.action);
      await reverseInvoicePostings(trx, p.orgId, id, p.userId);
      await repo.updateInvoice(trx, p.orgId, id, { status: to, cancelled_at: new Date() });
      await deps.recordIntent?.(trx, p, id, event);
    }
    return readInvoice(trx, p, id, today);
  });
  await deps.afterCommit?.(p, id, event);
  return out;
}

/**
 * mark-paid inside the caller's transaction: the payment posting (A8), the status, and the
 * fiscalization or e-invoice intent; the caller runs deps.afterCommit(p, id, 'paid') once committed.
 * Also the bank line's "pay and match" (POST /bank-accounts/:id/reconcile with invoiceId).
 */
export async function markInvoicePaid(
  trx: TenantTx,
  deps: InvoiceDeps,
  p: Principal,
  id: string,
  body: { paidAt?: string; bankAccountId?: string | null },
  today: string,
) {
  const inv = await lockOrThrow(trx, p.orgId, id, today);
  const to = nextStatus(inv.status, 'mark-paid');
  const paidAt = paidDate(body, inv.invoice_date);
  const postings = await postInvoicePayment(
    trx,
    p.orgId,
    inv,
    paidAt,
    body.bankAccountId ?? null,
    p.organization.baseCurrency,
    p.userId,
    p.organization.language,
  );
  await repo.updateInvoice(trx, p.orgId, id, {
    status: to,
    paid_at: paidAt,
    paid_bank_account_id: body.bankAccountId ?? null,
  });
  await deps.recordIntent?.(trx, p, id, 'paid');
  return postings;
}

/** POST /invoices/:id/send: the send transition on a draft; a re-send on sent, viewed or overdue (A10). */
export function sendInvoice(
  scope: TenantScope,
  deps: InvoiceDeps,
  p: Principal,
  id: string,
  body: SendBody,
  today: string,
) {
  return deliver(deps, scope, p, id, body, today, 'send');
}

function messageIdFor(mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(mailFrom)?.[1] ?? 'localhost';
  return `<${randomUUID()}@${domain}>`;
}

/** Longer than the mailer's longest wait (connect 10 s + socket 30 s): an older claim is stale. */
const SEND_CLAIM_MS = 2 * 60_000;

/**
 * Sends in three steps so that no transaction, and so no pooled connection (the only one on
 * PGlite), is held while the mail server answers:
 * 1. claim (short transaction, invoice row locked): everything that can refuse is checked, the
 *    sale postings are built and the PDF rendered and stored; a draft is marked send_claimed_at,
 *    so a concurrent send of the same draft is refused (400 SVC-3004) instead of mailing twice;
 * 2. the e-mail is delivered, no database work;
 * 3. record (short transaction): status sent and the postings (A8), claim cleared; a re-send only
 *    records the new recipient and message id.
 * A delivery failure leaves the invoice draft with no postings, appends "Email delivery failed"
 * to the notes and records an alert, then answers 500 SVC-3011 (A10). If the service dies between
 * 2 and 3 the e-mail has gone while the invoice is still draft; its claim expires and a new send
 * mails it again.
 */
async function deliver(
  deps: InvoiceDeps,
  scope: TenantScope,
  p: Principal,
  id: string,
  opts: SendBody,
  today: string,
  mode: 'transition' | 'send',
) {
  const prepared = await scope.transaction(async (trx) => {
    const inv = await lockOrThrow(trx, p.orgId, id, today);
    const firstSend = inv.status === 'draft';
    const resendable: InvoiceStatus[] = ['sent', 'viewed', 'overdue'];
    if (!firstSend && !(mode === 'send' && resendable.includes(inv.status))) nextStatus(inv.status, 'send');
    if (firstSend && inv.send_claimed_at && Date.now() - inv.send_claimed_at.getTime() < SEND_CLAIM_MS) {
      throw new AppError('SVC-3004', { action: ['send: a send of this invoice is already in progress'] });
    }
    const customer = await repo.findCustomer(trx, p.orgId, inv.customer_id);
    const to = opts.to ?? customer?.email ?? null;
    if (!to) throw new AppError('SVC-3005', { to: ['the customer has no e-mail address and no "to" was given'] });
    const items = await repo.findItems(trx, p.orgId, id);
    let pdf: Buffer;
    let sale: Posting[] = [];
    let storedKey: string | null = null;
    if (firstSend) {
      sale = await buildSalePostings(
        trx,
        p.orgId,
        inv,
        items,
        p.organization.baseCurrency,
        p.userId,
        p.organization.language,
      );
      pdf = (await renderStoredInvoice(trx, p.orgId, inv, items)).pdf;
      storedKey = pdfKey(p.orgId, id);
      await deps.storage.put(storedKey, pdf, 'application/pdf');
      await repo.updateInvoice(trx, p.orgId, id, { send_claimed_at: new Date() });
    } else {
      const stored = inv.pdf_key ? await deps.storage.get(inv.pdf_key) : null;
      pdf = stored ?? (await renderStoredInvoice(trx, p.orgId, inv, items)).pdf;
    }
    return { inv, firstSend, to, pdf, sale, storedKey, sentAt: firstSend ? new Date() : (inv.sent_at ?? new Date()) };
  });

  const { inv, firstSend, to, pdf, sale, storedKey, sentAt } = prepared;
  const { subject, text } = invoiceEmail(
    p.organization.language,
    p.organization.name,
    inv,
    viewLink(deps.config, id),
    opts.message,
  );
  let messageId: string;
  try {
    const sent = await deps.mailer.send({
      from: deps.config.mailFrom,
      to,
      cc: opts.cc,
      subject: opts.subject ?? subject,
      text,
      messageId: messageIdFor(deps.config.mailFrom),
      attachments: [{ filename: `${inv.invoice_number}.pdf`, content: pdf, contentType: 'application/pdf' }],
    });
    messageId = sent.messageId;
  } catch (err) {
    if (!(err instanceof MailDeliveryError)) throw err;
    deps.log.warn({ invoiceId: id, err: err.message }, 'invoice e-mail delivery failed');
    if (storedKey) await deps.storage.delete(storedKey).catch(() => {});
    await scope.transaction(async (trx) => {
      if (firstSend) {
        await repo.updateInvoice(trx, p.orgId, id, { send_claimed_at: null });
        await repo.appendNote(trx, p.orgId, id, DELIVERY_FAILED_NOTE);
      }
      await insertAlert(trx, p.orgId, {
        type: 'invoice_email_failed',
        message: `${DELIVERY_FAILED_NOTE}: invoice ${inv.invoice_number}: ${err.message}`.slice(0, 1000),
        referenceType: 'invoice',
        referenceId: id,
      });
    });
    throw new AppError('SVC-3011');
  }

  const recorded = await scope.transaction(async (trx) => {
    if (firstSend) {
      const current = await lockOrThrow(trx, p.orgId, id, today);
      // Only a cancel can have moved it meanwhile; the postings then stay unwritten.
      if (current.status !== 'draft') nextStatus(current.status, 'send');
      await repo.updateInvoice(trx, p.orgId, id, {
        status: nextStatus('draft', 'send'),
        sent_at: sentAt,
        sent_to: to,
        email_id: messageId,
        token_hash: sha256Hex(viewToken(deps.config.jwtSecret, id)),
        pdf_key: storedKey,
        send_claimed_at: null,
      });
      await writePostings(trx, p.orgId, sale);
      await deps.recordIntent?.(trx, p, id, 'sent');
    } else {
      await repo.updateInvoice(trx, p.orgId, id, { sent_to: to, email_id: messageId });
    }
    return { sentAt: sentAt.toISOString(), sentTo: to, emailId: messageId };
  });
  if (firstSend) await deps.afterCommit?.(p, id, 'sent');
  return recorded;
}

/**
 * GET /public/invoices/:token (A10): no sign-in, the token is the capability. A sent invoice
 * becomes viewed; the PDF is returned for every status but draft.
 */
export async function viewPublicInvoice(deps: InvoiceDeps, token: string, today: string, requestId: string) {
  const found = await repo.findByTokenHash(deps.db.system, sha256Hex(token));
  if (!found) throw new AppError('SVC-9002');
  const orgId = found.organization_id;
  // The link's organization, no acting user: the scope is built here, not by the auth plugin.
  return tenantScope(deps.db, orgId, null, requestId).transaction(async (trx) => {
    const inv = await lockOrThrow(trx, orgId, found.id, today);
    if (inv.status === 'draft') throw new AppError('SVC-9002');
    if (inv.status === 'sent') {
      await repo.updateInvoice(trx, orgId, inv.id, { status: nextStatus(inv.status, 'view'), viewed_at: new Date() });
    }
    const pdf = await pdfOf(deps, trx, orgId, inv);
    return { pdf, invoiceNumber: inv.invoice_number };
  });
}

/** GET /invoices/:id/pdf: the caller's invoice as its stored PDF. */
export function invoicePdf(scope: TenantScope, deps: InvoiceDeps, id: string, today: string) {
  return scope.run(async (db) => {
    const inv = await repo.findInvoice(db, scope.orgId, id, today);
    if (!inv) throw new AppError('SVC-3001');
    return { pdf: await pdfOf(deps, db, scope.orgId, inv), number: inv.invoice_number };
  });
}

/** The stored PDF; re-rendered from the stored invoice (and stored again) if the file is gone. */
export async function pdfOf(deps: InvoiceDeps, db: Kysely<DB>, orgId: string, inv: repo.InvoiceRow) {
  if (!inv.pdf_key) throw new AppError('SVC-3010');
  const stored = await deps.storage.get(inv.pdf_key);
  if (stored) return stored;
  const items = await repo.findItems(db, orgId, inv.id);
  const { pdf } = await renderStoredInvoice(db, orgId, inv, items);
  await deps.storage.put(inv.pdf_key, pdf, 'application/pdf');
  return pdf;
}

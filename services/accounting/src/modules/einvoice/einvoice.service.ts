import type { Kysely } from 'kysely';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { paymentCodeInputOf, renderPaymentCode } from '../../domain/payment-code.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../plugins/auth.js';
import { type InvoiceDeps, pdfOf } from '../invoices/invoice-transitions.js';
import * as invoices from '../invoices/invoices.repository.js';
import { findOrganization } from '../organization/organization.repository.js';
import { findProfile } from '../users/users.repository.js';
import { attachPdf, buildEInvoice, type DocumentKind, profileOf } from './einvoice-document.js';

type Db = Kysely<DB>;

/**
 * GET /invoices/:id/ubl and /credit-note/ubl (E3). The invoice exists as an e-invoice from sent
 * on (a draft is 400 SVC-3004); its credit note (381) only once it was cancelled after being sent.
 */
export function invoiceUbl(
  scope: TenantScope,
  deps: InvoiceDeps,
  p: Principal,
  id: string,
  kind: DocumentKind,
  today: string,
) {
  return scope.run((db) => renderInvoiceUbl(deps, db, p, id, kind, today));
}

async function renderInvoiceUbl(
  deps: InvoiceDeps,
  db: Db,
  p: Principal,
  id: string,
  kind: DocumentKind,
  today: string,
) {
  const inv = await invoices.findInvoice(db, p.orgId, id, today);
  if (!inv) throw new AppError('SVC-3001');
  if (kind === 'invoice' && inv.status === 'draft') {
    throw new AppError('SVC-3004', { status: ['draft: the e-invoice exists once the invoice is sent'] });
  }
  if (kind === 'credit-note' && (inv.status !== 'cancelled' || !inv.sent_at)) {
    throw new AppError('SVC-3004', {
      status: [`${inv.status}: a credit note exists for an invoice cancelled after it was sent`],
    });
  }
  const [org, customer, items, creator] = await Promise.all([
    findOrganization(db, p.orgId),
    invoices.findCustomer(db, p.orgId, inv.customer_id),
    invoices.findItems(db, p.orgId, id),
    inv.created_by ? findProfile(db, p.orgId, inv.created_by) : Promise.resolve(undefined),
  ]);
  if (!org) throw new AppError('SVC-2001');
  const operator = creator ? { fullName: creator.full_name, operatorOib: creator.operator_oib } : null;
  // The document is checked before the PDF is read, so missing data is told without that work.
  let doc = buildEInvoice({ org, customer, operator, invoice: inv, items }, kind);
  if (profileOf(org.country) === 'HR' && kind === 'invoice')
    doc = attachPdf(doc, inv.invoice_number, await pdfOf(deps, db, p.orgId, inv));
  // The XML writer (xmlbuilder2, about 150 modules) is loaded with the first e-invoice.
  const { renderUbl } = await import('./ubl.js');
  return { xml: renderUbl(doc), number: doc.id };
}

/** GET /invoices/:id/payment-code (E4): the invoice's IPS QR or HUB-3A code as a PNG, any status. */
export function invoicePaymentCode(scope: TenantScope, p: Principal, id: string, today: string) {
  return scope.run((db) => renderInvoicePaymentCode(db, p, id, today));
}

async function renderInvoicePaymentCode(db: Db, p: Principal, id: string, today: string) {
  const inv = await invoices.findInvoice(db, p.orgId, id, today);
  if (!inv) throw new AppError('SVC-3001');
  const [org, customer] = await Promise.all([
    findOrganization(db, p.orgId),
    invoices.findCustomer(db, p.orgId, inv.customer_id),
  ]);
  if (!org) throw new AppError('SVC-2001');
  return { ...(await renderPaymentCode(paymentCodeInputOf(org, customer, inv))), number: inv.invoice_number };
}

import type { Kysely } from 'kysely';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { type PageRequest, pageMeta } from '../../lib/pagination.js';
import type { Principal } from '../../plugins/auth.js';
import { createContact } from '../contacts/contacts.service.js';
import { insertExpense } from '../expenses/expenses.service.js';
import { presentFiscal } from '../invoices/fiscal-state.js';
import { todayIso } from '../invoices/invoice-status.js';
import { type ParsedPurchase, parsePurchaseUbl } from './purchase-ubl.js';
import * as repo from './sef.repository.js';
import type { PURCHASE_SORTS } from './sef.schemas.js';
import { clientFor, type SefDeps } from './sef.service.js';

export type PurchaseSort = (typeof PURCHASE_SORTS)[number];

/** Stores a received document (idempotent by its source id); false when it was there or unreadable. */
export async function storePurchase(
  deps: SefDeps,
  orgId: string,
  source: 'sef' | 'hr-intermediary',
  externalId: string,
  xml: string,
  status: string,
  /** Runs in the transaction that stores it, with its id (the Croatian fiscalization intent). */
  onStored?: (trx: Kysely<DB>, purchaseInvoiceId: string) => Promise<void>,
): Promise<boolean> {
  let parsed: ReturnType<typeof parsePurchaseUbl>;
  try {
    parsed = parsePurchaseUbl(xml);
  } catch (err) {
    deps.log.warn({ err, externalId }, 'purchase invoice: not a UBL invoice, kept out');
    return false;
  }
  return deps.db.system.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto('purchase_invoices')
      .values({
        organization_id: orgId,
        source,
        external_id: externalId,
        status,
        invoice_number: parsed.invoiceNumber.slice(0, 200),
        issue_date: parsed.issueDate,
        due_date: parsed.dueDate,
        supplier_name: parsed.supplierName.slice(0, 300) || '(unnamed supplier)',
        supplier_vat_number: parsed.supplierVatNumber,
        supplier_registration_number: parsed.supplierRegistrationNumber,
        currency_code: parsed.currencyCode,
        net_amount: parsed.netAmount,
        tax_amount: parsed.taxAmount,
        total_amount: parsed.totalAmount,
        lines: JSON.stringify(parsed.lines),
        ubl: xml,
      })
      .onConflict((oc) => oc.columns(['organization_id', 'source', 'external_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!r) return false;
    await onStored?.(trx, r.id);
    return true;
  });
}

const money = (v: string | number) => Number(v).toFixed(2);

export function presentPurchase(r: repo.PurchaseRow) {
  const base = {
    id: r.id,
    source: r.source,
    externalId: r.external_id,
    status: r.status,
    invoiceNumber: r.invoice_number,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    supplierName: r.supplier_name,
    supplierVatNumber: r.supplier_vat_number,
    currencyCode: r.currency_code,
    netAmount: money(r.net_amount),
    taxAmount: money(r.tax_amount),
    totalAmount: money(r.total_amount),
    comment: r.comment,
    vendorId: r.vendor_id,
    expenseId: r.expense_id,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
  return base;
}

export async function presentPurchaseDetail(db: Kysely<DB>, r: repo.PurchaseRow) {
  const lines = (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as ParsedPurchase['lines'];
  let fiscalization = null;
  if (r.source === 'hr-intermediary') {
    const rows = await db
      .selectFrom('fiscal_records')
      .selectAll()
      .where('organization_id', '=', r.organization_id)
      .where('purchase_invoice_id', '=', r.id)
      .execute();
    fiscalization = {
      received: presentFiscal(rows.find((x) => x.message === 'received')),
      rejection: presentFiscal(rows.find((x) => x.message === 'rejection')),
    };
  }
  return { ...presentPurchase(r), lines, ublUrl: `/api/v1/purchase-invoices/${r.id}/ubl`, fiscalization };
}

export async function listPurchases(
  scope: TenantScope,
  q: { status?: string; fromDate?: string; toDate?: string },
  page: PageRequest<PurchaseSort>,
) {
  if (q.fromDate && q.toDate && q.fromDate > q.toDate)
    throw new AppError('SVC-9003', { fromDate: ['must not be after toDate'] });
  const col = { issueDate: 'issue_date', createdAt: 'created_at', totalAmount: 'total_amount' } as const;
  return scope.run(async (db) => {
    let base = db.selectFrom('purchase_invoices').where('organization_id', '=', scope.orgId);
    if (q.status) base = base.where('status', '=', q.status);
    if (q.fromDate) base = base.where('issue_date', '>=', q.fromDate);
    if (q.toDate) base = base.where('issue_date', '<=', q.toDate);
    const [{ n }] = await base.select((eb) => eb.fn.countAll<string>().as('n')).execute();
    const rows = await base
      .selectAll()
      .orderBy(col[page.sort], page.order)
      .orderBy('id', page.order)
      .limit(page.perPage)
      .offset(page.offset)
      .execute();
    return { data: rows.map((r) => presentPurchase(r)), meta: pageMeta(Number(n), page) };
  });
}

async function load(scope: TenantScope, id: string) {
  const row = await scope.run((db) => repo.findPurchase(db, scope.orgId, id));
  if (!row) throw new AppError('SVC-9002');
  return row;
}

export async function getPurchase(scope: TenantScope, id: string) {
  const row = await load(scope, id);
  return scope.run((db) => presentPurchaseDetail(db, row));
}

export async function purchaseUbl(scope: TenantScope, id: string) {
  const row = await load(scope, id);
  return { xml: row.ubl, number: row.invoice_number };
}

/**
 * POST /purchase-invoices/:id/accept and /reject {comment}: SEF is told first (outside any
 * transaction); only its yes is recorded. A refusal is 422 with SEF's message, SEF down 503.
 */
export async function decidePurchase(
  deps: SefDeps,
  scope: TenantScope,
  id: string,
  accepted: boolean,
  comment: string,
  reasonType: 'N' | 'U' | 'O' = 'O',
) {
  const row = await load(scope, id);
  if (row.status === 'Approved' || row.status === 'Rejected' || row.status === 'Cancelled' || row.status === 'Storno')
    throw new AppError('SVC-9003', { status: [`${row.status}: already decided`] });
  if (row.source === 'hr-intermediary') return decideHrPurchase(deps, scope, row, accepted, comment, reasonType);
  const client = await scope.run((db) => clientFor(deps, db, scope.orgId, { evenIfDisabled: true }));
  if (!client) throw new AppError('SVC-9003', { sef: ['SEF is not set up for the organization'] });
  const res = await client.acceptReject(Number(row.external_id), accepted, comment);
  if (!res.ok && res.retry) throw new AppError('SVC-9007', { sef: [res.message] });
  if (!res.ok) throw new AppError('SVC-9003', { sef: [res.message] });
  const updated = await scope.transaction((trx) =>
    trx
      .updateTable('purchase_invoices')
      .set({ status: accepted ? 'Approved' : 'Rejected', comment, updated_at: new Date() })
      .where('organization_id', '=', scope.orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return scope.run((db) => presentPurchaseDetail(db, updated));
}

/**
 * A received Croatian e-invoice accepted or rejected: the intermediary is told first
 * (UpdateDokumentProcessStatus); then the decision and, for a rejection, the
 * rejection report owed to the Tax Administration (EvidentirajOdbijanjeZahtjev, with the comment
 * as the reason) commit in one transaction; the report is sent after commit and retried by the
 * fiscalization job. The row is locked, so two decisions at once record one.
 */
async function decideHrPurchase(
  deps: SefDeps,
  scope: TenantScope,
  row: repo.PurchaseRow,
  accepted: boolean,
  comment: string,
  reasonType: 'N' | 'U' | 'O',
) {
  // The intermediary first (its business status: approved or rejected with the reason), outside
  // any transaction; only its yes is recorded, as SEF's. Down is 503, a refusal 422 with its message.
  const told = await deps.hrPurchase?.decide?.(scope.orgId, row.external_id, accepted, comment);
  if (told && !told.ok && told.retry) throw new AppError('SVC-9007', { intermediary: [told.message] });
  if (told && !told.ok) throw new AppError('SVC-9003', { intermediary: [told.message] });
  const updated = await scope.transaction(async (trx) => {
    const locked = await trx
      .selectFrom('purchase_invoices')
      .select('status')
      .where('organization_id', '=', scope.orgId)
      .where('id', '=', row.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (locked.status === 'Approved' || locked.status === 'Rejected')
      throw new AppError('SVC-9003', { status: [`${locked.status}: already decided`] });
    const out = await trx
      .updateTable('purchase_invoices')
      .set({ status: accepted ? 'Approved' : 'Rejected', comment, updated_at: new Date() })
      .where('organization_id', '=', scope.orgId)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!accepted)
      await deps.hrPurchase?.recordIntent(trx, scope.orgId, row.id, 'rejection', {
        date: todayIso(),
        reasonType,
        reason: comment,
      });
    return out;
  });
  if (!accepted) await deps.hrPurchase?.afterCommit(scope.orgId, row.id);
  return scope.run((db) => presentPurchaseDetail(db, updated));
}

/**
 * POST /purchase-invoices/:id/expense: the vendor matched by PIB (or created from the supplier),
 * then a pending expense for the document's total with its VAT.
 */
export async function purchaseToExpense(scope: TenantScope, p: Principal, id: string, category: string) {
  const row = await load(scope, id);
  if (row.expense_id) throw new AppError('SVC-9003', { expenseId: ['the expense was already created'] });
  if (row.status === 'Rejected') throw new AppError('SVC-9003', { status: ['a rejected invoice is no expense'] });
  const pib = row.supplier_vat_number;
  let vendorId = row.vendor_id;
  if (!vendorId && pib) {
    const match = await scope.run((db) =>
      db
        .selectFrom('contacts')
        .select('id')
        .where('organization_id', '=', scope.orgId)
        .where('type', 'in', ['vendor', 'both'])
        .where((eb) =>
          eb.or([eb('vat_number', '=', pib), eb('vat_number', '=', `${row.source === 'sef' ? 'RS' : 'HR'}${pib}`)]),
        )
        .orderBy('created_at')
        .executeTakeFirst(),
    );
    vendorId = match?.id ?? null;
  }
  if (!vendorId) {
    const contact = await createContact(scope, p.organization.baseCurrency, {
      type: 'vendor',
      name: row.supplier_name,
      vatNumber: pib ?? undefined,
      registrationNumber: row.supplier_registration_number ?? undefined,
      country: pib ? (row.source === 'sef' ? 'RS' : 'HR') : undefined,
    } as Parameters<typeof createContact>[2]);
    vendorId = contact.id;
  }
  // The expense and its link to the purchase invoice commit together: a failure leaves neither, and
  // a second request (or a concurrent one, waiting on the row lock) finds the link and is refused.
  const expense = await scope.transaction(async (trx) => {
    const locked = await trx
      .selectFrom('purchase_invoices')
      .select('expense_id')
      .where('organization_id', '=', scope.orgId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (locked.expense_id) throw new AppError('SVC-9003', { expenseId: ['the expense was already created'] });
    const created = await insertExpense(
      trx,
      p,
      {
        vendorId,
        expenseDate: row.issue_date ?? new Date().toISOString().slice(0, 10),
        category,
        amount: Number(row.total_amount),
        taxAmount: Number(row.tax_amount),
        currencyCode: row.currency_code,
        description: `${row.supplier_name} ${row.invoice_number}`.slice(0, 2000),
      },
      null,
    );
    await trx
      .updateTable('purchase_invoices')
      .set({ vendor_id: vendorId, expense_id: created.id, updated_at: new Date() })
      .where('organization_id', '=', scope.orgId)
      .where('id', '=', id)
      .execute();
    return created;
  });
  return expense;
}

import { randomUUID } from 'node:crypto';
import type { TransactionEnd } from '@app/shared/db/database';
import { D, type Dec, dec, formatAmount } from '@app/shared/money';
import type { Kysely } from 'kysely';
import { hasRowNaming } from '../../db/has-row.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { lineCodeProblems } from '../../domain/code-lists.js';
import { paymentReference } from '../../domain/payment-reference.js';
import type { ErrorCode, Language } from '../../lib/catalog.js';
import { AppError, addDetail } from '../../lib/errors.js';
import { likePattern } from '../../lib/like.js';
import { type PageRequest, pageMeta } from '../../lib/pagination.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import type { AccountDeleteBlocker } from '../accounts/accounts.service.js';
import type { ContactDeleteBlocker } from '../contacts/contacts.service.js';
import { assertCurrency, currencyDecimals } from '../currencies/currencies.js';
import { documentRate, formatRate } from '../exchange-rates/exchange-rates.service.js';
import { assertAllowedRates } from '../tax-rates/allowed-rates.js';
import { findRates } from '../tax-rates/tax-rates.repository.js';
import { fiscalStateOf } from './fiscal-state.js';
import { intermediaryStateOf } from './intermediary-state.js';
import { InvoiceListCache } from './invoice-list-cache.js';
import { computeTotals } from './invoice-totals.js';
import * as repo from './invoices.repository.js';
import type { InvoiceBody, InvoiceSort, InvoicesQuery } from './invoices.schemas.js';
import { sefStateOf } from './sef-state.js';

/** A contact with invoices that are not cancelled cannot be deleted (SVC-7002). */
export const openInvoicesBlock: ContactDeleteBlocker = async (trx, orgId, contactId) =>
  (await repo.contactHasOpenInvoices(trx, orgId, contactId)) ? 'SVC-7002' : null;

/** An account named on an invoice line (of any invoice, cancelled too) is kept. */
export const invoiceLinesBlock: AccountDeleteBlocker = async (trx, orgId, accountId) =>
  (await hasRowNaming(trx, 'invoice_items', 'account_id', orgId, accountId))
    ? 'the account is used by invoice lines'
    : null;

type Db = Kysely<DB>;
type InvoiceRow = NonNullable<Awaited<ReturnType<typeof repo.findInvoice>>>;

const REVENUE_TYPE = 4;
const LIMITS = { quantity: '1000000000', unitPrice: '1000000000000', total: '1000000000000000', decimals: 6 };

/** A JSON number (or decimal text) as an exact decimal ("1.5", never "1e-7"); null when not finite. */
function decimalOf(n: number | string): Dec | null {
  if (typeof n === 'string') return dec(n);
  return Number.isFinite(n) ? dec(n) : null;
}

class Problems {
  private byCode = new Map<ErrorCode, Record<string, string[]>>();
  add(code: ErrorCode, field: string, message: string) {
    const d = this.byCode.get(code) ?? {};
    addDetail(d, field, message);
    this.byCode.set(code, d);
  }
  /** The first kind of problem found wins, with every field of that kind in details. */
  throwIfAny(order: ErrorCode[]) {
    for (const code of order) {
      const d = this.byCode.get(code);
      if (d) throw new AppError(code, d);
    }
  }
}

export interface CheckedItem {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  accountId: string | null;
  unitCode: string;
  classificationCode: string | null;
  vatExemptionCode: string | null;
}

/**
 * The rules a schema cannot express (A3, G14), answered with the catalog's own codes; the lines'
 * classification and exemption codes are checked against the official code lists of the
 * organization's country (issue 25 item 4).
 */
export function checkInvoiceBody(
  body: InvoiceBody,
  decimals: number,
  country: string,
): { items: CheckedItem[]; discount: string } {
  const p = new Problems();
  if (body.items.length === 0) p.add('SVC-3006', 'items', 'must contain at least one item');
  const items = body.items.map((item, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const values: Record<'quantity' | 'unitPrice' | 'taxRate', Dec | null> = {
      quantity: decimalOf(item.quantity),
      unitPrice: decimalOf(item.unitPrice),
      taxRate: decimalOf(item.taxRate),
    };
    for (const f of ['quantity', 'unitPrice'] as const) {
      const v = values[f];
      if (!v) p.add('SVC-9003', at(f), 'must be a finite number');
      else if (v.lte(0)) p.add('SVC-3007', at(f), 'must be greater than 0');
      else if (v.gt(LIMITS[f])) p.add('SVC-9003', at(f), `must be at most ${LIMITS[f]}`);
      else if (v.decimalPlaces() > LIMITS.decimals)
        p.add('SVC-9003', at(f), `must have at most ${LIMITS.decimals} decimal places`);
    }
    const rate = values.taxRate;
    if (!rate) p.add('SVC-9003', at('taxRate'), 'must be a finite number');
    else if (rate.lt(0) || rate.gt(100)) p.add('SVC-3008', at('taxRate'), 'must be between 0 and 100');
    else if (rate.decimalPlaces() > 4) p.add('SVC-9003', at('taxRate'), 'must have at most 4 decimal places');
    if (!item.description.trim()) p.add('SVC-9003', at('description'), 'must not be blank');
    // E1: an exemption code explains a zero rate; on a taxed line it would contradict the rate.
    if (item.vatExemptionCode && rate && !rate.isZero())
      p.add('SVC-9003', at('vatExemptionCode'), 'is only allowed with taxRate 0');
    return {
      description: item.description.trim(),
      quantity: values.quantity?.toFixed() ?? '0',
      unitPrice: values.unitPrice?.toFixed() ?? '0',
      taxRate: rate?.toFixed() ?? '0',
      accountId: item.accountId ?? null,
      unitCode: item.unitCode ?? 'H87',
      classificationCode: item.classificationCode ?? null,
      vatExemptionCode: item.vatExemptionCode ? item.vatExemptionCode.toUpperCase() : null,
    };
  });
  for (const [field, messages] of Object.entries(lineCodeProblems(country, items)))
    for (const m of messages) p.add('SVC-9003', field, m);
  if (body.dueDate < body.invoiceDate) p.add('SVC-3009', 'dueDate', 'must not be before invoiceDate');
  if (body.supplyDate && body.supplyDate > body.dueDate) p.add('SVC-9003', 'supplyDate', 'must not be after dueDate');
  let discount = '0';
  if (body.discountAmount !== undefined) {
    const d = decimalOf(body.discountAmount);
    if (!d) p.add('SVC-9003', 'discountAmount', 'must be a finite number');
    else if (d.lt(0)) p.add('SVC-9003', 'discountAmount', 'must be at least 0');
    else if (d.decimalPlaces() > decimals)
      p.add('SVC-9003', 'discountAmount', `must have at most ${decimals} decimal places`);
    else discount = d.toFixed();
  }
  p.throwIfAny(['SVC-3006', 'SVC-3007', 'SVC-3008', 'SVC-3009', 'SVC-9003']);
  return { items, discount };
}

/**
 * The customer, locked, after the lines' tax rates are checked against the organization's (issue 32:
 * SVC-3008 comes before SVC-3002); the rates arrive with the customer row, and are read on their own
 * only when there is no such customer.
 */
async function loadCustomer(db: Db, orgId: string, customerId: string, userId: string, items: CheckedItem[]) {
  const c = await repo.findCustomerLocked(db, orgId, customerId, userId);
  assertAllowedRates(c ? c.organization_tax_rates : await findRates(db, orgId), items);
  // A vendor-only or deleted contact cannot be invoiced.
  if (!c || c.type === 'vendor' || !c.is_active)
    throw new AppError('SVC-3002', { customerId: ['is not an active customer'] });
  return c;
}

async function checkRevenueAccounts(db: Db, orgId: string, items: CheckedItem[]) {
  const ids = [...new Set(items.map((i) => i.accountId).filter((v): v is string => !!v))];
  const found = new Map((await repo.findAccounts(db, orgId, ids)).map((a) => [a.id, a]));
  const details: Record<string, string[]> = {};
  items.forEach((item, i) => {
    if (!item.accountId) return;
    const a = found.get(item.accountId);
    if (!a || a.account_type_id !== REVENUE_TYPE || !a.is_active)
      details[`items[${i}].accountId`] = ['must be an active Revenue account'];
  });
  if (Object.keys(details).length) throw new AppError('SVC-9003', details);
}

/** What create and update share: validation, tax rates (issue 32), customer, rate (A5), accounts, totals (A3). */
async function prepare(db: Db, p: Principal, input: InvoiceBody) {
  // Either case in, upper-case from here on (docs/decisions.md).
  const body = input.currencyCode ? { ...input, currencyCode: input.currencyCode.toUpperCase() } : input;
  const orgId = p.orgId;
  const baseCurrency = p.organization.baseCurrency;
  // The body's own rules first, so a bad request is told so before anything is looked up.
  const { items, discount } = checkInvoiceBody(
    body,
    currencyDecimals(body.currencyCode ?? baseCurrency),
    p.organization.country,
  );
  const customer = await loadCustomer(db, orgId, body.customerId, p.userId, items);
  const currencyCode = body.currencyCode ?? customer.currency_code;
  assertCurrency(currencyCode);
  const decimals = currencyDecimals(currencyCode);
  await checkRevenueAccounts(db, orgId, items);
  const exchangeRate = await documentRate(db, orgId, currencyCode, baseCurrency, body.invoiceDate);
  const totals = computeTotals(items, {
    decimals,
    baseDecimals: currencyDecimals(baseCurrency),
    exchangeRate,
    discountAmount: discount,
  });
  if (totals.discountAmount.gt(totals.subtotal.plus(totals.taxAmount))) {
    throw new AppError('SVC-9003', { discountAmount: ['must not exceed subtotal + taxAmount'] });
  }
  if (totals.totalAmount.gte(LIMITS.total) || totals.subtotal.gte(LIMITS.total)) {
    throw new AppError('SVC-9003', { totalAmount: [`must be below ${LIMITS.total}`] });
  }
  const money = (v: Dec) => formatAmount(v, decimals);
  const values = {
    customer_id: customer.id,
    customer_name: customer.name,
    invoice_date: body.invoiceDate,
    due_date: body.dueDate,
    supply_date: body.supplyDate ?? body.invoiceDate,
    currency_code: currencyCode,
    exchange_rate: exchangeRate,
    subtotal: money(totals.subtotal),
    tax_amount: money(totals.taxAmount),
    discount_amount: money(totals.discountAmount),
    total_amount: money(totals.totalAmount),
    base_amount: formatAmount(totals.baseAmount, currencyDecimals(baseCurrency)),
    notes: body.notes ?? null,
    terms: body.terms ?? null,
  };
  const itemRows = (invoiceId: string) =>
    items.map((item, i) => ({
      organization_id: orgId,
      invoice_id: invoiceId,
      line_number: i + 1,
      description: item.description,
      quantity: item.quantity,
      unit_price: item.unitPrice,
      tax_rate: item.taxRate,
      line_total: money(totals.lines[i].lineTotal),
      line_tax: money(totals.lines[i].lineTax),
      account_id: item.accountId,
      unit_code: item.unitCode,
      classification_code: item.classificationCode,
      vat_exemption_code: item.vatExemptionCode,
    }));
  return { values, itemRows };
}

export function createInvoice(scope: TenantScope, p: Principal, body: InvoiceBody) {
  return scope.transaction((trx, end) => insertInvoice(trx, end, p, body));
}

async function insertInvoice(trx: TenantTx, end: TransactionEnd, p: Principal, body: InvoiceBody) {
  const { values, itemRows } = await prepare(trx, p, body);
  const year = Number(body.invoiceDate.slice(0, 4));
  const id = randomUUID();
  const items = itemRows('').map(({ organization_id: _o, invoice_id: _i, ...item }) => ({ ...item, id: randomUUID() }));
  // The items, then the numbered invoice and the COMMIT, in one round trip: the counter row stays
  // locked only while the server writes the invoice and commits (INSERT_ITEMS_SQL says why).
  const row = await end.commitWith(
    () => repo.insertNumberedInvoice(trx, p.orgId, year, id, { ...values, created_by: p.userId }),
    repo.newItemsStatement(p.orgId, id, items),
  );
  const stored = items.map((i) => ({ ...i, organization_id: p.orgId, invoice_id: id }));
  return presentInvoice({ ...row, status: 'draft' }, stored, p.organization);
}

/** PUT: drafts only (400 SVC-3003 with details.status); the rate is recomputed (A5). */
export function updateInvoice(scope: TenantScope, p: Principal, id: string, body: InvoiceBody, today: string) {
  return scope.transaction((trx) => replaceDraft(trx, p, id, body, today));
}

async function replaceDraft(trx: TenantTx, p: Principal, id: string, body: InvoiceBody, today: string) {
  const current = await repo.lockInvoice(trx, p.orgId, id, today);
  if (!current) throw new AppError('SVC-3001');
  if (current.status !== 'draft') throw new AppError('SVC-3003', { status: [current.status] });
  // The number carries the year of the invoice date (A4) and never changes, so neither does the year.
  if (body.invoiceDate.slice(0, 4) !== current.invoice_date.slice(0, 4)) {
    throw new AppError('SVC-9003', {
      invoiceDate: [`must stay in ${current.invoice_date.slice(0, 4)}, the year of ${current.invoice_number}`],
    });
  }
  const { values, itemRows } = await prepare(trx, p, body);
  const row = await repo.updateInvoice(trx, p.orgId, id, values);
  await repo.deleteItems(trx, p.orgId, id);
  const items = await repo.insertItems(trx, itemRows(id));
  return presentInvoice({ ...row, status: 'draft' }, items, p.organization);
}

export function getInvoice(scope: TenantScope, p: Principal, id: string, today: string) {
  return scope.run(async (db) => ({
    ...(await readInvoice(db, p, id, today)),
    sef: await sefStateOf(db, p.orgId, id),
    fiscalization: await fiscalStateOf(db, p.orgId, id),
    intermediary: await intermediaryStateOf(db, p.orgId, id, p.organization.language as Language),
  }));
}

/** The invoice as the API shows it, read with the handle the caller holds (inside its transaction). */
export async function readInvoice(db: Db, p: Principal, id: string, today: string) {
  const row = await repo.findInvoice(db, p.orgId, id, today);
  if (!row) throw new AppError('SVC-3001');
  const items = await repo.findItems(db, p.orgId, id);
  return presentInvoice(row, items, p.organization);
}

/**
 * One page of the list as the JSON text of the response (InvoiceList): the items come as text from
 * PostgreSQL (see listInvoicesJson), the page's meta is added here in the schema's key order. The
 * text is kept in `cache` and sent again while the organization's invoices are unchanged (see
 * InvoiceListCache; the database says so in the same statement that would compute the page).
 */
export async function listInvoices(
  scope: TenantScope,
  q: InvoicesQuery,
  page: PageRequest<InvoiceSort>,
  today: string,
  cache: InvoiceListCache,
): Promise<string> {
  if (q.fromDate && q.toDate && q.fromDate > q.toDate)
    throw new AppError('SVC-9003', { fromDate: ['must not be after toDate'] });
  const typed = q.search?.trim();
  const filters: repo.InvoiceFilters = {
    customerId: q.customerId,
    fromDate: q.fromDate,
    toDate: q.toDate,
    status: q.status,
    search: typed ? likePattern(typed) : undefined,
  };
  const key = InvoiceListCache.key(scope.orgId, filters, page, today);
  const held = cache.get(key);
  const fresh = await scope.run((db) =>
    repo.listInvoicesJson(db, scope.orgId, filters, page, today, held?.version ?? null),
  );
  if (!fresh.page) return held!.text;
  const text = `{"data":${fresh.page.data},"meta":${JSON.stringify(pageMeta(fresh.page.total, page))}}`;
  cache.set(key, fresh.version, text);
  return text;
}

/** numeric echoes without trailing zeros of the column's scale ("1.5000" -> "1.5"). */
function echo(v: string): string {
  return new D(v).toFixed();
}

export function presentInvoice(
  row: Omit<InvoiceRow, 'status'> & { status: InvoiceRow['status'] },
  items: repo.ItemRow[],
  org: { baseCurrency: string; country: string },
) {
  const baseCurrency = org.baseCurrency;
  const money = (v: string) => formatAmount(v, currencyDecimals(row.currency_code));
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    customerId: row.customer_id,
    customerName: row.customer_name,
    invoiceDate: row.invoice_date,
    dueDate: row.due_date,
    currencyCode: row.currency_code,
    exchangeRate: formatRate(row.exchange_rate),
    subtotal: money(row.subtotal),
    taxAmount: money(row.tax_amount),
    discountAmount: money(row.discount_amount),
    totalAmount: money(row.total_amount),
    baseAmount: formatAmount(row.base_amount, currencyDecimals(baseCurrency)),
    supplyDate: row.supply_date ?? row.invoice_date,
    paymentReference: paymentReference(org.country, row.invoice_number),
    status: row.status,
    items: items.map((i) => ({
      id: i.id,
      lineNumber: i.line_number,
      description: i.description,
      quantity: echo(i.quantity),
      unitPrice: echo(i.unit_price),
      taxRate: echo(i.tax_rate),
      lineTotal: money(i.line_total),
      accountId: i.account_id,
      unitCode: i.unit_code,
      classificationCode: i.classification_code,
      vatExemptionCode: i.vat_exemption_code,
    })),
    notes: row.notes,
    terms: row.terms,
    pdfUrl: row.pdf_key ? `/api/v1/invoices/${row.id}/pdf` : null,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    sentAt: row.sent_at ? row.sent_at.toISOString() : null,
    paidAt: row.paid_at,
  };
}

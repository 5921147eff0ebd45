import { randomUUID } from 'node:crypto';
import { runExclusive } from '@app/shared/scheduler';
import { type Kysely, sql } from 'kysely';
import { type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import type { Principal, TenantTx } from '../../plugins/auth.js';
import { invoiceUbl } from '../einvoice/einvoice.service.js';
import { presentFiscal } from '../invoices/fiscal-state.js';
import { todayIso } from '../invoices/invoice-status.js';
import type { InvoiceEvent } from '../invoices/invoice-transitions.js';
import { backoffMs, requireOwnInvoice, type SefDeps } from '../sef/sef.service.js';
import { eRacunRequest, fiscalDataFromUbl, naplataRequest, odbijanjeRequest } from './messages.js';
import { openPkcs12 } from './pkcs12.js';
import { signRequest } from './sign.js';
import { callService, FISCALIZATION_BASE_URLS, type FiscalizationEnvironment, SERVICE_PATHS } from './soap-client.js';

type Db = Kysely<DB>;
const KEY_PURPOSE = 'hr.fiscal_key';
/** How long an attempt holds its message before another may try it (as SEF's documents). */
const LEASE_MS = 120_000;
const LOCK_DELIVERY = 5_2026_1201;

/** The messages of an issued invoice; `received` and `rejection` belong to a purchase invoice. */
export type InvoiceMessage = 'eracun' | 'credit-note' | 'payment';
export type PurchaseMessage = 'received' | 'rejection';
type Message = InvoiceMessage | PurchaseMessage;

function requireHr(p: Principal) {
  if (p.organization.country !== 'HR')
    throw new AppError('SVC-9003', { country: ['fiscalization is for organizations in Croatia (HR)'] });
}

function presentSettings(row: Awaited<ReturnType<typeof findSettings>>) {
  return {
    environment: (row?.environment ?? 'test') as FiscalizationEnvironment,
    enabled: row?.enabled ?? false,
    certificateSet: Boolean(row),
    certificateSubject: row?.certificate_subject ?? null,
    certificateNotAfter: row ? new Date(row.certificate_not_after).toISOString() : null,
  };
}

function findSettings(db: Db, orgId: string) {
  return db.selectFrom('fiscalization_settings').selectAll().where('organization_id', '=', orgId).executeTakeFirst();
}

export async function getFiscalizationSettings(scope: TenantScope, p: Principal) {
  requireHr(p);
  return presentSettings(await scope.run((db) => findSettings(db, p.orgId)));
}

/** PUT /organization/fiscalization (owner): the PKCS#12 is opened, its key sealed, then dropped. */
export async function putFiscalizationSettings(
  deps: SefDeps,
  scope: TenantScope,
  p: Principal,
  body: { certificate: string; password: string; environment: FiscalizationEnvironment; enabled: boolean },
) {
  requireHr(p);
  if (!deps.box)
    throw new AppError('SVC-9003', { certificate: ['cannot be stored: SEF_KEY_ENCRYPTION_KEY is not configured'] });
  const opened = await openPkcs12(Buffer.from(body.certificate, 'base64'), body.password);
  if (!opened)
    throw new AppError('SVC-9003', { certificate: ['not a PKCS#12 file this password opens, or it holds no key'] });
  if (opened.notAfter.getTime() < Date.now())
    throw new AppError('SVC-9003', { certificate: [`expired on ${opened.notAfter.toISOString().slice(0, 10)}`] });
  const values = {
    environment: body.environment,
    enabled: body.enabled,
    key_ciphertext: deps.box.seal(opened.keyPem, KEY_PURPOSE),
    certificate_pem: opened.certPem,
    certificate_subject: opened.subject.slice(0, 500),
    certificate_not_after: opened.notAfter,
  };
  const row = await scope.transaction((trx) =>
    trx
      .insertInto('fiscalization_settings')
      .values({ organization_id: p.orgId, ...values })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return presentSettings(row);
}

// ---- the records ----

function recordsOfInvoice(db: Db, orgId: string, invoiceId: string) {
  return db
    .selectFrom('fiscal_records')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('invoice_id', '=', invoiceId)
    .execute();
}

type FiscalRow = Awaited<ReturnType<typeof recordsOfInvoice>>[number];

/** GET /invoices/:id/fiscalization: the e-invoice's, its credit note's and its payment's messages. */
export async function invoiceFiscalization(scope: TenantScope, p: Principal, invoiceId: string) {
  const [invoice, rows] = await scope.run((db) =>
    Promise.all([
      db
        .selectFrom('invoices')
        .select('id')
        .where('organization_id', '=', p.orgId)
        .where('id', '=', invoiceId)
        .executeTakeFirst(),
      recordsOfInvoice(db, p.orgId, invoiceId),
    ]),
  );
  // Another organization's invoice (or none) is 404, as every invoice route answers (A21).
  if (!invoice) throw new AppError('SVC-3001');
  const of = (m: InvoiceMessage) => presentFiscal(rows.find((r) => r.message === m));
  return { invoiceId, fiscalization: of('eracun'), creditNote: of('credit-note'), payment: of('payment') };
}

interface Intent {
  orgId: string;
  invoiceId?: string;
  purchaseInvoiceId?: string;
  message: Message;
  payload?: Record<string, unknown>;
}

/** Records a message to send (Pending, due now, its request id fixed); one already recorded stays. */
async function insertIntent(trx: Db, i: Intent) {
  const values = {
    organization_id: i.orgId,
    invoice_id: i.invoiceId ?? null,
    purchase_invoice_id: i.purchaseInvoiceId ?? null,
    message: i.message,
    request_id: randomUUID(),
    status: 'Pending' as const,
    payload: JSON.stringify(i.payload ?? {}),
    next_attempt_at: new Date(),
  };
  const q = trx.insertInto('fiscal_records').values(values);
  await (i.invoiceId
    ? q.onConflict((oc) => oc.columns(['organization_id', 'invoice_id', 'message']).doNothing())
    : q.onConflict((oc) =>
        oc
          .columns(['organization_id', 'purchase_invoice_id', 'message'])
          .where('purchase_invoice_id', 'is not', null)
          .doNothing(),
      )
  ).execute();
}

async function enabledFor(db: Db, orgId: string) {
  const s = await findSettings(db, orgId);
  return Boolean(s?.enabled);
}

/**
 * Whether the organization's e-invoices go through an information intermediary that fiscalizes
 * them itself (intermediary enabled, `fiscalizationBy: intermediary`; Moj-eRačun fiscalizes what
 * it sends and receives): then the service records no EvidentirajERacun of its own for them, so
 * no e-invoice is reported twice (docs/accounting/exchange-hr.md). Read here, not imported from
 * the exchange module (which imports this one).
 */
export async function intermediaryFiscalizes(db: Db, orgId: string) {
  const s = await db
    .selectFrom('intermediary_settings')
    .select(['enabled', 'fiscalization_by'])
    .where('organization_id', '=', orgId)
    .executeTakeFirst();
  return Boolean(s?.enabled && s.fiscalization_by === 'intermediary');
}

/**
 * InvoiceDeps.recordIntent: inside the transaction of send, mark-paid or cancel of an HR invoice,
 * with fiscalization enabled, the message it owes is recorded (so it commits with the change or
 * not at all): the e-invoice on its first send; the payment and the credit note only of an
 * e-invoice fiscalized here (one sent before fiscalization was enabled has no record to refer to).
 */
export async function recordInvoiceIntent(trx: TenantTx, p: Principal, invoiceId: string, event: InvoiceEvent) {
  if (p.organization.country !== 'HR' || !(await enabledFor(trx, p.orgId))) return;
  if (event === 'sent') {
    // Sent through an intermediary that fiscalizes what it sends: it reports this one, not us.
    if (await intermediaryFiscalizes(trx, p.orgId)) return;
    return insertIntent(trx, { orgId: p.orgId, invoiceId, message: 'eracun' });
  }
  const eracun = await trx
    .selectFrom('fiscal_records')
    .select('id')
    .where('organization_id', '=', p.orgId)
    .where('invoice_id', '=', invoiceId)
    .where('message', '=', 'eracun')
    .executeTakeFirst();
  if (!eracun) return;
  if (event === 'cancelled') return insertIntent(trx, { orgId: p.orgId, invoiceId, message: 'credit-note' });
  const inv = await trx
    .selectFrom('invoices')
    .select(['paid_at', 'total_amount', 'paid_bank_account_id'])
    .where('organization_id', '=', p.orgId)
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return insertIntent(trx, {
    orgId: p.orgId,
    invoiceId,
    message: 'payment',
    payload: {
      paidAt: String(inv.paid_at).slice(0, 10),
      amount: String(inv.total_amount),
      // T: to a bank account (transakcijski račun); Z: otherwise (ostalo).
      method: inv.paid_bank_account_id ? 'T' : 'Z',
    },
  });
}

/** InvoiceDeps.afterCommit: the first attempt of what recordInvoiceIntent recorded; never throws. */
export async function afterInvoiceCommit(deps: SefDeps, p: Principal, invoiceId: string) {
  if (p.organization.country !== 'HR') return;
  try {
    await deliverFiscalDue(deps, { orgId: p.orgId, invoiceId });
  } catch (err) {
    deps.log.warn({ err, invoiceId }, 'fiscalization: first attempt failed, the job tries again');
  }
}

/**
 * A received e-invoice (purchase invoice): inside the transaction that stores it or rejects it,
 * its fiscalization (U) or the rejection report is recorded, with fiscalization enabled.
 */
export async function recordPurchaseIntent(
  trx: Db,
  orgId: string,
  purchaseInvoiceId: string,
  message: PurchaseMessage,
  payload: Record<string, unknown> = {},
) {
  if (!(await enabledFor(trx, orgId))) return;
  // A received e-invoice the intermediary delivered and fiscalized (U) itself.
  if (message === 'received' && (await intermediaryFiscalizes(trx, orgId))) return;
  await insertIntent(trx, { orgId, purchaseInvoiceId, message, payload });
}

export async function afterPurchaseCommit(deps: SefDeps, orgId: string, purchaseInvoiceId: string) {
  try {
    await deliverFiscalDue(deps, { orgId, purchaseInvoiceId });
  } catch (err) {
    deps.log.warn({ err, purchaseInvoiceId }, 'fiscalization: first attempt failed, the job tries again');
  }
}

/**
 * POST /invoices/:id/fiscalization {message?}: records the message (the e-invoice by default, or
 * its credit note or payment) when it was never recorded or was refused (then with a new request
 * id), and makes the attempt that is due, outside any transaction. Fiscalized or pending: unchanged
 * (a pending one is tried by the job at its time).
 */
export async function fiscalizeInvoice(
  deps: SefDeps,
  scope: TenantScope,
  p: Principal,
  invoiceId: string,
  message: InvoiceMessage = 'eracun',
) {
  await requireOwnInvoice(scope, p, invoiceId);
  requireHr(p);
  const settings = await scope.run((db) => findSettings(db, p.orgId));
  if (!settings?.enabled || !deps.box)
    throw new AppError('SVC-9003', {
      fiscalization: ['not enabled for the organization (PUT /organization/fiscalization)'],
    });
  if (message === 'payment') {
    const inv = await scope.run((db) =>
      db.selectFrom('invoices').select('status').where('id', '=', invoiceId).executeTakeFirstOrThrow(),
    );
    if (inv.status !== 'paid')
      throw new AppError('SVC-3004', { status: [`${inv.status}: a payment is reported for a paid invoice`] });
  }
  // Missing data, a draft, a credit note of an invoice not cancelled: answered now.
  await invoiceUbl(
    scope,
    deps.invoices,
    p,
    invoiceId,
    message === 'credit-note' ? 'credit-note' : 'invoice',
    todayIso(),
  );
  await scope.transaction(async (trx) => {
    const old = (await recordsOfInvoice(trx, p.orgId, invoiceId)).find((r) => r.message === message);
    if (old && old.status !== 'Failed') return;
    if (old) {
      await trx
        .updateTable('fiscal_records')
        .set({
          request_id: randomUUID(),
          status: 'Pending' as const,
          errors: '[]',
          last_error: null,
          answered_at: null,
          attempts: 0,
          next_attempt_at: new Date(),
          updated_at: new Date(),
        })
        .where('organization_id', '=', p.orgId)
        .where('id', '=', old.id)
        .execute();
      return;
    }
    if (message === 'payment') {
      // The payment as mark-paid recorded it (fiscalization enabled afterwards, or the e-invoice
      // fiscalized by hand): recordInvoiceIntent writes the same payload.
      return recordInvoiceIntent(trx as TenantTx, p, invoiceId, 'paid');
    }
    await insertIntent(trx, { orgId: p.orgId, invoiceId, message });
  });
  await deliverFiscalDue(deps, { orgId: p.orgId, invoiceId });
  return invoiceFiscalization(scope, p, invoiceId);
}

// ---- delivery ----

/**
 * Claims up to `limit` pending messages whose attempt is due and moves their next attempt a lease
 * ahead in the same committed statement (SKIP LOCKED): another instance, or the request that
 * recorded one, skips them while this attempt runs; a crash lets the lease run out and the job
 * tries again with the same request id (as SEF's claimDue).
 */
async function claimDue(
  db: Db,
  limit: number,
  only?: { orgId: string; invoiceId?: string; purchaseInvoiceId?: string },
) {
  const { rows } = await sql<FiscalRow>`
    UPDATE fiscal_records f SET attempts = f.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${LEASE_MS / 1000}), updated_at = now()
    WHERE f.id IN (
      SELECT id FROM fiscal_records
      WHERE status = 'Pending' AND next_attempt_at <= now()
        ${only ? sql`AND organization_id = ${only.orgId}` : sql``}
        ${only?.invoiceId ? sql`AND invoice_id = ${only.invoiceId}` : sql``}
        ${only?.purchaseInvoiceId ? sql`AND purchase_invoice_id = ${only.purchaseInvoiceId}` : sql``}
      ORDER BY next_attempt_at, created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING f.*`.execute(db);
  // The e-invoice before the messages that refer to it (payment, credit note).
  return rows.sort((a, b) => Number(b.message === 'eracun') - Number(a.message === 'eracun'));
}

/** Not an outcome: the message waits for another (the e-invoice it refers to). */
class Waiting extends Error {}

function systemPrincipal(orgId: string): Principal {
  return { orgId } as Principal;
}

async function ublOf(deps: SefDeps, orgId: string, invoiceId: string, kind: 'invoice' | 'credit-note') {
  const scope = tenantScope(deps.db, orgId, null);
  return (await invoiceUbl(scope, deps.invoices, systemPrincipal(orgId), invoiceId, kind, todayIso())).xml;
}

async function requireFiscalized(db: Db, rec: FiscalRow) {
  const eracun = await db
    .selectFrom('fiscal_records')
    .select(['status', 'last_error'])
    .where('organization_id', '=', rec.organization_id)
    .where('invoice_id', '=', rec.invoice_id)
    .where('message', '=', 'eracun')
    .executeTakeFirst();
  if (eracun?.status === 'Fiscalized') return;
  throw new Waiting(
    eracun?.status === 'Failed'
      ? 'waiting for the e-invoice, whose fiscalization was refused: fiscalize it again (POST /invoices/:id/fiscalization)'
      : "waiting for the e-invoice's fiscalization",
  );
}

function parsePayload(rec: FiscalRow) {
  return (typeof rec.payload === 'string' ? JSON.parse(rec.payload) : rec.payload) as Record<string, string>;
}

/** The unsigned request and the service it goes to. */
async function buildMessage(deps: SefDeps, rec: FiscalRow): Promise<{ xml: string; path: string }> {
  const sys = deps.db.system;
  const opts = { id: rec.request_id };
  if (rec.message === 'eracun' || rec.message === 'credit-note') {
    if (rec.message === 'credit-note') await requireFiscalized(sys, rec);
    const ubl = await ublOf(
      deps,
      rec.organization_id,
      rec.invoice_id!,
      rec.message === 'eracun' ? 'invoice' : 'credit-note',
    );
    return { xml: eRacunRequest(fiscalDataFromUbl(ubl), 'I', opts).xml, path: SERVICE_PATHS.eRacun };
  }
  if (rec.message === 'payment') {
    await requireFiscalized(sys, rec);
    const data = fiscalDataFromUbl(await ublOf(deps, rec.organization_id, rec.invoice_id!, 'invoice'));
    const pay = parsePayload(rec);
    const xml = naplataRequest(
      {
        brojDokumenta: data.brojDokumenta,
        datumIzdavanja: data.datumIzdavanja,
        oibIzdavatelja: data.izdavatelj.oib,
        oibPrimatelja: data.primatelj.oib,
        datumNaplate: pay.paidAt,
        iznos: pay.amount,
        nacinPlacanja: pay.method as 'T' | 'O' | 'Z',
      },
      opts,
    ).xml;
    return { xml, path: SERVICE_PATHS.izvjestavanje };
  }
  const purchase = await sys
    .selectFrom('purchase_invoices')
    .select(['ubl'])
    .where('organization_id', '=', rec.organization_id)
    .where('id', '=', rec.purchase_invoice_id!)
    .executeTakeFirstOrThrow();
  const data = fiscalDataFromUbl(purchase.ubl);
  if (rec.message === 'received') return { xml: eRacunRequest(data, 'U', opts).xml, path: SERVICE_PATHS.eRacun };
  const rej = parsePayload(rec);
  const xml = odbijanjeRequest(
    {
      brojDokumenta: data.brojDokumenta,
      datumIzdavanja: data.datumIzdavanja,
      oibIzdavatelja: data.izdavatelj.oib,
      oibPrimatelja: data.primatelj.oib,
      datumOdbijanja: rej.date,
      vrstaRazloga: rej.reasonType,
      razlog: rej.reason,
    },
    opts,
  ).xml;
  return { xml, path: SERVICE_PATHS.izvjestavanje };
}

async function record(
  db: Db,
  rec: FiscalRow,
  values: Partial<{
    status: 'Pending' | 'Fiscalized' | 'Failed';
    last_error: string | null;
    errors: string;
    answered_at: string | null;
    next_attempt_at: Date | null;
  }>,
) {
  await db
    .updateTable('fiscal_records')
    .set({ ...values, updated_at: new Date() })
    .where('organization_id', '=', rec.organization_id)
    .where('id', '=', rec.id)
    .execute();
}

/** One attempt: build, sign, call (no transaction open), record the outcome. */
async function attempt(deps: SefDeps, rec: FiscalRow) {
  const sys = deps.db.system;
  const retryLater = (message: string) =>
    record(sys, rec, {
      status: 'Pending',
      last_error: message.slice(0, 2000),
      next_attempt_at: new Date(Date.now() + backoffMs(rec.attempts, null)),
    });
  const fail = (message: string) =>
    record(sys, rec, { status: 'Failed', last_error: message.slice(0, 2000), next_attempt_at: null });
  const settings = await findSettings(sys, rec.organization_id);
  if (!settings?.enabled || !deps.box) return fail('fiscalization is not enabled for the organization');
  let built: { xml: string; path: string };
  try {
    built = await buildMessage(deps, rec);
  } catch (err) {
    if (err instanceof Waiting) return retryLater(err.message);
    const details = err instanceof AppError && err.details ? JSON.stringify(err.details) : String(err);
    return fail(`the message cannot be built: ${details}`);
  }
  const signed = signRequest(
    built.xml,
    deps.box.open(settings.key_ciphertext, KEY_PURPOSE).toString('utf8'),
    settings.certificate_pem,
  );
  const base = deps.config.fiscalization.baseUrl ?? FISCALIZATION_BASE_URLS[settings.environment];
  const outcome = await callService(`${base}${built.path}`, signed, {
    timeoutMs: deps.config.fiscalization.timeoutMs,
    fetch: deps.fetch,
  });
  if (!outcome.ok) {
    deps.log.warn({ id: rec.id, message: rec.message, error: outcome.message }, 'fiscalization: retried later');
    return retryLater(outcome.message);
  }
  if (outcome.accepted)
    return record(sys, rec, {
      status: 'Fiscalized',
      last_error: null,
      errors: '[]',
      answered_at: outcome.answeredAt,
      next_attempt_at: null,
    });
  return record(sys, rec, {
    status: 'Failed',
    last_error: outcome.errors
      .map((e) => `${e.code}: ${e.message}`)
      .join('; ')
      .slice(0, 2000),
    errors: JSON.stringify(outcome.errors),
    answered_at: outcome.answeredAt,
    next_attempt_at: null,
  });
}

/** One pass: the due messages (all, or one invoice's or purchase invoice's), each attempted once. */
export async function deliverFiscalDue(
  deps: SefDeps,
  only?: { orgId: string; invoiceId?: string; purchaseInvoiceId?: string },
): Promise<number> {
  const due = await claimDue(deps.db.system, only ? 5 : 20, only);
  for (const rec of due) {
    try {
      await attempt(deps, rec);
    } catch (err) {
      deps.log.error({ err, id: rec.id }, 'fiscalization: attempt failed');
    }
  }
  return due.length;
}

/**
 * The delivery job (FISCALIZATION_DELIVERY_INTERVAL): once across instances (advisory lock, as
 * SEF's sync), draining what is due 20 at a time; each message is also claimed with a lease, so the
 * request that recorded it and the job never send it at once.
 */
export function runFiscalDelivery(deps: SefDeps) {
  return runExclusive(deps.db.system, deps.db.kind, LOCK_DELIVERY, async () => {
    let n = 0;
    for (let got = await deliverFiscalDue(deps); got > 0; got = await deliverFiscalDue(deps)) n += got;
    return n;
  });
}

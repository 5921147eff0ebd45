import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '@app/shared/db/database';
import { runExclusive } from '@app/shared/scheduler';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Principal } from '../../plugins/auth.js';
import { invoiceUbl } from '../einvoice/einvoice.service.js';
import { todayIso } from '../invoices/invoice-status.js';
import type { InvoiceDeps } from '../invoices/invoice-transitions.js';
import * as invoices from '../invoices/invoices.repository.js';
import { readInvoice } from '../invoices/invoices.service.js';
import { presentSef } from '../invoices/sef-state.js';
import * as repo from './sef.repository.js';
import { isRegistered, SEF_BASE_URLS, SefClient, type SefEnvironment, type SefResult } from './sef-client.js';

type Db = Kysely<DB>;
export type SefKind = 'invoice' | 'credit-note';

export interface SefDeps {
  config: Readonly<Config>;
  db: Database<DB>;
  invoices: InvoiceDeps;
  /** Null when SEF_KEY_ENCRYPTION_KEY is not set (production): no key can be stored or read. */
  box: SecretBox | null;
  log: FastifyBaseLogger;
  /** Tests replace the HTTP client's fetch (never needed with SEF_BASE_URL and a mock server). */
  fetch?: typeof fetch;
  /**
   * Croatian received e-invoices (issue 28): the fiscalization module records, inside the
   * transaction that stores or rejects one, the message it owes (U, or the rejection report), and
   * sends it after commit. Set by app.ts (this module does not import that one: no folder loop).
   */
  hrPurchase?: {
    recordIntent: (
      trx: Db,
      orgId: string,
      purchaseInvoiceId: string,
      message: 'received' | 'rejection',
      payload?: Record<string, unknown>,
    ) => Promise<void>;
    afterCommit: (orgId: string, purchaseInvoiceId: string) => Promise<void>;
    /**
     * Tells the sender, through the intermediary (outside any transaction), the decision on a
     * received document (its id there); null when no intermediary is set up.
     */
    decide?: (
      orgId: string,
      documentId: string,
      accepted: boolean,
      comment: string,
    ) => Promise<{ ok: true } | { ok: false; retry: boolean; message: string } | null>;
  };
}

const KEY_PURPOSE = 'sef.api_key';
/** Retries: the first within 30 s, then doubling up to 15 minutes (D3). */
export const FIRST_RETRY_MS = 15_000;
export const MAX_RETRY_MS = 15 * 60_000;
/** How long an attempt holds its document before another may try it. */
const LEASE_MS = 120_000;
const LOCK_SYNC = 4_2026_1130;

export function backoffMs(attempts: number, retryAfterMs: number | null): number {
  const exp = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.min(MAX_RETRY_MS, Math.max(exp, retryAfterMs ?? 0));
}

// ---- D1 settings ----

export function presentSettings(row: repo.SefDocumentRow | null | Awaited<ReturnType<typeof repo.findSettings>>) {
  const s = row as Awaited<ReturnType<typeof repo.findSettings>>;
  return {
    environment: (s?.environment ?? 'demo') as SefEnvironment,
    enabled: s?.enabled ?? false,
    apiKeySet: Boolean(s?.api_key_ciphertext),
    lastSyncAt: s?.last_sync_at ? new Date(s.last_sync_at).toISOString() : null,
  };
}

function requireRs(p: Principal) {
  if (p.organization.country !== 'RS')
    throw new AppError('SVC-9003', { country: ['SEF is for organizations in Serbia (RS)'] });
}

function webhookUrl(deps: SefDeps, token: string) {
  return `${deps.config.publicBaseUrl}/api/v1/sef/webhook/${token}`;
}

export async function getSettings(deps: SefDeps, scope: TenantScope, p: Principal) {
  requireRs(p);
  const row = await scope.run((db) => repo.findSettings(db, p.orgId));
  const out = presentSettings(row ?? null);
  // The notification URL is a capability: shown to the roles that may change the settings.
  return p.role === 'owner' || p.role === 'admin'
    ? { ...out, webhookUrl: row ? webhookUrl(deps, row.webhook_token) : null }
    : out;
}

export async function putSettings(
  deps: SefDeps,
  scope: TenantScope,
  p: Principal,
  body: { apiKey?: string; environment?: SefEnvironment; enabled?: boolean },
) {
  requireRs(p);
  if (body.apiKey !== undefined && !deps.box)
    throw new AppError('SVC-9003', { apiKey: ['cannot be stored: SEF_KEY_ENCRYPTION_KEY is not configured'] });
  const sealed = body.apiKey === undefined ? undefined : deps.box!.seal(body.apiKey.trim(), KEY_PURPOSE);
  const row = await scope.transaction(async (trx) => {
    const old = await repo.findSettings(trx, p.orgId);
    const next = {
      environment: body.environment ?? old?.environment ?? 'demo',
      enabled: body.enabled ?? old?.enabled ?? false,
      api_key_ciphertext: sealed ?? old?.api_key_ciphertext ?? null,
    };
    if (next.enabled && !next.api_key_ciphertext)
      throw new AppError('SVC-9003', { apiKey: ['is required to enable SEF'] });
    return trx
      .insertInto('sef_settings')
      .values({ organization_id: p.orgId, webhook_token: randomBytes(24).toString('base64url'), ...next })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...next, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { ...presentSettings(row), webhookUrl: webhookUrl(deps, row.webhook_token) };
}

/** The organization's SEF client; null without a key, or while SEF is switched off unless `evenIfDisabled`. */
export async function clientFor(deps: SefDeps, db: Db, orgId: string, opts?: { evenIfDisabled?: boolean }) {
  const requireEnabled = opts?.evenIfDisabled !== true;
  const s = await repo.findSettings(db, orgId);
  if (!s?.api_key_ciphertext || (requireEnabled && !s.enabled) || !deps.box) return null;
  return new SefClient({
    baseUrl: deps.config.sef.baseUrl ?? SEF_BASE_URLS[s.environment],
    apiKey: deps.box.open(s.api_key_ciphertext, KEY_PURPOSE).toString('utf8'),
    timeoutMs: deps.config.sef.timeoutMs,
    fetch: deps.fetch,
  });
}

// ---- D2 the invoice's sef ----

/** The invoice as GET /invoices/:id shows it, with its SEF state and that of its credit note. */
export async function invoiceWithSef(db: Db, p: Principal, id: string) {
  const inv = await readInvoice(db, p, id, todayIso());
  const docs = await repo.documentsOf(db, p.orgId, id);
  return {
    ...inv,
    sef: presentSef(docs.find((d) => d.kind === 'invoice')),
    creditNoteSef: presentSef(docs.find((d) => d.kind === 'credit-note')),
  };
}

export function getInvoiceSef(scope: TenantScope, p: Principal, id: string) {
  return scope.run((db) => invoiceWithSef(db, p, id));
}

// ---- D3 queueing and delivery ----

/** A principal for work done on the organization's behalf by a job (reads only the org id). */
function systemPrincipal(orgId: string): Principal {
  return { orgId } as Principal;
}

async function renderDocument(deps: SefDeps, orgId: string, invoiceId: string, kind: SefKind) {
  const scope = tenantScope(deps.db, orgId, null);
  return (await invoiceUbl(scope, deps.invoices, systemPrincipal(orgId), invoiceId, kind, todayIso())).xml;
}

/**
 * POST /invoices/:id/sef (and /credit-note/sef): checks the document can be built (422 naming what
 * is missing), records the intent with a fresh requestId and commits, then makes the first attempt
 * outside any transaction. Queueing a document already queued or delivered changes nothing; one
 * SEF refused (Failed) is queued again with a new requestId (SEF registered nothing under the old).
 */
/**
 * Another organization's invoice, or none, is 404 before anything else is said about it (A21): not
 * the 422 of an organization without SEF, which would tell the caller nothing about the record yet.
 */
export async function requireOwnInvoice(scope: TenantScope, p: Principal, invoiceId: string): Promise<void> {
  const found = await scope.run((db) =>
    db
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', p.orgId)
      .where('id', '=', invoiceId)
      .executeTakeFirst(),
  );
  if (!found) throw new AppError('SVC-3001');
}

export async function queueDocument(deps: SefDeps, scope: TenantScope, p: Principal, invoiceId: string, kind: SefKind) {
  await requireOwnInvoice(scope, p, invoiceId);
  requireRs(p);
  const settings = await scope.run((db) => repo.findSettings(db, p.orgId));
  if (!settings?.enabled || !settings.api_key_ciphertext)
    throw new AppError('SVC-9003', { sef: ['SEF is not enabled for the organization (PUT /organization/sef)'] });
  // Missing data, a draft, a credit note of an invoice not cancelled: answered now.
  await invoiceUbl(scope, deps.invoices, p, invoiceId, kind, todayIso());
  const doc = await scope.transaction(async (trx) => {
    const old = await repo.findDocument(trx, p.orgId, invoiceId, kind);
    if (old && old.status !== 'Failed') return { doc: old, fresh: false };
    const values = {
      request_id: randomUUID(),
      status: 'Pending',
      last_error: null,
      sales_invoice_id: null,
      attempts: 0,
      next_attempt_at: new Date(),
    };
    if (old) return { doc: (await repo.updateDocument(trx, p.orgId, old.id, values))!, fresh: true };
    const row = await trx
      .insertInto('sef_documents')
      .values({ organization_id: p.orgId, invoice_id: invoiceId, kind, ...values })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { doc: row, fresh: true };
  });
  if (doc.fresh) await deliverDue(deps, { orgId: p.orgId, id: doc.doc.id });
  return scope.run((db) => invoiceWithSef(db, p, invoiceId));
}

/**
 * After `send` (D3): with SEF enabled, an RS invoice is queued in its own transaction and tried.
 * Never fails the send: what SEF or the document lacks shows as the invoice's sef (Failed).
 */
export async function queueAfterSend(deps: SefDeps, scope: TenantScope, p: Principal, invoiceId: string) {
  if (p.organization.country !== 'RS') return;
  const settings = await scope.run((db) => repo.findSettings(db, p.orgId));
  if (!settings?.enabled || !settings.api_key_ciphertext) return;
  try {
    await queueDocument(deps, scope, p, invoiceId, 'invoice');
  } catch (err) {
    const message =
      err instanceof AppError && err.details
        ? Object.entries(err.details)
            .map(([k, v]) => `${k}: ${v.join(' ')}`)
            .join('; ')
        : String(err);
    deps.log.warn({ err, invoiceId }, 'SEF: invoice not queued after send');
    await scope.transaction((trx) =>
      trx
        .insertInto('sef_documents')
        .values({
          organization_id: p.orgId,
          invoice_id: invoiceId,
          kind: 'invoice',
          request_id: randomUUID(),
          status: 'Failed',
          last_error: `not sent: ${message}`.slice(0, 2000),
        })
        .onConflict((oc) => oc.columns(['organization_id', 'invoice_id', 'kind']).doNothing())
        .execute(),
    );
  }
}

/** Registered in SEF, by SEF's own answer; null when SEF could not say (try again later). */
async function buyerCheck(client: SefClient, db: Db, orgId: string, invoiceId: string) {
  const inv = await invoices.findInvoice(db, orgId, invoiceId, todayIso());
  const customer = inv ? await invoices.findCustomer(db, orgId, inv.customer_id) : undefined;
  const pib = customer?.vat_number?.replace(/^RS/i, '').trim();
  if (!pib) return { ok: true as const };
  const res = await client.companyRegistered(pib, customer?.registration_number);
  if (!res.ok) return res.retry ? res : { ok: true as const }; // a refused look-up does not block
  return isRegistered(res.value)
    ? { ok: true as const }
    : {
        ok: false as const,
        retry: false as const,
        status: 200,
        message: `the buyer (PIB ${pib}) is not registered in SEF`,
      };
}

async function attempt(deps: SefDeps, doc: repo.SefDocumentRow) {
  const sys = deps.db.system;
  const client = await clientFor(deps, sys, doc.organization_id);
  let result: SefResult<{ SalesInvoiceId: number }>;
  if (!client) {
    result = { ok: false, retry: false, status: 0, message: 'SEF is not enabled for the organization' };
  } else {
    let xml: string | null = null;
    try {
      xml = await renderDocument(deps, doc.organization_id, doc.invoice_id, doc.kind);
    } catch (err) {
      const details = err instanceof AppError && err.details ? JSON.stringify(err.details) : String(err);
      result = { ok: false, retry: false, status: 0, message: `the e-invoice cannot be built: ${details}` };
    }
    if (xml !== null) {
      const unlisted = await codesNotInSefLists(sys, xml);
      const check = unlisted
        ? { ok: false as const, retry: false as const, status: 0, message: unlisted }
        : await buyerCheck(client, sys, doc.organization_id, doc.invoice_id);
      result = check.ok ? await client.sendUbl(xml, doc.request_id) : check;
    }
  }
  result ??= { ok: false, retry: true, status: null, message: 'no attempt', retryAfterMs: null };
  if (result.ok) {
    return repo.updateDocument(sys, doc.organization_id, doc.id, {
      status: 'Sent',
      sales_invoice_id: Number(result.value.SalesInvoiceId),
      last_error: null,
      next_attempt_at: null,
    });
  }
  if (result.retry) {
    const wait = backoffMs(doc.attempts, result.retryAfterMs);
    deps.log.warn({ invoiceId: doc.invoice_id, status: result.status, waitMs: wait }, 'SEF: delivery retried later');
    return repo.updateDocument(sys, doc.organization_id, doc.id, {
      status: 'Pending',
      last_error: result.message,
      next_attempt_at: new Date(Date.now() + wait),
    });
  }
  return repo.updateDocument(sys, doc.organization_id, doc.id, {
    status: 'Failed',
    last_error: result.message,
    next_attempt_at: null,
  });
}

/** One pass of the delivery job (or one document, right after it was queued). */
export async function deliverDue(deps: SefDeps, only?: { orgId: string; id: string }): Promise<number> {
  const due = await repo.claimDue(deps.db.system, LEASE_MS, only ? 1 : 20, only);
  for (const doc of due) {
    try {
      await attempt(deps, doc);
    } catch (err) {
      deps.log.error({ err, invoiceId: doc.invoice_id }, 'SEF: delivery attempt failed');
    }
  }
  return due.length;
}

// ---- cancel and storno ----

export async function cancelOrStorno(
  deps: SefDeps,
  scope: TenantScope,
  p: Principal,
  invoiceId: string,
  action: 'cancel' | 'storno',
  body: { reason: string; stornoNumber?: string },
) {
  await requireOwnInvoice(scope, p, invoiceId);
  requireRs(p);
  const doc = await scope.run((db) => repo.findDocument(db, p.orgId, invoiceId, 'invoice'));
  if (!doc?.sales_invoice_id) throw new AppError('SVC-3004', { sef: ['the invoice is not registered in SEF'] });
  const client = await scope.run((db) => clientFor(deps, db, p.orgId, { evenIfDisabled: true }));
  if (!client) throw new AppError('SVC-9003', { sef: ['SEF is not set up for the organization'] });
  const id = Number(doc.sales_invoice_id);
  const res =
    action === 'cancel'
      ? await client.cancel(id, body.reason)
      : await client.storno(id, body.reason, body.stornoNumber);
  if (!res.ok && res.retry) throw new AppError('SVC-9007', { sef: [res.message] });
  if (!res.ok) {
    await scope.transaction((trx) => repo.updateDocument(trx, p.orgId, doc.id, { last_error: res.message }));
    throw new AppError('SVC-9003', { sef: [res.message] });
  }
  await scope.transaction((trx) =>
    repo.updateDocument(trx, p.orgId, doc.id, {
      status: res.value?.Status ?? (action === 'cancel' ? 'Cancelled' : 'Storno'),
      last_error: null,
    }),
  );
  return scope.run((db) => invoiceWithSef(db, p, invoiceId));
}

// ---- status sync, purchase intake, webhook ----

function addDays(date: string, n: number) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Applies SEF's status changes of the given sales invoices to the documents that carry them. */
async function applySalesChanges(
  db: Db,
  orgId: string,
  changes: Array<{ SalesInvoiceId?: number; NewInvoiceStatus?: string }>,
) {
  let n = 0;
  for (const c of changes) {
    if (!c.SalesInvoiceId || !c.NewInvoiceStatus) continue;
    const r = await repo.setStatusBySalesId(db, orgId, Number(c.SalesInvoiceId), c.NewInvoiceStatus);
    n += Number(r.numUpdatedRows ?? 0);
  }
  return n;
}

/**
 * One organization: the sales status changes of each day since the last sync (sales-invoice/changes
 * by date), then the purchase invoices received in that window (ids, then the UBL of each unknown
 * one). The calls run outside transactions; each result is recorded on its own.
 */
export async function syncOrganization(deps: SefDeps, orgId: string, today = todayIso()) {
  const sys = deps.db.system;
  const settings = await repo.findSettings(sys, orgId);
  const client = await clientFor(deps, sys, orgId);
  if (!settings || !client) return { changes: 0, purchases: 0 };
  const from = settings.last_sync_at ? new Date(settings.last_sync_at).toISOString().slice(0, 10) : addDays(today, -1);
  let changes = 0;
  for (let d = from; d <= today; d = addDays(d, 1)) {
    const res = await client.salesChanges(d);
    if (!res.ok) throw new Error(`SEF sales-invoice/changes ${d}: ${res.message}`);
    changes += await applySalesChanges(sys, orgId, res.value ?? []);
  }
  const purchases = await intakePurchases(deps, client, orgId, addDays(from, -1), today);
  await sys
    .updateTable('sef_settings')
    .set({ last_sync_at: new Date() })
    .where('organization_id', '=', orgId)
    .execute();
  return { changes, purchases };
}

async function intakePurchases(deps: SefDeps, client: SefClient, orgId: string, from: string, to: string) {
  const ids = await client.purchaseIds(`${from}T00:00:00`, `${to}T23:59:59`);
  if (!ids.ok) throw new Error(`SEF purchase-invoice/ids: ${ids.message}`);
  const all = (ids.value?.PurchaseInvoiceIds ?? []).map(String);
  const known = await repo.knownPurchaseIds(deps.db.system, orgId, 'sef', all);
  let n = 0;
  for (const id of all.filter((x) => !known.has(x))) {
    if (await intakeOne(deps, client, orgId, Number(id))) n += 1;
  }
  return n;
}

async function intakeOne(deps: SefDeps, client: SefClient, orgId: string, id: number) {
  const xml = await client.purchaseXml(id);
  if (!xml.ok) {
    deps.log.warn({ purchaseInvoiceId: id, message: xml.message }, 'SEF: purchase invoice XML not fetched');
    return false;
  }
  const status = await client.purchaseInvoice(id);
  const { storePurchase } = await import('./purchase-invoices.service.js');
  return storePurchase(deps, orgId, 'sef', String(id), xml.value, status.ok ? status.value.Status : 'New');
}

/** The sync job: every organization with SEF on, once across instances (advisory lock). */
export async function runSefSync(deps: SefDeps) {
  return runExclusive(deps.db.system, deps.db.kind, LOCK_SYNC, async () => {
    let orgs = 0;
    for (const s of await repo.enabledSettings(deps.db.system)) {
      try {
        await syncOrganization(deps, s.organization_id);
        orgs += 1;
      } catch (err) {
        deps.log.warn({ err, orgId: s.organization_id }, 'SEF: sync failed, tried again next time');
      }
    }
    await refreshCodeLists(deps).catch((err) => deps.log.warn({ err }, 'SEF: code lists not refreshed'));
    return orgs;
  });
}

/**
 * The webhook (D2): SEF's notification for a sales or purchase invoice, authenticated by the
 * organization's secret URL token. Sales: the status is applied; purchase: the invoice is fetched
 * (or its status updated). Unknown tokens are 404.
 */
export async function receiveWebhook(deps: SefDeps, token: string, body: unknown) {
  const sys = deps.db.system;
  const settings = await repo.findSettingsByWebhookToken(sys, token);
  if (!settings?.enabled) throw new AppError('SVC-9002');
  const events = (Array.isArray(body) ? body : [body]) as Array<Record<string, unknown>>;
  let applied = 0;
  const client = await clientFor(deps, sys, settings.organization_id);
  for (const e of events) {
    const status = (e.NewInvoiceStatus ?? e.Status ?? e.newInvoiceStatus ?? e.status) as string | undefined;
    const salesId = (e.SalesInvoiceId ?? e.salesInvoiceId) as number | undefined;
    const purchaseId = (e.PurchaseInvoiceId ?? e.purchaseInvoiceId) as number | undefined;
    if (salesId && status) {
      applied += await applySalesChanges(sys, settings.organization_id, [
        { SalesInvoiceId: Number(salesId), NewInvoiceStatus: status },
      ]);
    } else if (purchaseId && client) {
      const known = await repo.knownPurchaseIds(sys, settings.organization_id, 'sef', [String(purchaseId)]);
      if (!known.size) {
        if (await intakeOne(deps, client, settings.organization_id, Number(purchaseId))) applied += 1;
      } else if (status) {
        const r = await sys
          .updateTable('purchase_invoices')
          .set({ status, updated_at: new Date() })
          .where('organization_id', '=', settings.organization_id)
          .where('source', '=', 'sef')
          .where('external_id', '=', String(purchaseId))
          .executeTakeFirst();
        applied += Number(r.numUpdatedRows ?? 0);
      }
    }
  }
  return { applied };
}

// ---- SEF's own code lists, cached daily ----

/**
 * The document's units and VAT exemption codes that SEF's own lists (as last fetched) do not have,
 * as a message; null when all are listed or no list was fetched yet. SEF would refuse them.
 */
export async function codesNotInSefLists(db: Db, xml: string): Promise<string | null> {
  const rows = await db.selectFrom('sef_code_lists').select(['name', 'entries']).execute();
  const listed = (name: string, key: string) => {
    const r = rows.find((x) => x.name === name);
    const entries = (r ? (typeof r.entries === 'string' ? JSON.parse(r.entries) : r.entries) : []) as Array<
      Record<string, unknown>
    >;
    return entries.length ? new Set(entries.map((e) => String(e[key] ?? e[key.toLowerCase()] ?? ''))) : null;
  };
  const units = listed('unit-measures', 'Code');
  const reasons = listed('vat-exemption-reasons', 'Key');
  const problems: string[] = [];
  for (const u of new Set([...xml.matchAll(/unitCode="([^"]+)"/g)].map((m) => m[1])))
    if (units && !units.has(u)) problems.push(`unit ${u} is not in SEF's list of units`);
  for (const c of new Set([...xml.matchAll(/<cbc:TaxExemptionReasonCode>([^<]+)</g)].map((m) => m[1])))
    if (reasons && !reasons.has(c)) problems.push(`VAT exemption code ${c} is not in SEF's list`);
  return problems.length ? problems.join('; ') : null;
}

const DAY = 86_400_000;

export async function refreshCodeLists(deps: SefDeps, now = Date.now()) {
  const sys = deps.db.system;
  const fresh = await sys.selectFrom('sef_code_lists').select(['name', 'fetched_at']).execute();
  const stale = (name: string) => {
    const f = fresh.find((r) => r.name === name);
    return !f || now - new Date(f.fetched_at).getTime() >= DAY;
  };
  if (!stale('vat-exemption-reasons') && !stale('unit-measures')) return false;
  const [any] = await repo.enabledSettings(sys);
  if (!any) return false;
  const client = await clientFor(deps, sys, any.organization_id);
  if (!client) return false;
  for (const [name, call] of [
    ['vat-exemption-reasons', () => client.exemptionReasons()],
    ['unit-measures', () => client.unitMeasures()],
  ] as const) {
    if (!stale(name)) continue;
    const res = await call();
    if (!res.ok) continue;
    const entries = JSON.stringify(res.value ?? []);
    await sys
      .insertInto('sef_code_lists')
      .values({ name, fetched_at: new Date(now), entries })
      .onConflict((oc) => oc.column('name').doUpdateSet({ fetched_at: new Date(now), entries }))
      .execute();
  }
  return true;
}

/** GET /sef/code-lists: what SEF published, as last fetched. */
export async function codeLists(scope: TenantScope) {
  const rows = await scope.run((db) => db.selectFrom('sef_code_lists').selectAll().execute());
  return rows.map((r) => ({
    name: r.name,
    fetchedAt: new Date(r.fetched_at).toISOString(),
    entries: (typeof r.entries === 'string' ? JSON.parse(r.entries) : r.entries) as unknown[],
  }));
}

import { runExclusive } from '@app/shared/scheduler';
import type { Kysely } from 'kysely';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../plugins/auth.js';
import { afterPurchaseCommit, recordPurchaseIntent } from '../fiscalization-hr/fiscalization.service.js';
import { storePurchase } from '../sef/purchase-invoices.service.js';
import type { SefDeps } from '../sef/sef.service.js';
import type { IntermediaryAdapter } from './intermediary.js';
import { MOJ_ERACUN_BASE_URLS, MojERacunAdapter } from './moj-eracun.js';

type Db = Kysely<DB>;
const KEY_PURPOSE = 'hr.intermediary_password';
const LOCK_INTAKE = 6_2026_1201;
export type IntermediaryEnvironment = keyof typeof MOJ_ERACUN_BASE_URLS;
/** Who fiscalizes the e-invoices sent through the intermediary (the intermediary, or this service). */
export type FiscalizationBy = 'service' | 'intermediary';

function requireHr(p: Principal) {
  if (p.organization.country !== 'HR')
    throw new AppError('SVC-9003', { country: ['the information intermediary is for organizations in Croatia (HR)'] });
}

function findSettings(db: Db, orgId: string) {
  return db.selectFrom('intermediary_settings').selectAll().where('organization_id', '=', orgId).executeTakeFirst();
}

function present(row: Awaited<ReturnType<typeof findSettings>>) {
  return {
    provider: 'moj-eracun' as const,
    environment: (row?.environment ?? 'demo') as IntermediaryEnvironment,
    enabled: row?.enabled ?? false,
    username: row?.username ?? null,
    passwordSet: Boolean(row),
    companyBu: row?.company_bu ?? null,
    softwareId: row?.software_id ?? null,
    fiscalizationBy: (row?.fiscalization_by ?? 'intermediary') as FiscalizationBy,
    lastSyncAt: row?.last_sync_at ? new Date(row.last_sync_at).toISOString() : null,
  };
}

export async function getIntermediarySettings(scope: TenantScope, p: Principal) {
  requireHr(p);
  return present(await scope.run((db) => findSettings(db, p.orgId)));
}

/** PUT /organization/intermediary (owner, admin): the password is sealed and never returned. */
export async function putIntermediarySettings(
  deps: SefDeps,
  scope: TenantScope,
  p: Principal,
  body: {
    environment: IntermediaryEnvironment;
    enabled: boolean;
    username: string;
    password?: string;
    companyBu?: string | null;
    softwareId: string;
    fiscalizationBy?: FiscalizationBy;
  },
) {
  requireHr(p);
  if (!deps.box)
    throw new AppError('SVC-9003', { password: ['cannot be stored: SEF_KEY_ENCRYPTION_KEY is not configured'] });
  const box = deps.box;
  const row = await scope.transaction(async (trx) => {
    const old = await findSettings(trx, p.orgId);
    const sealed = body.password !== undefined ? box.seal(body.password, KEY_PURPOSE) : old?.password_ciphertext;
    if (!sealed) throw new AppError('SVC-9003', { password: ['is required'] });
    const values = {
      provider: 'moj-eracun' as const,
      environment: body.environment,
      enabled: body.enabled,
      username: body.username,
      password_ciphertext: sealed,
      company_bu: body.companyBu ?? null,
      software_id: body.softwareId,
      fiscalization_by: body.fiscalizationBy ?? old?.fiscalization_by ?? 'intermediary',
    };
    return trx
      .insertInto('intermediary_settings')
      .values({ organization_id: p.orgId, ...values })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return present(row);
}

/** The organization's adapter, or null when no intermediary is set up (or not enabled). */
export async function adapterFor(
  deps: SefDeps,
  db: Db,
  orgId: string,
  requireEnabled = true,
): Promise<IntermediaryAdapter | null> {
  const s = await findSettings(db, orgId);
  if (!s || (requireEnabled && !s.enabled) || !deps.box) return null;
  const org = await db.selectFrom('organizations').select('vat_number').where('id', '=', orgId).executeTakeFirst();
  const oib = /(\d{11})$/.exec((org?.vat_number ?? '').replace(/\s/g, ''))?.[1] ?? '';
  return new MojERacunAdapter({
    baseUrl: deps.config.intermediary.baseUrl ?? MOJ_ERACUN_BASE_URLS[s.environment],
    credentials: {
      username: s.username,
      password: deps.box.open(s.password_ciphertext, KEY_PURPOSE).toString('utf8'),
      companyId: oib,
      companyBu: s.company_bu,
      softwareId: s.software_id,
    },
    timeoutMs: deps.config.intermediary.timeoutMs,
    fetch: deps.fetch,
  });
}

/**
 * GET /organization/intermediary/recipient?oib= : whether the OIB can receive e-invoices (the
 * intermediary asks the register of recipients). The intermediary down is 503.
 */
export async function lookupRecipient(deps: SefDeps, scope: TenantScope, p: Principal, oib: string) {
  requireHr(p);
  const adapter = await scope.run((db) => adapterFor(deps, db, p.orgId, false));
  if (!adapter) throw new AppError('SVC-9003', { intermediary: ['no information intermediary is set up'] });
  const res = await adapter.recipientRegistered(oib);
  if (!res.ok && res.retry) throw new AppError('SVC-9007', { intermediary: [res.message] });
  if (!res.ok) throw new AppError('SVC-9003', { intermediary: [res.message] });
  return { oib, registered: res.value, provider: adapter.provider };
}

/**
 * The decision on a received document told to the intermediary (UpdateDokumentProcessStatus:
 * approved, or rejected with the comment as the reason). Null when no intermediary is set up
 * (a purchase invoice fetched before its settings were removed): nothing to tell.
 */
export async function tellIntermediaryDecision(
  deps: SefDeps,
  orgId: string,
  documentId: string,
  accepted: boolean,
  comment: string,
) {
  const adapter = await adapterFor(deps, deps.db.system, orgId, false);
  if (!adapter) return null;
  const res = await adapter.updateProcessStatus(documentId, accepted ? 'accepted' : 'rejected', comment);
  return res.ok ? { ok: true as const } : { ok: false as const, retry: res.retry, message: res.message };
}

/**
 * One organization's intake: the e-invoices addressed to it that the intermediary has not seen
 * confirmed, each fetched (outside any transaction), stored as a purchase invoice (with its
 * fiscalization as a received e-invoice, U, recorded in the same transaction when fiscalization
 * is enabled), then confirmed as imported. One already stored is only confirmed again.
 */
export async function intakeOrganization(deps: SefDeps, orgId: string) {
  const sys = deps.db.system;
  const adapter = await adapterFor(deps, sys, orgId);
  if (!adapter) return 0;
  const inbox = await adapter.inbox();
  if (!inbox.ok) throw new Error(`intermediary inbox: ${inbox.message}`);
  let stored = 0;
  for (const doc of inbox.value) {
    const known = await sys
      .selectFrom('purchase_invoices')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('source', '=', 'hr-intermediary')
      .where('external_id', '=', doc.documentId)
      .executeTakeFirst();
    if (!known) {
      const xml = await adapter.receive(doc.documentId);
      if (!xml.ok) {
        deps.log.warn({ documentId: doc.documentId, message: xml.message }, 'intermediary: document not fetched');
        continue;
      }
      let storedId: string | null = null;
      const ok = await storePurchase(
        deps,
        orgId,
        'hr-intermediary',
        doc.documentId,
        xml.value,
        'New',
        async (trx, id) => {
          storedId = id;
          await recordPurchaseIntent(trx, orgId, id, 'received');
        },
      );
      if (!ok) continue; // unreadable: left unconfirmed, for a person to look at in the intermediary
      stored += 1;
      if (storedId) await afterPurchaseCommit(deps, orgId, storedId);
    }
    const ack = await adapter.confirmImported(doc.documentId);
    if (!ack.ok) deps.log.warn({ documentId: doc.documentId, message: ack.message }, 'intermediary: not confirmed');
  }
  await sys
    .updateTable('intermediary_settings')
    .set({ last_sync_at: new Date() })
    .where('organization_id', '=', orgId)
    .execute();
  return stored;
}

/** The intake job (INTERMEDIARY_SYNC_INTERVAL): every HR organization with its intermediary on, once across instances. */
export function runIntermediaryIntake(deps: SefDeps) {
  return runExclusive(deps.db.system, deps.db.kind, LOCK_INTAKE, async () => {
    const orgs = await deps.db.system
      .selectFrom('intermediary_settings')
      .innerJoin('organizations', 'organizations.id', 'intermediary_settings.organization_id')
      .select('intermediary_settings.organization_id')
      .where('intermediary_settings.enabled', '=', true)
      .where('organizations.country', '=', 'HR')
      .execute();
    let stored = 0;
    for (const o of orgs) {
      try {
        stored += await intakeOrganization(deps, o.organization_id);
      } catch (err) {
        deps.log.warn({ err, orgId: o.organization_id }, 'intermediary: intake failed, tried again next time');
      }
    }
    return stored;
  });
}

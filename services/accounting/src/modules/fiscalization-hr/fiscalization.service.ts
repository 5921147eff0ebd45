import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../plugins/auth.js';
import { invoiceUbl } from '../einvoice/einvoice.service.js';
import { todayIso } from '../invoices/invoice-status.js';
import { requireOwnInvoice, type SefDeps } from '../sef/sef.service.js';
import { eRacunRequest, fiscalDataFromUbl } from './messages.js';
import { openPkcs12 } from './pkcs12.js';
import { signRequest } from './sign.js';
import { callService, FISCALIZATION_BASE_URLS, type FiscalizationEnvironment, SERVICE_PATHS } from './soap-client.js';

type Db = Kysely<DB>;
const KEY_PURPOSE = 'hr.fiscal_key';

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

function presentRecord(
  r:
    | {
        status: string;
        request_id: string;
        errors: unknown;
        last_error: string | null;
        answered_at: string | null;
        updated_at: Date | string;
      }
    | undefined,
) {
  if (!r) return null;
  const errors = (typeof r.errors === 'string' ? JSON.parse(r.errors) : r.errors) as Array<{
    code: string;
    message: string;
  }>;
  return {
    status: r.status as 'Pending' | 'Fiscalized' | 'Failed',
    requestId: r.request_id,
    errors,
    lastError: r.last_error,
    answeredAt: r.answered_at,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function invoiceFiscalization(scope: TenantScope, p: Principal, invoiceId: string) {
  const [invoice, row] = await scope.run((db) =>
    Promise.all([
      db
        .selectFrom('invoices')
        .select('id')
        .where('organization_id', '=', p.orgId)
        .where('id', '=', invoiceId)
        .executeTakeFirst(),
      db
        .selectFrom('fiscal_records')
        .selectAll()
        .where('organization_id', '=', p.orgId)
        .where('invoice_id', '=', invoiceId)
        .where('message', '=', 'eracun')
        .executeTakeFirst(),
    ]),
  );
  // Another organization's invoice (or none) is 404, as every invoice route answers (A21).
  if (!invoice) throw new AppError('SVC-3001');
  return { invoiceId, fiscalization: presentRecord(row) };
}

/**
 * POST /invoices/:id/fiscalization: EvidentirajERacunZahtjev for the issued e-invoice, built from
 * its CIUS-HR UBL, signed with the organization's certificate. The request id is recorded and
 * committed first; the call runs outside any transaction; the answer (accepted, or the service's
 * error codes) is recorded. Already fiscalized: unchanged.
 */
export async function fiscalizeInvoice(deps: SefDeps, scope: TenantScope, p: Principal, invoiceId: string) {
  await requireOwnInvoice(scope, p, invoiceId);
  requireHr(p);
  const settings = await scope.run((db) => findSettings(db, p.orgId));
  if (!settings?.enabled || !deps.box)
    throw new AppError('SVC-9003', {
      fiscalization: ['not enabled for the organization (PUT /organization/fiscalization)'],
    });
  const { xml: ubl } = await invoiceUbl(scope, deps.invoices, p, invoiceId, 'invoice', todayIso());
  const existing = (await invoiceFiscalization(scope, p, invoiceId)).fiscalization;
  if (existing?.status === 'Fiscalized') return { invoiceId, fiscalization: existing };
  const requestId = randomUUID();
  await scope.transaction((trx) =>
    trx
      .insertInto('fiscal_records')
      .values({
        organization_id: p.orgId,
        invoice_id: invoiceId,
        message: 'eracun',
        request_id: requestId,
        status: 'Pending',
      })
      .onConflict((oc) =>
        oc
          .columns(['organization_id', 'invoice_id', 'message'])
          .doUpdateSet({ request_id: requestId, status: 'Pending', updated_at: new Date() }),
      )
      .execute(),
  );
  const { xml } = eRacunRequest(fiscalDataFromUbl(ubl), 'I', { id: requestId });
  const signed = signRequest(
    xml,
    deps.box.open(settings.key_ciphertext, KEY_PURPOSE).toString('utf8'),
    settings.certificate_pem,
  );
  const base = deps.config.fiscalization.baseUrl ?? FISCALIZATION_BASE_URLS[settings.environment];
  const outcome = await callService(`${base}${SERVICE_PATHS.eRacun}`, signed, {
    timeoutMs: deps.config.fiscalization.timeoutMs,
    fetch: deps.fetch,
  });
  const values = !outcome.ok
    ? { status: 'Pending' as const, last_error: outcome.message }
    : outcome.accepted
      ? { status: 'Fiscalized' as const, last_error: null, errors: '[]', answered_at: outcome.answeredAt }
      : {
          status: 'Failed' as const,
          last_error: outcome.errors.map((e) => `${e.code}: ${e.message}`).join('; '),
          errors: JSON.stringify(outcome.errors),
          answered_at: outcome.answeredAt,
        };
  await scope.transaction((trx) =>
    trx
      .updateTable('fiscal_records')
      .set({ ...values, updated_at: new Date() })
      .where('organization_id', '=', p.orgId)
      .where('invoice_id', '=', invoiceId)
      .where('message', '=', 'eracun')
      .execute(),
  );
  return invoiceFiscalization(scope, p, invoiceId);
}

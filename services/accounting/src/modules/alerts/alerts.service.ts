import type { TenantScope } from '../../db/tenant-scope.js';
import { type PageRequest, pageMeta } from '../../lib/pagination.js';
import * as repo from './alerts.repository.js';
import type { ALERT_REFERENCE_TYPES, ALERT_TYPES } from './alerts.schemas.js';

/** GET /alerts: the organization's alerts, one page. */
export async function listAlerts(scope: TenantScope, page: PageRequest<string>) {
  const { rows, total } = await scope.run((db) => repo.listAlerts(db, scope.orgId, page));
  return {
    data: rows.map((a) => ({
      id: a.id,
      // The column has no CHECK; only insertAlert (typed) writes it.
      type: a.type as (typeof ALERT_TYPES)[number],
      message: a.message,
      referenceType: a.reference_type as (typeof ALERT_REFERENCE_TYPES)[number] | null,
      referenceId: a.reference_id,
      createdAt: a.created_at.toISOString(),
    })),
    meta: pageMeta(total, page),
  };
}

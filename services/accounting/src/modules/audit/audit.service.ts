import type { TenantScope } from '../../db/tenant-scope.js';
import { type PageRequest, pageMeta } from '../../lib/pagination.js';
import { type AuditFilter, listLoggedActions } from './audit.repository.js';

/** GET /audit-log (A20): one page of the organization's logged actions. */
export async function listAuditLog(scope: TenantScope, q: AuditFilter, page: PageRequest<string>) {
  const { rows, total } = await scope.run((db) => listLoggedActions(db, scope.orgId, q, page));
  return {
    data: rows.map((r) => ({
      id: String(r.id),
      tableName: r.table_name,
      // audit_rows' CHECK allows these three; the view's column does not carry the CHECK.
      action: r.action as NonNullable<AuditFilter['action']>,
      recordId: r.record_id,
      userId: r.user_id,
      requestId: r.request_id,
      oldValues: (r.old_values as Record<string, unknown>) ?? null,
      newValues: (r.new_values as Record<string, unknown>) ?? null,
      createdAt: r.created_at.toISOString(),
    })),
    meta: pageMeta(total, page),
  };
}

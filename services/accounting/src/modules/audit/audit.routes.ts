import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listQuery, pageMeta, pageRequest, Paginated } from '../../lib/pagination.js';
import { IsoDate, errorResponses, literalUnion } from '../../lib/schemas.js';

const SORTABLE = ['createdAt'] as const;

const AuditQuery = listQuery(SORTABLE, {
  tableName: Type.Optional(Type.String({ maxLength: 63 })),
  action: Type.Optional(literalUnion(['INSERT', 'UPDATE', 'DELETE'] as const)),
  recordId: Type.Optional(Type.String({ maxLength: 64 })),
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
});

const LoggedAction = Type.Object({
  id: Type.String(),
  tableName: Type.String(),
  action: Type.String(),
  recordId: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  oldValues: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  newValues: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  createdAt: Type.String(),
});

/** GET /audit-log (A20): the organization's LoggedAction rows, newest first by default. */
export function auditRoutes() {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/', {
      config: { auth: ['owner', 'admin'] },
      schema: { tags: ['Audit'], security: [{ bearerAuth: [] }], querystring: AuditQuery, response: { 200: Paginated(LoggedAction), ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const q = request.query;
      const page = pageRequest(q, SORTABLE, 'createdAt');
      const orgId = request.principal().orgId;
      const { rows, total } = await request.tenant(async (db) => {
        let base = db.selectFrom('logged_actions').where('organization_id', '=', orgId);
        if (q.tableName) base = base.where('table_name', '=', q.tableName);
        if (q.action) base = base.where('action', '=', q.action);
        if (q.recordId) base = base.where('record_id', '=', q.recordId);
        if (q.fromDate) base = base.where('created_at', '>=', new Date(`${q.fromDate}T00:00:00Z`));
        if (q.toDate) base = base.where('created_at', '<', new Date(new Date(`${q.toDate}T00:00:00Z`).getTime() + 86_400_000));
        const [list, count] = await Promise.all([
          base.selectAll().orderBy('created_at', page.order).orderBy('id', page.order).limit(page.perPage).offset(page.offset).execute(),
          base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        ]);
        return { rows: list, total: Number(count.n) };
      });
      return {
        data: rows.map((r) => ({
          id: String(r.id),
          tableName: r.table_name,
          action: r.action,
          recordId: r.record_id,
          userId: r.user_id,
          requestId: r.request_id,
          oldValues: (r.old_values as Record<string, unknown>) ?? null,
          newValues: (r.new_values as Record<string, unknown>) ?? null,
          createdAt: r.created_at.toISOString(),
        })),
        meta: pageMeta(total, page),
      };
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { errorResponses } from '../../lib/schemas.js';
import { listAlerts } from './alerts.repository.js';
import { ALERT_SORTS, AlertList, AlertsQuery } from './alerts.schemas.js';

/** Administrator alerts (A10): e-mail delivery failures and other things a person must look at. */
export function alertsRoutes() {
  const tags = ['Alerts'];
  const security = [{ bearerAuth: [] }];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/', {
      config: { auth: ['owner', 'admin'] },
      schema: { tags, security, querystring: AlertsQuery, response: { 200: AlertList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const orgId = request.principal().orgId;
      const page = pageRequest(request.query, ALERT_SORTS, 'createdAt');
      const { rows, total } = await request.tenant((db) => listAlerts(db, orgId, page));
      return {
        data: rows.map((a) => ({
          id: a.id,
          type: a.type,
          message: a.message,
          referenceType: a.reference_type,
          referenceId: a.reference_id,
          createdAt: a.created_at.toISOString(),
        })),
        meta: pageMeta(total, page),
      };
    });
  };
}

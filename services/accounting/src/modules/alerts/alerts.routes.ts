import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { pageRequest } from '../../lib/pagination.js';
import { errorResponses } from '../../lib/schemas.js';
import { scopeOf } from '../../plugins/auth.js';
import { ALERT_SORTS, AlertList, AlertsQuery } from './alerts.schemas.js';
import { listAlerts } from './alerts.service.js';

/** Administrator alerts (A10): e-mail delivery failures and other things a person must look at. */
export function alertsRoutes() {
  const tags = ['Alerts'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      {
        config: { auth: ['owner', 'admin'] },
        schema: {
          tags,
          querystring: AlertsQuery,
          response: { 200: AlertList, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query, ALERT_SORTS, 'createdAt');
        return listAlerts(scopeOf(request), page);
      },
    );
  };
}

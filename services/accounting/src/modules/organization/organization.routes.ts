import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../lib/schemas.js';
import { scopeOf } from '../../plugins/auth.js';
import { Organization, UpdateOrganizationBody } from './organization.schemas.js';
import { getOrganization, updateOrganization } from './organization.service.js';

export function organizationRoutes() {
  const tags = ['Organization'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      {
        schema: { tags, response: { 200: Organization, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        return getOrganization(scopeOf(request));
      },
    );

    app.put(
      '/',
      {
        config: {
          auth: ['owner', 'admin'],
          perMinute: 10,
          fieldCodes: { baseCurrency: 'SVC-2002', language: 'SVC-2003' },
        },
        schema: {
          tags,
          body: UpdateOrganizationBody,
          response: { 200: Organization, ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => {
        return updateOrganization(scopeOf(request), request.body);
      },
    );
  };
}

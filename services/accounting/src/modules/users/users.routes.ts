import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { IdParams, errorResponses } from '../../lib/schemas.js';
import { InviteBody, InviteResponse, RoleBody, User, UsersQuery } from './users.schemas.js';
import { listActiveUsers } from './users.repository.js';
import { changeRole, invite, presentUser, removeUser } from './users.service.js';

export function usersRoutes(ctx: AppContext) {
  const tags = ['Users'];
  const security = [{ bearerAuth: [] }];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/', {
      config: { auth: ['owner', 'admin'] },
      schema: { tags, security, querystring: UsersQuery, response: { 200: Type.Object({ data: Type.Array(User) }), ...errorResponses(401, 403) } },
    }, async (request) => {
      const orgId = request.principal().orgId;
      const rows = await request.tenant((db) => listActiveUsers(db, orgId, request.query.role));
      return { data: rows.map(presentUser) };
    });

    app.post('/invite', {
      config: { auth: ['owner', 'admin'], perMinute: 10 },
      schema: { tags, security, body: InviteBody, response: { 201: InviteResponse, ...errorResponses(401, 403, 409, 422) } },
    }, async (request, reply) => {
      const p = request.principal();
      const result = await request.tenantTx((trx) => invite(ctx, p, trx, request.body));
      return reply.status(201).send(result);
    });

    app.put('/:id/role', {
      config: { auth: ['owner'], perMinute: 10 },
      schema: { tags, security, params: IdParams, body: RoleBody, response: { 200: User, ...errorResponses(401, 403, 404, 422) } },
    }, async (request) => {
      const p = request.principal();
      return request.tenantTx((trx) => changeRole(trx, p, request.params.id, request.body.role));
    });

    app.delete('/:id', {
      config: { auth: ['owner'], perMinute: 10 },
      schema: { tags, security, params: IdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } },
    }, async (request, reply) => {
      const p = request.principal();
      await request.tenantTx((trx) => removeUser(trx, p, request.params.id));
      return reply.status(204).send(null);
    });
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { InviteBody, InviteResponse, RoleBody, User, UsersQuery } from './users.schemas.js';
import { changeRole, invite, listUsers, removeUser } from './users.service.js';

export function usersRoutes(ctx: AppContext) {
  const tags = ['Users'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      {
        config: { auth: ['owner', 'admin'] },
        schema: {
          tags,
          querystring: UsersQuery,
          response: { 200: Type.Object({ data: Type.Array(User) }), ...errorResponses(401, 403) },
        },
      },
      async (request) => {
        return listUsers(scopeOf(request), request.query.role);
      },
    );

    app.post(
      '/invite',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10 },
        schema: {
          tags,
          body: InviteBody,
          response: { 201: InviteResponse, ...errorResponses(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const result = await invite(scopeOf(request), ctx, principalOf(request), request.body);
        return reply.status(201).send(result);
      },
    );

    app.put(
      '/:id/role',
      {
        config: { auth: ['owner'], perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          body: RoleBody,
          response: { 200: User, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        return changeRole(scopeOf(request), principalOf(request), request.params.id, request.body.role);
      },
    );

    app.delete(
      '/:id',
      {
        config: { auth: ['owner'], perMinute: 10 },
        schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } },
      },
      async (request, reply) => {
        await removeUser(scopeOf(request), principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}

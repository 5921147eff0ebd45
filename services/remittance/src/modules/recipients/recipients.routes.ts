import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../../lib/pagination.js';
import { scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  CreateRecipientBody,
  RecipientIdParams,
  RecipientListQuery,
  RecipientListResponse,
  RecipientResponse,
} from './recipients.schemas.js';
import type { RecipientsService } from './recipients.service.js';

export function recipientsRoutes(deps: { recipients: RecipientsService }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['recipients'];

    app.get(
      '/recipients',
      {
        schema: {
          tags,
          querystring: RecipientListQuery,
          response: { 200: RecipientListResponse, ...errors(400, 401) },
        },
      },
      async (req) => deps.recipients.list(scopeOf(req), pageOf(req.query, 20, 50)),
    );

    app.post(
      '/recipients',
      {
        schema: {
          tags,
          body: CreateRecipientBody,
          response: { 201: RecipientResponse, ...errors(400, 401, 403, 422) },
        },
      },
      async (req, reply) => reply.status(201).send({ data: await deps.recipients.create(scopeOf(req), req.body) }),
    );

    app.delete(
      '/recipients/:id',
      {
        schema: {
          tags,
          params: RecipientIdParams,
          response: { 204: Type.Null({ description: 'deleted' }), ...errors(401, 403, 404) },
        },
      },
      async (req, reply) => {
        await deps.recipients.remove(scopeOf(req), req.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}

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
  UpdateRecipientBody,
} from './recipients.schemas.js';
import { createRecipient, listRecipients, removeRecipient, updateRecipient } from './recipients.service.js';

export function recipientsRoutes() {
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
      async (req) => listRecipients(scopeOf(req), pageOf(req.query, 20, 50)),
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
      async (req, reply) => reply.status(201).send({ data: await createRecipient(scopeOf(req), req.body) }),
    );

    app.patch(
      '/recipients/:id',
      {
        schema: {
          tags,
          params: RecipientIdParams,
          body: UpdateRecipientBody,
          response: { 200: RecipientResponse, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (req) => ({ data: await updateRecipient(scopeOf(req), req.params.id, req.body) }),
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
        await removeRecipient(scopeOf(req), req.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import {
  ACCOUNT_FIELD_CODES,
  Account,
  AccountsQuery,
  CreateAccountBody,
  UpdateAccountBody,
} from './accounts.schemas.js';
import {
  type AccountDeleteBlocker,
  createAccount,
  deleteAccount,
  getAccount,
  listAccounts,
  updateAccount,
} from './accounts.service.js';

/** /api/v1/accounts; `deleteBlockers` are the other features' reasons to keep an account. */
export function accountsRoutes(deps: { deleteBlockers: readonly AccountDeleteBlocker[] }) {
  const tags = ['Chart of accounts'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: AccountsQuery,
          response: { 200: Type.Object({ data: Type.Array(Account) }), ...errorResponses(401, 403, 422) },
        },
      },
      async (request) => {
        return listAccounts(scopeOf(request), principalOf(request).organization.baseCurrency, request.query);
      },
    );

    app.get(
      '/:id',
      {
        schema: { tags, params: IdParams, response: { 200: Account, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        return getAccount(scopeOf(request), principalOf(request).organization.baseCurrency, request.params.id);
      },
    );

    app.post(
      '/',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10, fieldCodes: ACCOUNT_FIELD_CODES },
        schema: {
          tags,
          body: CreateAccountBody,
          response: { 201: Account, ...errorResponses(401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const account = await createAccount(
          scopeOf(request),
          principalOf(request).organization.baseCurrency,
          request.body,
        );
        return reply.status(201).send(account);
      },
    );

    app.put(
      '/:id',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          body: UpdateAccountBody,
          response: { 200: Account, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        return updateAccount(
          scopeOf(request),
          principalOf(request).organization.baseCurrency,
          request.params.id,
          request.body,
        );
      },
    );

    app.delete(
      '/:id',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteAccount(scopeOf(request), request.params.id, deps.deleteBlockers);
        return reply.status(204).send(null);
      },
    );
  };
}

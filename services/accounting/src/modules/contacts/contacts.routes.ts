import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Paginated } from '../../lib/pagination.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import {
  CONTACT_FIELD_CODES,
  Contact,
  ContactsQuery,
  ContactWithNotes,
  CreateContactBody,
  UpdateContactBody,
} from './contacts.schemas.js';
import {
  type ContactDeleteBlocker,
  createContact,
  getContact,
  listContacts,
  removeContact,
  updateContact,
} from './contacts.service.js';

/** /api/v1/contacts; `deleteBlockers` are the other features' reasons to refuse a deletion. */
export function contactsRoutes(deps: { deleteBlockers: readonly ContactDeleteBlocker[] }) {
  const tags = ['Contacts'];
  const writers = ['owner', 'admin', 'accountant'] as const;
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: ContactsQuery,
          response: { 200: Paginated(Contact), ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => {
        return listContacts(scopeOf(request), request.query);
      },
    );

    app.post(
      '/',
      {
        config: { auth: writers, perMinute: 50, fieldCodes: CONTACT_FIELD_CODES },
        schema: {
          tags,
          body: CreateContactBody,
          response: { 201: ContactWithNotes, ...errorResponses(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const contact = await createContact(
          scopeOf(request),
          principalOf(request).organization.baseCurrency,
          request.body,
        );
        return reply.status(201).send(contact);
      },
    );

    app.get(
      '/:id',
      {
        schema: {
          tags,
          params: IdParams,
          response: { 200: ContactWithNotes, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        return getContact(scopeOf(request), request.params.id);
      },
    );

    app.put(
      '/:id',
      {
        config: { auth: writers, perMinute: 50, fieldCodes: CONTACT_FIELD_CODES },
        schema: {
          tags,
          params: IdParams,
          body: UpdateContactBody,
          response: { 200: ContactWithNotes, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        return updateContact(scopeOf(request), request.params.id, request.body);
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
        await removeContact(scopeOf(request), request.params.id, deps.deleteBlockers);
        return reply.status(204).send(null);
      },
    );
  };
}

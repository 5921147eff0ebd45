import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Paginated } from '../../lib/pagination.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import {
  JournalEntryBody,
  JournalEntryPostings,
  ManualEntryBody,
  ReverseBody,
  Transaction,
  TransactionsQuery,
} from './ledger.schemas.js';
import {
  createJournalEntry,
  createManualEntry,
  getJournalEntry,
  getTransaction,
  listTransactions,
  reverseJournalEntry,
  reverseManualEntry,
} from './transactions.service.js';

/** A reverse takes an optional body: a POST without one reverses as of today. */
async function optionalBody(request: FastifyRequest) {
  request.body ??= {};
}

export function transactionsRoutes() {
  const tags = ['Ledger transactions'];
  const writers = ['owner', 'admin', 'accountant'] as const;
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: TransactionsQuery,
          response: { 200: Paginated(Transaction), ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => {
        return listTransactions(scopeOf(request), principalOf(request).organization.baseCurrency, request.query);
      },
    );

    app.get(
      '/:id',
      {
        schema: { tags, params: IdParams, response: { 200: Transaction, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        return getTransaction(scopeOf(request), principalOf(request).organization.baseCurrency, request.params.id);
      },
    );

    app.post(
      '/',
      {
        config: { auth: writers, perMinute: 20 },
        schema: {
          tags,
          body: ManualEntryBody,
          response: { 201: Transaction, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const entry = await createManualEntry(scopeOf(request), p.userId, p.organization.baseCurrency, request.body);
        return reply.status(201).send(entry);
      },
    );

    // Extension: an entry of several lines, all its postings in one database transaction.
    app.post(
      '/entries',
      {
        config: { auth: writers, perMinute: 20 },
        schema: {
          tags,
          body: JournalEntryBody,
          response: { 201: JournalEntryPostings, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const entry = await createJournalEntry(scopeOf(request), p.userId, p.organization.baseCurrency, request.body);
        return reply.status(201).send(entry);
      },
    );

    // Extension: a manual journal entry read and reversed whole (a lone manual posting is an entry too).
    app.get(
      '/entries/:id',
      {
        schema: { tags, params: IdParams, response: { 200: JournalEntryPostings, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        return getJournalEntry(scopeOf(request), principalOf(request).organization.baseCurrency, request.params.id);
      },
    );

    app.post(
      '/entries/:id/reverse',
      {
        config: { auth: writers, perMinute: 20 },
        preValidation: optionalBody,
        schema: {
          tags,
          params: IdParams,
          body: ReverseBody,
          response: { 201: JournalEntryPostings, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const reversed = await reverseJournalEntry(
          scopeOf(request),
          p.userId,
          p.organization.baseCurrency,
          request.params.id,
          request.body?.transactionDate,
        );
        return reply.status(201).send(reversed);
      },
    );

    app.post(
      '/:id/reverse',
      {
        config: { auth: writers, perMinute: 20 },
        preValidation: optionalBody,
        schema: {
          tags,
          params: IdParams,
          body: ReverseBody,
          response: { 201: Transaction, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const date = request.body?.transactionDate;
        const reversal = await reverseManualEntry(
          scopeOf(request),
          p.userId,
          p.organization.baseCurrency,
          request.params.id,
          date,
        );
        return reply.status(201).send(reversal);
      },
    );
  };
}

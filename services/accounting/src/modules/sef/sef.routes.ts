import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageRequest } from '../../lib/pagination.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { Expense } from '../expenses/expenses.schemas.js';
import {
  decidePurchase,
  getPurchase,
  listPurchases,
  purchaseToExpense,
  purchaseUbl,
} from './purchase-invoices.service.js';
import {
  CodeLists,
  CommentBody,
  ExpenseFromPurchaseBody,
  InvoiceWithSef,
  PURCHASE_SORTS,
  PurchaseInvoice,
  PurchaseInvoiceList,
  PurchaseQuery,
  PutSefSettingsBody,
  ReasonBody,
  SefSettings,
  WebhookBody,
  WebhookParams,
} from './sef.schemas.js';
import {
  cancelOrStorno,
  codeLists,
  getInvoiceSef,
  getSettings,
  putSettings,
  queueDocument,
  receiveWebhook,
  type SefDeps,
} from './sef.service.js';

const MANAGERS = ['owner', 'admin'] as const;
const WRITERS = ['owner', 'admin', 'accountant'] as const;

/** /api/v1/organization/sef (D1). */
export function sefSettingsRoutes(deps: SefDeps) {
  const tags = ['SEF'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      { schema: { tags, response: { 200: SefSettings, ...errorResponses(401, 403, 422) } } },
      async (request) => getSettings(deps, scopeOf(request), principalOf(request)),
    );
    app.put(
      '/',
      {
        config: { auth: MANAGERS, perMinute: 10 },
        schema: {
          tags,
          body: PutSefSettingsBody,
          response: { 200: SefSettings, ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => putSettings(deps, scopeOf(request), principalOf(request), request.body),
    );
  };
}

/** Under /api/v1/invoices: an invoice's SEF state, queueing, cancel and storno (D2, D3). */
export function sefInvoiceRoutes(deps: SefDeps) {
  const tags = ['SEF'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/:id/sef',
      { schema: { tags, params: IdParams, response: { 200: InvoiceWithSef, ...errorResponses(401, 403, 404) } } },
      async (request) => getInvoiceSef(scopeOf(request), principalOf(request), request.params.id),
    );
    for (const [path, kind] of [
      ['/:id/sef', 'invoice'],
      ['/:id/credit-note/sef', 'credit-note'],
    ] as const) {
      app.post(
        path,
        {
          config: { auth: WRITERS, perMinute: 30 },
          schema: {
            tags,
            params: IdParams,
            response: { 202: InvoiceWithSef, ...errorResponses(400, 401, 403, 404, 422) },
          },
        },
        async (request, reply) => {
          const out = await queueDocument(deps, scopeOf(request), principalOf(request), request.params.id, kind);
          return reply.status(202).send(out);
        },
      );
    }
    for (const action of ['cancel', 'storno'] as const) {
      app.post(
        `/:id/sef/${action}`,
        {
          config: { auth: WRITERS, perMinute: 10 },
          schema: {
            tags,
            params: IdParams,
            body: ReasonBody,
            response: { 200: InvoiceWithSef, ...errorResponses(400, 401, 403, 404, 422, 503) },
          },
        },
        async (request) =>
          cancelOrStorno(deps, scopeOf(request), principalOf(request), request.params.id, action, request.body),
      );
    }
  };
}

/** /api/v1/purchase-invoices (D4). */
export function purchaseInvoicesRoutes(deps: SefDeps) {
  const tags = ['Purchase invoices'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: PurchaseQuery,
          response: { 200: PurchaseInvoiceList, ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query, PURCHASE_SORTS, 'issueDate');
        return listPurchases(scopeOf(request), request.query, page);
      },
    );
    app.get(
      '/:id',
      { schema: { tags, params: IdParams, response: { 200: PurchaseInvoice, ...errorResponses(401, 403, 404) } } },
      async (request) => getPurchase(scopeOf(request), request.params.id),
    );
    app.get(
      '/:id/ubl',
      {
        schema: {
          tags,
          params: IdParams,
          response: {
            200: Type.Unsafe<string>({ type: 'string', description: 'application/xml: the received UBL' }),
            ...errorResponses(401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const { xml, number } = await purchaseUbl(scopeOf(request), request.params.id);
        return reply
          .type('application/xml; charset=utf-8')
          .header('content-disposition', `attachment; filename="${number.replace(/[^\w.-]/g, '_')}.xml"`)
          .header('cache-control', 'private, no-store')
          .send(xml);
      },
    );
    for (const [action, accepted] of [
      ['accept', true],
      ['reject', false],
    ] as const) {
      app.post(
        `/:id/${action}`,
        {
          config: { auth: WRITERS, perMinute: 20 },
          schema: {
            tags,
            params: IdParams,
            body: CommentBody,
            response: { 200: PurchaseInvoice, ...errorResponses(400, 401, 403, 404, 422, 503) },
          },
        },
        async (request) =>
          decidePurchase(
            deps,
            scopeOf(request),
            request.params.id,
            accepted,
            request.body.comment,
            request.body.reasonType,
          ),
      );
    }
    app.post(
      '/:id/expense',
      {
        config: { auth: WRITERS, perMinute: 20 },
        schema: {
          tags,
          params: IdParams,
          body: Type.Optional(ExpenseFromPurchaseBody),
          response: { 201: Expense, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const expense = await purchaseToExpense(
          scopeOf(request),
          principalOf(request),
          request.params.id,
          request.body?.category ?? 'Purchase invoices',
        );
        return reply.status(201).send(expense);
      },
    );
  };
}

/** /api/v1/sef: SEF's code lists, and the public webhook SEF notifies. */
export function sefRoutes(deps: SefDeps) {
  const tags = ['SEF'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/code-lists',
      { schema: { tags, response: { 200: CodeLists, ...errorResponses(401, 403) } } },
      async (request) => codeLists(scopeOf(request)),
    );
    app.post(
      '/webhook/:token',
      {
        config: { public: true, perMinute: 120 },
        schema: {
          tags,
          params: WebhookParams,
          body: WebhookBody,
          response: { 200: Type.Object({ applied: Type.Integer() }), ...errorResponses(400, 404, 422) },
        },
      },
      async (request) => receiveWebhook(deps, request.params.token, request.body),
    );
  };
}

import { sendJsonText } from '@app/shared/http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageRequest } from '../../lib/pagination.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { InvoiceListCache } from './invoice-list-cache.js';
import { todayIso } from './invoice-status.js';
import { changeStatus, type InvoiceDeps, invoicePdf, sendInvoice, viewPublicInvoice } from './invoice-transitions.js';
import {
  INVOICE_SORTS,
  Invoice,
  InvoiceBody,
  InvoiceList,
  InvoicesQuery,
  SendBody,
  SendResponse,
  StatusBody,
  TokenParams,
} from './invoices.schemas.js';
import { createInvoice, getInvoice, listInvoices, updateInvoice } from './invoices.service.js';

const WRITERS = ['owner', 'admin', 'accountant'] as const;
const PdfResponse = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/pdf' });

function sendPdf(
  reply: import('fastify').FastifyReply,
  pdf: Buffer,
  invoiceNumber: string,
  disposition: 'attachment' | 'inline',
) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `${disposition}; filename="${invoiceNumber}.pdf"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);
}

/** /api/v1/invoices (spec "Invoices"; A3-A5, A8, A10, A11, A19). */
export function invoicesRoutes(deps: InvoiceDeps) {
  const tags = ['Invoices'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // This instance's kept list pages (see InvoiceListCache).
    const listCache = new InvoiceListCache();

    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: InvoicesQuery,
          response: { 200: InvoiceList, ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request, reply) => {
        const page = pageRequest(request.query, INVOICE_SORTS, 'invoiceDate');
        // The JSON text is built in the response schema's shape (by PostgreSQL, see listInvoicesJson):
        // sent as it is, without parsing and serialising every row again.
        return sendJsonText(reply, await listInvoices(scopeOf(request), request.query, page, todayIso(), listCache));
      },
    );

    app.post(
      '/',
      {
        config: { auth: WRITERS, perMinute: 50 },
        schema: {
          tags,
          body: InvoiceBody,
          response: { 201: Invoice, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const invoice = await createInvoice(scopeOf(request), principalOf(request), request.body);
        return reply.status(201).send(invoice);
      },
    );

    app.get(
      '/:id',
      {
        schema: { tags, params: IdParams, response: { 200: Invoice, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        return getInvoice(scopeOf(request), principalOf(request), request.params.id, todayIso());
      },
    );

    app.put(
      '/:id',
      {
        config: { auth: WRITERS, perMinute: 50 },
        schema: {
          tags,
          params: IdParams,
          body: InvoiceBody,
          response: { 200: Invoice, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        return updateInvoice(scopeOf(request), principalOf(request), request.params.id, request.body, todayIso());
      },
    );

    app.patch(
      '/:id/status',
      {
        config: { auth: WRITERS, perMinute: 50 },
        schema: {
          tags,
          params: IdParams,
          body: StatusBody,
          response: { 200: Invoice, ...errorResponses(400, 401, 403, 404, 422, 500) },
        },
      },
      async (request) => {
        return changeStatus(scopeOf(request), deps, principalOf(request), request.params.id, request.body, todayIso());
      },
    );

    app.post(
      '/:id/send',
      {
        config: { auth: WRITERS, perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          body: Type.Optional(SendBody),
          response: { 200: SendResponse, ...errorResponses(400, 401, 403, 404, 422, 500) },
        },
      },
      async (request) => {
        const sent = await sendInvoice(
          scopeOf(request),
          deps,
          principalOf(request),
          request.params.id,
          request.body ?? {},
          todayIso(),
        );
        await deps.afterSend?.(scopeOf(request), principalOf(request), request.params.id);
        return sent;
      },
    );

    app.get(
      '/:id/pdf',
      {
        schema: { tags, params: IdParams, response: { 200: PdfResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request, reply) => {
        const { pdf, number } = await invoicePdf(scopeOf(request), deps, request.params.id, todayIso());
        return sendPdf(reply, pdf, number, 'attachment');
      },
    );
  };
}

/** /api/v1/public/invoices/:token: the customer's view link (A10), no sign-in. */
export function publicInvoicesRoutes(deps: InvoiceDeps) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/:token',
      {
        config: { public: true, perMinute: 30 },
        schema: { tags: ['Invoices'], params: TokenParams, response: { 200: PdfResponse, ...errorResponses(404) } },
      },
      async (request, reply) => {
        const { pdf, invoiceNumber } = await viewPublicInvoice(deps, request.params.token, todayIso(), request.id);
        return sendPdf(reply, pdf, invoiceNumber, 'inline');
      },
    );
  };
}

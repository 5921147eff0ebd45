import { sendJsonText } from '@app/shared/http';
import type { KeptPages } from '@app/shared/kept-pages';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { pageOf } from '../../lib/pagination.js';
import { scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  ReceiptResponse,
  SummaryResponse,
  TransactionDetailResponse,
  TransactionIdParams,
  TransactionListQuery,
  TransactionListResponse,
} from './transactions.schemas.js';
import {
  getReceipt,
  getTransaction,
  listTransactions,
  renderReceipt,
  summarizeTransactions,
} from './transactions.service.js';

export function transactionsRoutes(deps: { receiptIssuer: Config['receiptIssuer']; keptPages: KeptPages }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['transactions'];
    const receiptDeps = { issuer: deps.receiptIssuer };

    app.get(
      '/transactions',
      {
        schema: {
          tags,
          querystring: TransactionListQuery,
          response: { 200: TransactionListResponse, ...errors(400, 401) },
        },
      },
      async (req, reply) => {
        const { type, status } = req.query;
        // The JSON text is built in the response schema's shape (transactions.sql.ts): sent as it is.
        return sendJsonText(
          reply,
          await listTransactions(scopeOf(req), { type, status }, pageOf(req.query, 20, 50), deps.keptPages),
        );
      },
    );

    app.get(
      '/transactions/summary',
      { schema: { tags, response: { 200: SummaryResponse, ...errors(401) } } },
      async (req) => ({
        data: await summarizeTransactions(scopeOf(req)),
      }),
    );

    app.get(
      '/transactions/:id',
      {
        schema: {
          tags,
          params: TransactionIdParams,
          response: { 200: TransactionDetailResponse, ...errors(401, 404) },
        },
      },
      async (req) => ({
        data: await getTransaction(scopeOf(req), req.params.id),
      }),
    );

    app.get(
      '/transactions/:id/receipt',
      { schema: { tags, params: TransactionIdParams, response: { 200: ReceiptResponse, ...errors(401, 404) } } },
      async (req) => ({
        data: await getReceipt(scopeOf(req), req.params.id),
      }),
    );

    app.get(
      '/transactions/:id/receipt.pdf',
      {
        schema: {
          tags,
          summary: "The receipt as a PDF in the user's settings language (nb or en)",
          params: TransactionIdParams,
          response: { 200: Type.Unknown({ description: 'application/pdf' }), ...errors(401, 404) },
        },
      },
      async (req, reply) => {
        const { pdf, filename } = await renderReceipt(receiptDeps, scopeOf(req), req.params.id);
        return reply.type('application/pdf').header('content-disposition', `inline; filename="${filename}"`).send(pdf);
      },
    );
  };
}

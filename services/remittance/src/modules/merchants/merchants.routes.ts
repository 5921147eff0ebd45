import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../../lib/pagination.js';
import { scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  DashboardQuery,
  DashboardResponse,
  MerchantPaymentsQuery,
  MerchantPaymentsResponse,
  MerchantQrResponse,
  PayeeParams,
  PayeeResponse,
  RegisterMerchantBody,
  RegisterMerchantResponse,
} from './merchants.schemas.js';
import {
  getMerchantDashboard,
  getMerchantQr,
  getPayee,
  listPaymentsToMerchant,
  registerMerchant,
  renderMerchantQr,
} from './merchants.service.js';

export function merchantsRoutes() {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['merchants'];
    /** The merchant's own routes need the merchant role (403 forbidden otherwise); registering does not. */
    const config = { roles: ['merchant'] } as const;

    app.post(
      '/merchants/register',
      {
        schema: {
          tags,
          body: RegisterMerchantBody,
          response: { 201: RegisterMerchantResponse, ...errors(400, 401, 403, 409, 422) },
        },
      },
      async (req, reply) => reply.status(201).send({ data: await registerMerchant(scopeOf(req), req.body) }),
    );

    app.get(
      '/merchants/dashboard',
      {
        config,
        schema: { tags, querystring: DashboardQuery, response: { 200: DashboardResponse, ...errors(400, 401, 403) } },
      },
      async (req) => ({
        data: await getMerchantDashboard(scopeOf(req), req.query.period ?? 'today'),
      }),
    );

    app.get(
      '/merchants/qr',
      { config, schema: { tags, response: { 200: MerchantQrResponse, ...errors(401, 403) } } },
      async (req) => ({
        data: await getMerchantQr(scopeOf(req)),
      }),
    );

    app.get(
      '/merchants/qr.png',
      {
        config,
        schema: {
          tags,
          summary: 'The QR code as PNG',
          response: { 200: Type.Unknown({ description: 'image/png' }), ...errors(401, 403) },
        },
      },
      async (req, reply) => reply.type('image/png').send(await renderMerchantQr(scopeOf(req), 'png')),
    );

    app.get(
      '/merchants/qr.svg',
      {
        config,
        schema: {
          tags,
          summary: 'The QR code as SVG',
          response: { 200: Type.Unknown({ description: 'image/svg+xml' }), ...errors(401, 403) },
        },
      },
      async (req, reply) => reply.type('image/svg+xml').send(await renderMerchantQr(scopeOf(req), 'svg')),
    );

    // Any signed-in user: the payer's look-up of a scanned code. Static paths above win over this one.
    app.get(
      '/merchants/:merchantId',
      { schema: { tags, params: PayeeParams, response: { 200: PayeeResponse, ...errors(400, 401, 404) } } },
      async (req) => ({ data: await getPayee(scopeOf(req), req.params.merchantId) }),
    );

    app.get(
      '/merchants/transactions',
      {
        config,
        schema: {
          tags,
          querystring: MerchantPaymentsQuery,
          response: { 200: MerchantPaymentsResponse, ...errors(400, 401, 403) },
        },
      },
      async (req) => listPaymentsToMerchant(scopeOf(req), pageOf(req.query, 20, 50)),
    );
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SurfaceOptions } from '../../context.js';
import { forbidden } from '../../errors.js';
import { pageOf } from '../../lib/pagination.js';
import { authOf, scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  DashboardQuery,
  DashboardResponse,
  MerchantPaymentsQuery,
  MerchantPaymentsResponse,
  MerchantQrResponse,
  RegisterMerchantBody,
  RegisterMerchantResponse,
} from './merchants.schemas.js';

export async function merchantsRoutes(scope: FastifyInstance, { ctx }: SurfaceOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['merchants'];
  const service = ctx.merchants;
  /** Merchant routes need the merchant role (403 forbidden otherwise). */
  const merchantScope = (req: Parameters<typeof authOf>[0]) => {
    if (authOf(req).role !== 'merchant') throw forbidden('Merchant role required');
    return scopeOf(req);
  };

  app.post(
    '/merchants/register',
    {
      schema: {
        tags,
        body: RegisterMerchantBody,
        response: { 201: RegisterMerchantResponse, ...errors(400, 401, 403, 409, 422) },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await service.register(scopeOf(req), req.body) }),
  );

  app.get(
    '/merchants/dashboard',
    { schema: { tags, querystring: DashboardQuery, response: { 200: DashboardResponse, ...errors(400, 401, 403) } } },
    async (req) => ({
      data: await service.dashboard(merchantScope(req), req.query.period ?? 'today'),
    }),
  );

  app.get(
    '/merchants/qr',
    { schema: { tags, response: { 200: MerchantQrResponse, ...errors(401, 403) } } },
    async (req) => ({
      data: await service.qr(merchantScope(req)),
    }),
  );

  app.get(
    '/merchants/qr.png',
    {
      schema: {
        tags,
        summary: 'The QR code as PNG',
        response: { 200: Type.Unknown({ description: 'image/png' }), ...errors(401, 403) },
      },
    },
    async (req, reply) => reply.type('image/png').send(await service.qrImage(merchantScope(req), 'png')),
  );

  app.get(
    '/merchants/qr.svg',
    {
      schema: {
        tags,
        summary: 'The QR code as SVG',
        response: { 200: Type.Unknown({ description: 'image/svg+xml' }), ...errors(401, 403) },
      },
    },
    async (req, reply) => reply.type('image/svg+xml').send(await service.qrImage(merchantScope(req), 'svg')),
  );

  app.get(
    '/merchants/transactions',
    {
      schema: {
        tags,
        querystring: MerchantPaymentsQuery,
        response: { 200: MerchantPaymentsResponse, ...errors(400, 401, 403) },
      },
    },
    async (req) => service.payments(merchantScope(req), pageOf(req.query, 20, 50)),
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { LIMIT_PAYMENTS } from '../../lib/limits.js';
import { scopeOf, sessionProofOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  DisclosureBody,
  DisclosureResponse,
  IdempotencyHeaders,
  QrPaymentBody,
  QrPaymentResponse,
  RemittanceBody,
  RemittanceResponse,
} from './payments.schemas.js';
import type { PaymentsService } from './payments.service.js';

export function paymentsRoutes(deps: { payments: PaymentsService }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['payments'];

    app.post(
      '/transactions/remittance',
      {
        // The session row is checked in the payment's transaction (PaymentsService.remit).
        config: { ...LIMIT_PAYMENTS, sessionInTransaction: true },
        schema: {
          tags,
          headers: IdempotencyHeaders,
          body: RemittanceBody,
          response: { 201: RemittanceResponse, ...errors(400, 401, 402, 403, 404, 422, 429, 502) },
        },
      },
      async (req, reply) => {
        const res = await deps.payments.remit(
          scopeOf(req),
          req.body,
          req.headers['idempotency-key'] ?? null,
          sessionProofOf(req),
        );
        return reply.status(201).send(res.body as Static<typeof RemittanceResponse>);
      },
    );

    app.post(
      '/transactions/qr-payment',
      {
        config: LIMIT_PAYMENTS,
        schema: {
          tags,
          headers: IdempotencyHeaders,
          body: QrPaymentBody,
          response: { 201: QrPaymentResponse, ...errors(400, 401, 402, 403, 404, 422, 429, 502) },
        },
      },
      async (req, reply) => {
        const res = await deps.payments.payQr(scopeOf(req), req.body, req.headers['idempotency-key'] ?? null);
        return reply.status(201).send(res.body as Static<typeof QrPaymentResponse>);
      },
    );

    app.post(
      '/transactions/disclosure',
      {
        schema: {
          tags,
          summary: 'Fee and rate disclosure (not wrapped in data)',
          body: DisclosureBody,
          response: { 200: DisclosureResponse, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (req) => deps.payments.disclosure(scopeOf(req), req.body),
    );
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { LIMIT_PAYMENTS } from '../../lib/limits.js';
import type { Surface } from '../../lib/tokens.js';
import { scopeOf, sessionProofOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  DisclosureBody,
  DisclosureResponse,
  IdempotencyHeaders,
  PaymentCallbackQuery,
  QrPaymentBody,
  QrPaymentResponse,
  RemittanceBody,
  RemittanceResponse,
} from './payments.schemas.js';
import { completeAuthorization, disclosure, type PaymentDeps, payQr, remit } from './payments.service.js';

export function paymentsRoutes(surface: Surface, deps: { payments: PaymentDeps }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['payments'];

    app.post(
      '/transactions/remittance',
      {
        // The session row is checked in the payment's intent transaction (payments.service remit).
        config: { ...LIMIT_PAYMENTS, sessionInTransaction: true },
        schema: {
          tags,
          headers: IdempotencyHeaders,
          body: RemittanceBody,
          response: { 201: RemittanceResponse, ...errors(400, 401, 402, 403, 404, 422, 429, 502) },
        },
      },
      async (req, reply) => {
        const res = await remit(
          deps.payments,
          scopeOf(req),
          req.body,
          req.headers['idempotency-key'] ?? null,
          sessionProofOf(req),
          surface,
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
        const res = await payQr(deps.payments, scopeOf(req), req.body, req.headers['idempotency-key'] ?? null, surface);
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
      async (req) => disclosure(scopeOf(req), req.body),
    );

    // The bank's redirect after the user authorized (or declined) a payment: public, the payment
    // named by its one-time state (a browser coming back from the bank carries no SameSite=Strict cookie).
    if (surface === 'web') {
      app.get(
        '/payments/callback',
        {
          config: { public: true },
          schema: {
            tags,
            summary: "The bank's redirect after a payment's authorization",
            querystring: PaymentCallbackQuery,
            response: { 302: { description: 'to /transactions/:id (web) or app://payments/callback (mobile)' } },
          },
        },
        async (req, reply) => reply.redirect(await completeAuthorization(deps.payments, req.query), 302),
      );
    }
  };
}

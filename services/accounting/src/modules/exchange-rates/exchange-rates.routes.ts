import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { ExchangeRate, ManualRateBody, RateQuery } from './exchange-rates.schemas.js';
import { getRate, recordManualRate } from './exchange-rates.service.js';

const today = () => new Date().toISOString().slice(0, 10);

export function exchangeRatesRoutes() {
  const tags = ['Exchange rates'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: RateQuery,
          response: { 200: ExchangeRate, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const q = request.query;
        return getRate(scopeOf(request), q.base.toUpperCase(), q.target.toUpperCase(), q.date ?? today());
      },
    );

    app.post(
      '/',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10 },
        schema: {
          tags,
          body: ManualRateBody,
          response: { 201: ExchangeRate, ...errorResponses(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const body = {
          ...b,
          baseCurrency: b.baseCurrency.toUpperCase(),
          targetCurrency: b.targetCurrency.toUpperCase(),
        };
        const rate = await recordManualRate(scopeOf(request), principalOf(request).userId, body);
        return reply.status(201).send(rate);
      },
    );
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../lib/schemas.js';
import { scopeOf } from '../../plugins/auth.js';
import { TaxRates, UpdateTaxRatesBody } from './tax-rates.schemas.js';
import { getTaxRates, updateTaxRates } from './tax-rates.service.js';

export function taxRatesRoutes() {
  const tags = ['Settings'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/',
      {
        schema: { tags, response: { 200: TaxRates, ...errorResponses(401, 403) } },
      },
      async (request) => {
        return getTaxRates(scopeOf(request));
      },
    );

    app.put(
      '/',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10 },
        schema: {
          tags,
          body: UpdateTaxRatesBody,
          response: { 200: TaxRates, ...errorResponses(401, 403, 422) },
        },
      },
      async (request) => {
        return updateTaxRates(scopeOf(request), request.body);
      },
    );
  };
}

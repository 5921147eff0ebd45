import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LIMIT_RATES } from '../../lib/limits.js';
import { errors } from '../../schemas.js';
import { RateParams, RateResponse, RatesResponse } from './rates.schemas.js';
import type { RatesService } from './rates.service.js';

export function ratesRoutes(deps: { rates: RatesService }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['rates'];
    const config = { public: true, ...LIMIT_RATES };
    // The body comes ready-made (the rates service's allJson): no objects or serialiser per request.
    // (The untyped reply takes text; the schema still documents the body and the test compares
    // the text with the schema serialiser's output.)
    app.get(
      '/rates',
      { config, schema: { tags, response: { 200: RatesResponse, ...errors(429) } } },
      async (_req, reply) =>
        (reply as FastifyReply).type('application/json; charset=utf-8').send(await deps.rates.allJson()),
    );
    app.get(
      '/rates/:currency',
      { config, schema: { tags, params: RateParams, response: { 200: RateResponse, ...errors(400, 404, 429) } } },
      async (req) => ({
        data: await deps.rates.one(req.params.currency),
      }),
    );
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { LIMIT_RATES, type SurfaceOptions } from '../../context.js';
import { errors } from '../../schemas.js';
import { RateParams, RateResponse, RatesResponse } from './rates.schemas.js';

export async function ratesRoutes(scope: FastifyInstance, { ctx }: SurfaceOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['rates'];
  const config = { public: true, ...LIMIT_RATES };
  app.get('/rates', { config, schema: { tags, response: { 200: RatesResponse, ...errors(429) } } }, async () => ({
    data: await ctx.rates.all(),
  }));
  app.get('/rates/:currency', { config, schema: { tags, params: RateParams, response: { 200: RateResponse, ...errors(400, 404, 429) } } }, async (req) => ({
    data: await ctx.rates.one(req.params.currency),
  }));
}

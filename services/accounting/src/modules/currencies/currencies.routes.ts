import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../lib/schemas.js';
import { scopeOf } from '../../plugins/auth.js';
import { listCurrencies } from './currencies.service.js';

export const Currency = Type.Object({
  code: Type.String(),
  name: Type.String(),
  symbol: Type.Union([Type.String(), Type.Null()]),
  decimalPlaces: Type.Integer(),
  isActive: Type.Boolean(),
});

export function currenciesRoutes() {
  const tags = ['Currencies'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      {
        schema: {
          tags,
          response: { 200: Type.Object({ data: Type.Array(Currency) }), ...errorResponses(401, 403) },
        },
      },
      async (request) => {
        return listCurrencies(scopeOf(request));
      },
    );
  };
}

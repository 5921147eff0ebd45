import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses, IdParams, literalUnion } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { FiscalState } from '../invoices/fiscal-state.js';
import type { SefDeps } from '../sef/sef.service.js';
import {
  fiscalizeInvoice,
  getFiscalizationSettings,
  invoiceFiscalization,
  putFiscalizationSettings,
} from './fiscalization.service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Environment = literalUnion(['test', 'production']);

export const FiscalizationSettings = Type.Object({
  environment: Environment,
  enabled: Type.Boolean(),
  certificateSet: Type.Boolean(),
  certificateSubject: Nullable(Type.String()),
  certificateNotAfter: Nullable(Type.String({ format: 'date-time' })),
});
const PutBody = Type.Object(
  {
    certificate: Type.String({
      minLength: 16,
      maxLength: 100_000,
      pattern: '^[A-Za-z0-9+/=\\s]+$',
      description: 'base64 PKCS#12',
    }),
    password: Type.String({ maxLength: 200 }),
    environment: Environment,
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export const Fiscalization = Type.Object({
  invoiceId: Type.String({ format: 'uuid' }),
  fiscalization: Nullable(FiscalState),
  creditNote: Nullable(FiscalState),
  payment: Nullable(FiscalState),
});
const FiscalizeBody = Type.Object(
  {
    message: Type.Optional(
      Type.Union([Type.Literal('eracun'), Type.Literal('credit-note'), Type.Literal('payment')], {
        description: 'which message: the e-invoice (default), its credit note, or the payment report',
      }),
    ),
  },
  { additionalProperties: false },
);

/** /api/v1/organization/fiscalization (D5). */
export function fiscalizationSettingsRoutes(deps: SefDeps) {
  const tags = ['Fiscalization (HR)'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      { schema: { tags, response: { 200: FiscalizationSettings, ...errorResponses(401, 403, 422) } } },
      async (request) => getFiscalizationSettings(scopeOf(request), principalOf(request)),
    );
    app.put(
      '/',
      {
        config: { auth: ['owner'], perMinute: 5 },
        schema: {
          tags,
          body: PutBody,
          response: { 200: FiscalizationSettings, ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => putFiscalizationSettings(deps, scopeOf(request), principalOf(request), request.body),
    );
  };
}

/** Under /api/v1/invoices: the invoice's fiscalization (D5). */
export function fiscalizationInvoiceRoutes(deps: SefDeps) {
  const tags = ['Fiscalization (HR)'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/:id/fiscalization',
      { schema: { tags, params: IdParams, response: { 200: Fiscalization, ...errorResponses(401, 403, 404) } } },
      async (request) => invoiceFiscalization(scopeOf(request), principalOf(request), request.params.id),
    );
    app.post(
      '/:id/fiscalization',
      {
        config: { auth: ['owner', 'admin', 'accountant'], perMinute: 30 },
        schema: {
          tags,
          params: IdParams,
          body: Type.Optional(FiscalizeBody),
          response: { 200: Fiscalization, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) =>
        fiscalizeInvoice(deps, scopeOf(request), principalOf(request), request.params.id, request.body?.message),
    );
  };
}

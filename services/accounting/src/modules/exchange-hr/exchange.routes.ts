import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses, IdParams, literalUnion } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { IntermediaryState } from '../invoices/intermediary-state.js';
import type { SefDeps } from '../sef/sef.service.js';
import { invoiceDelivery, queueDelivery } from './delivery.service.js';
import { getIntermediarySettings, lookupRecipient, putIntermediarySettings } from './exchange.service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Environment = literalUnion(['demo', 'production']);
const FiscalizationBy = literalUnion(['service', 'intermediary'], {
  description:
    'who fiscalizes the e-invoices sent through the intermediary: Moj-eRačun fiscalizes what it sends (intermediary, the default); service: this service does (only when Moj-eRačun is set not to)',
});

export const IntermediarySettings = Type.Object({
  provider: literalUnion(['moj-eracun']),
  environment: Environment,
  enabled: Type.Boolean(),
  username: Nullable(Type.String()),
  passwordSet: Type.Boolean(),
  companyBu: Nullable(Type.String()),
  softwareId: Nullable(Type.String()),
  fiscalizationBy: FiscalizationBy,
  lastSyncAt: Nullable(Type.String({ format: 'date-time' })),
});
const PutBody = Type.Object(
  {
    environment: Environment,
    enabled: Type.Boolean(),
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'kept sealed; omit to keep' })),
    companyBu: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    softwareId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'the SoftwareId Moj-eRačun issued to this integration',
    }),
    fiscalizationBy: Type.Optional(FiscalizationBy),
  },
  { additionalProperties: false },
);
const RecipientQuery = Type.Object(
  { oib: Type.String({ pattern: '^[0-9]{11}$', description: 'the recipient OIB' }) },
  { additionalProperties: false },
);
export const RecipientLookup = Type.Object({
  oib: Type.String(),
  registered: Type.Boolean({ description: 'registered to receive e-invoices (through any intermediary)' }),
  provider: Type.String(),
});

/** /api/v1/organization/intermediary: the Croatian information intermediary (issue 28). */
export function intermediaryRoutes(deps: SefDeps) {
  const tags = ['E-invoice exchange (HR)'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      { schema: { tags, response: { 200: IntermediarySettings, ...errorResponses(401, 403, 422) } } },
      async (request) => getIntermediarySettings(scopeOf(request), principalOf(request)),
    );
    app.put(
      '/',
      {
        config: { auth: ['owner', 'admin'], perMinute: 10 },
        schema: { tags, body: PutBody, response: { 200: IntermediarySettings, ...errorResponses(400, 401, 403, 422) } },
      },
      async (request) => putIntermediarySettings(deps, scopeOf(request), principalOf(request), request.body),
    );
    app.get(
      '/recipient',
      {
        config: { perMinute: 60 },
        schema: {
          tags,
          querystring: RecipientQuery,
          response: { 200: RecipientLookup, ...errorResponses(400, 401, 403, 422, 503) },
        },
      },
      async (request) => lookupRecipient(deps, scopeOf(request), principalOf(request), request.query.oib),
    );
  };
}

export const IntermediaryDelivery = Type.Object({
  invoiceId: Type.String({ format: 'uuid' }),
  intermediary: Nullable(IntermediaryState),
  creditNoteIntermediary: Nullable(IntermediaryState),
});

/** Under /api/v1/invoices: an invoice's (and its credit note's) delivery through the intermediary. */
export function intermediaryInvoiceRoutes(deps: SefDeps) {
  const tags = ['E-invoice exchange (HR)'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/:id/intermediary',
      {
        schema: { tags, params: IdParams, response: { 200: IntermediaryDelivery, ...errorResponses(401, 403, 404) } },
      },
      async (request) => invoiceDelivery(scopeOf(request), principalOf(request), request.params.id),
    );
    for (const [path, kind] of [
      ['/:id/intermediary', 'invoice'],
      ['/:id/credit-note/intermediary', 'credit-note'],
    ] as const) {
      app.post(
        path,
        {
          config: { auth: ['owner', 'admin', 'accountant'], perMinute: 30 },
          schema: {
            tags,
            params: IdParams,
            response: { 202: IntermediaryDelivery, ...errorResponses(400, 401, 403, 404, 422) },
          },
        },
        async (request, reply) => {
          const out = await queueDelivery(deps, scopeOf(request), principalOf(request), request.params.id, kind, true);
          return reply.status(202).send(out);
        },
      );
    }
  };
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import {
  CardIdParams,
  CardListResponse,
  CardResponse,
  CreateCardBody,
  LimitBody,
  LimitListResponse,
  LimitResponse,
  PhysicalCardBody,
  PhysicalCardResponse,
  PinBody,
  PinResponse,
  UpdateCardBody,
} from './cards.schemas.js';
import {
  cancelCard,
  createCard,
  getCard,
  listCardLimits,
  listCards,
  requestPhysicalCard,
  setCardLimit,
  setCardPin,
  setCardStatus,
} from './cards.service.js';

/**
 * Registered only while FEATURE_CARDS is on (app.ts); the sub-feature routes only while their
 * own flag is on too. A route that is not registered answers 404 not_found (R14).
 */
export function cardsRoutes(deps: { config: Readonly<Config> }) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['cards'];
    const flags = deps.config.features;
    const cardsDeps = { bcryptCost: deps.config.bcryptCost, physicalCards: flags.physicalCards };

    app.get(
      '/cards',
      {
        schema: { tags, summary: 'Cards, without cancelled ones', response: { 200: CardListResponse, ...errors(401) } },
      },
      async (req) => ({
        data: await listCards(scopeOf(req)),
      }),
    );

    app.post(
      '/cards',
      {
        schema: { tags, body: CreateCardBody, response: { 201: CardResponse, ...errors(400, 401, 403, 404) } },
        // The body is optional (a virtual card by default).
        preValidation: async (req) => {
          req.body ??= {};
        },
      },
      async (req, reply) =>
        reply.status(201).send({ data: await createCard(cardsDeps, scopeOf(req), req.body.type ?? 'virtual') }),
    );

    app.get(
      '/cards/:id',
      { schema: { tags, params: CardIdParams, response: { 200: CardResponse, ...errors(401, 404) } } },
      async (req) => ({
        data: await getCard(scopeOf(req), req.params.id),
      }),
    );

    app.patch(
      '/cards/:id',
      {
        schema: {
          tags,
          summary: 'Freeze or unfreeze',
          params: CardIdParams,
          body: UpdateCardBody,
          response: { 200: CardResponse, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (req) => ({ data: await setCardStatus(scopeOf(req), req.params.id, req.body.status) }),
    );

    app.delete(
      '/cards/:id',
      {
        schema: {
          tags,
          summary: 'Cancel (final)',
          params: CardIdParams,
          response: { 200: CardResponse, ...errors(401, 403, 404) },
        },
      },
      async (req) => ({ data: await cancelCard(scopeOf(req), req.params.id) }),
    );

    if (flags.physicalCards) {
      app.post(
        '/cards/:id/physical',
        {
          schema: {
            tags,
            summary: 'Order the physical card (FEATURE_PHYSICAL_CARDS)',
            params: CardIdParams,
            body: PhysicalCardBody,
            response: { 201: PhysicalCardResponse, ...errors(400, 401, 403, 404, 409, 422) },
          },
        },
        async (req, reply) =>
          reply.status(201).send({ data: await requestPhysicalCard(scopeOf(req), req.params.id, req.body.address) }),
      );
    }

    if (flags.cardPin) {
      app.post(
        '/cards/:id/pin',
        {
          schema: {
            tags,
            summary: 'Set the PIN (FEATURE_CARD_PIN); stored as a bcrypt hash, never returned',
            params: CardIdParams,
            body: PinBody,
            response: { 200: PinResponse, ...errors(400, 401, 403, 404, 409, 422) },
          },
        },
        async (req) => ({ data: await setCardPin(cardsDeps, scopeOf(req), req.params.id, req.body.pin) }),
      );
    }

    if (flags.spendingLimits) {
      app.get(
        '/cards/:id/limits',
        {
          schema: {
            tags,
            summary: 'Spending limits (FEATURE_SPENDING_LIMITS)',
            params: CardIdParams,
            response: { 200: LimitListResponse, ...errors(401, 404) },
          },
        },
        async (req) => ({ data: await listCardLimits(scopeOf(req), req.params.id) }),
      );
      app.put(
        '/cards/:id/limits',
        {
          schema: {
            tags,
            summary: 'Set the limit of one type, replacing an existing one (FEATURE_SPENDING_LIMITS)',
            params: CardIdParams,
            body: LimitBody,
            response: { 200: LimitResponse, ...errors(400, 401, 403, 404, 409, 422) },
          },
        },
        async (req) => ({
          data: await setCardLimit(scopeOf(req), req.params.id, req.body.limitType, req.body.amount),
        }),
      );
    }
  };
}

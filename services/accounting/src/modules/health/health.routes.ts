import { Health, healthHandler } from '@app/shared/health';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** GET /health (G11): 200 when the database answers a ping, else 503. */
export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get(
      '/health',
      { config: { public: true }, schema: { tags: ['Health'], response: { 200: Health, 503: Health } } },
      healthHandler(ctx.db, ctx.config.version),
    );
  };
}

import { Health, healthHandler } from '@app/shared/health';
import type { FastifyInstance } from 'fastify';
import type { SurfaceOptions } from '../../context.js';

/** GET /api/health and /v1/health (G11): 200 when the database answers a ping, else 503. */
export async function healthRoutes(app: FastifyInstance, { ctx }: SurfaceOptions): Promise<void> {
  app.get(
    '/health',
    { config: { public: true }, schema: { tags: ['health'], response: { 200: Health, 503: Health } } },
    healthHandler(ctx.db, ctx.config.version),
  );
}

import type { Database } from '@app/shared/db/database';
import { Health, healthHandler } from '@app/shared/health';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { DB } from '../../db/types.js';

/** GET /api/health and /v1/health (G11): 200 when the database answers a ping, else 503. */
export function healthRoutes(deps: { config: Readonly<Config>; db: Database<DB> }) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get(
      '/health',
      { config: { public: true }, schema: { tags: ['health'], response: { 200: Health, 503: Health } } },
      healthHandler(deps.db, deps.config.version),
    );
  };
}

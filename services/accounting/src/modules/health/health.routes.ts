import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';

const started = Date.now();

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  version: Type.String(),
  uptime: Type.Number(),
  db: Type.Union([Type.Literal('connected'), Type.Literal('disconnected')]),
  dbLatencyMs: Type.Union([Type.Number(), Type.Null()]),
  timestamp: Type.String(),
});

/** GET /health (G11): 200 when the database answers a ping, else 503. */
export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/health', { config: { public: true }, schema: { tags: ['Health'], response: { 200: Health, 503: Health } } }, async (_request, reply) => {
      let latency: number | null = null;
      try {
        // ping() gives up within a second, so an outage shows here within a second (G15).
        latency = await ctx.db.ping();
      } catch {
        latency = null;
      }
      const ok = latency !== null;
      return reply.status(ok ? 200 : 503).header('cache-control', 'no-store').send({
        status: ok ? 'ok' : 'error',
        version: ctx.config.version,
        uptime: Math.round((Date.now() - started) / 1000),
        db: ok ? 'connected' : 'disconnected',
        dbLatencyMs: latency === null ? null : Math.round(latency * 100) / 100,
        timestamp: new Date().toISOString(),
      });
    });
  };
}

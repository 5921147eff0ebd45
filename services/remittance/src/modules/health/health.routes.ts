import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SurfaceOptions } from '../../context.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  version: Type.String(),
  uptime: Type.Number({ description: 'seconds' }),
  db: Type.Union([Type.Literal('connected'), Type.Literal('disconnected')]),
  dbLatencyMs: Type.Union([Type.Number(), Type.Null()]),
  timestamp: Type.String(),
});

export async function healthRoutes(scope: FastifyInstance, { ctx }: SurfaceOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/health',
    { config: { public: true }, schema: { tags: ['health'], response: { 200: Health, 503: Health } } },
    async (_req, reply) => {
      let latency: number | null = null;
      try {
        // ping() gives up within a second, so an outage shows here within a second (G15).
        latency = await ctx.db.ping();
      } catch {
        latency = null;
      }
      const ok = latency !== null;
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'error',
        version: ctx.config.version,
        uptime: Math.round(process.uptime()),
        db: ok ? 'connected' : 'disconnected',
        dbLatencyMs: ok ? Math.round(latency! * 100) / 100 : null,
        timestamp: new Date().toISOString(),
      });
    },
  );
}

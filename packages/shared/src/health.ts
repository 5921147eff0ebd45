import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  version: Type.String(),
  uptime: Type.Number({ description: 'seconds' }),
  db: Type.Union([Type.Literal('connected'), Type.Literal('disconnected')]),
  dbLatencyMs: Type.Union([Type.Number(), Type.Null()]),
  timestamp: Type.String(),
});

/**
 * The health handler (G11): 200 when the database answers a ping, else 503; the version is the
 * service's package.json version (config.version).
 */
export function healthHandler(db: { ping(): Promise<number> }, version: string) {
  return async (_request: unknown, reply: FastifyReply) => {
    let latency: number | null = null;
    try {
      // ping() gives up within a second, so an outage shows here within a second (G15).
      latency = await db.ping();
    } catch {
      latency = null;
    }
    const ok = latency !== null;
    return reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: ok ? 'ok' : 'error',
        version,
        uptime: Math.round(process.uptime()),
        db: ok ? 'connected' : 'disconnected',
        dbLatencyMs: latency === null ? null : Math.round(latency * 100) / 100,
        timestamp: new Date().toISOString(),
      });
  };
}

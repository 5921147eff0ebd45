import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

/** Baseline servers: a /health route, listen on PORT, stop cleanly on SIGTERM. */
export async function serve(app: FastifyInstance, pool: pg.Pool): Promise<void> {
  app.get('/health', async () => ({ ok: true }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  });
}

/** BEGIN, fn, COMMIT on one pooled client (ROLLBACK on error): what the baselines measure. */
export async function transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

import { describe, expect, it } from 'vitest';
import { Health, healthHandler } from './health.js';
import { createHttp } from './http.js';

async function appWith(ping: () => Promise<number>) {
  const app = createHttp({ logLevel: 'silent', trustProxy: false });
  app.get('/health', { schema: { response: { 200: Health, 503: Health } } }, healthHandler({ ping }, '7.8.9'));
  await app.ready();
  return app;
}

describe('shared health route (G11)', () => {
  it('answers 200 with the version it was given and the database latency', async () => {
    const app = await appWith(async () => 1.234);
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ status: 'ok', version: '7.8.9', db: 'connected', dbLatencyMs: 1.23 });
    await app.close();
  });

  it('answers 503 with status error when the database does not answer its ping', async () => {
    const app = await appWith(async () => {
      throw new Error('connection refused');
    });
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'error', version: '7.8.9', db: 'disconnected', dbLatencyMs: null });
    await app.close();
  });
});

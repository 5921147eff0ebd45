import { freshDatabase } from '@app/shared/test/clone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { DB } from '../src/db/types.js';
import { buildTestApp, testConfig } from './helpers.js';

describe('health (G11)', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    env = await buildTestApp();
  });
  afterAll(async () => env?.close());

  it('answers on both surfaces with the spec fields', async () => {
    for (const url of ['/api/health', '/v1/health']) {
      const res = await env.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ status: 'ok', db: 'connected' });
      expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(typeof body.uptime).toBe('number');
      expect(typeof body.dbLatencyMs).toBe('number');
      expect(Date.parse(body.timestamp)).not.toBeNaN();
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('sends the security headers (content security policy, nosniff, HSTS) on every response', async () => {
    for (const url of ['/api/health', '/api/rates', '/v1/auth/me']) {
      const res = await env.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    }
  });

  it('echoes a well-formed X-Request-Id', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('answers 503 with status error when the database is unreachable', async () => {
    const t = await freshDatabase<DB>('remittance', 'remittance_app');
    const app = await buildApp(testConfig(), t.db);
    await app.ready();
    await t.destroy();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'error', db: 'disconnected' });
    } finally {
      await app.close();
    }
  });

  it('serves the OpenAPI description and the reference page', async () => {
    const doc = await env.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/auth/eid', '/v1/auth/eid/callback', '/api/bank-accounts', '/v1/rates/{currency}']),
    );
    const docs = await env.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('answers unknown routes with the error shape', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.js';

// W2, W3: the remittance service serves its web app at / with /api, /v1, /docs, /openapi.json and
// /health untouched; the eID callback's /dashboard and /login are routes of the app.
let h: Awaited<ReturnType<typeof buildTestApp>>;
const INDEX = '<!doctype html><title>send</title><script type="module" src="/assets/index-Zx9Q1.js"></script>';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'remit-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-Zx9Q1.js'), 'console.log(2)');
  writeFileSync(join(dir, 'assets', 'index-Zx9Q1.js.gz'), gzipSync('console.log(2)'));
  writeFileSync(join(dir, 'secret.txt'), 'not an asset');
  h = await buildTestApp({ REMITTANCE_WEB_DIR: dir });
});
afterAll(() => h?.close());

const get = (url: string, headers: Record<string, string> = HTML) => h.app.inject({ method: 'GET', url, headers });

describe('the remittance web app', () => {
  it('answers index.html at / and at the app routes the service redirects to, never cached', async () => {
    for (const url of ['/', '/dashboard', '/login?error=age_restricted', '/bank-accounts', '/history/abc']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toMatch(/no-cache/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves hashed assets for a year, the gzip copy to a browser that accepts it', async () => {
    const res = await get('/assets/index-Zx9Q1.js', { accept: '*/*', 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe('console.log(2)');
  });

  it('keeps the JSON 404 envelope for missing assets, files outside assets and non-HTML requests', async () => {
    for (const [url, headers] of [
      ['/assets/missing-Q.js', { accept: '*/*' }],
      ['/assets/%2e%2e/secret.txt', { accept: '*/*' }],
      ['/dashboard', { accept: 'application/json' }],
    ] as const) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toBe('not_found');
      expect(res.body).not.toContain('not an asset');
    }
  });

  it('leaves /api, /v1, /docs, /openapi.json and /health to the service, even for a browser', async () => {
    const missing = await get('/api/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('not_found');
    expect((await get('/api/auth/me')).statusCode).toBe(401);
    expect((await get('/v1/auth/me')).statusCode).toBe(401);
    expect((await get('/v1/nothing-here')).json().error).toBe('not_found');
    expect((await get('/openapi.json')).json().openapi).toMatch(/^3\./);
    const docs = await get('/docs');
    expect(docs.statusCode).toBeLessThan(400);
    expect(docs.body).not.toBe(INDEX);
    expect((await get('/api/health')).headers['content-type']).toMatch(/json/);
  });
});

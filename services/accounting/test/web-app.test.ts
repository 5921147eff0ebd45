import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { buildTestApp, type TestApp } from './helpers.js';

// W1, W3: the service serves the built web app at / with the API, docs and health untouched.
let h: TestApp;
const INDEX = '<!doctype html><title>app</title><script type="module" src="/assets/index-AbC123.js"></script>';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'acc-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(join(dir, 'secret.txt'), 'not an asset');
  h = await buildTestApp({ WEB_DIR: dir, RATE_LIMITS: 'off' });
});
afterAll(() => h?.close());

const get = (url: string, headers: Record<string, string> = HTML) => h.app.inject({ method: 'GET', url, headers });

describe('the web app', () => {
  it('answers index.html at / and at client routes, never cached', async () => {
    for (const url of ['/', '/invoices/3f1c', '/accept-invite?token=abc', '/contacts']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toMatch(/no-cache/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves hashed assets with a year of immutable caching', async () => {
    const res = await get('/assets/index-AbC123.js', { accept: '*/*' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the gzip copy written at build time to a browser that accepts it', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe('console.log(1)');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps the JSON 404 for a missing asset, a path outside assets and a non-HTML request', async () => {
    for (const [url, headers] of [
      ['/assets/missing-XyZ.js', { accept: '*/*' }],
      ['/assets/../secret.txt', { accept: '*/*' }],
      ['/assets/%2e%2e/secret.txt', { accept: '*/*' }],
      ['/contacts', { accept: 'application/json' }],
    ] as const) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code, url).toBe('SVC-9002');
      expect(res.body).not.toContain('not an asset');
    }
  });

  it('leaves /api, /docs, /openapi.json and /health to the service, even for a browser', async () => {
    const api = await get('/api/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('SVC-9002');
    const unauth = await get('/api/v1/invoices');
    expect(unauth.statusCode).toBe(401);
    expect((await get('/openapi.json')).json().openapi).toBe('3.1.0');
    expect((await get('/health')).headers['content-type']).toMatch(/json/);
    const docs = await get('/docs');
    expect(docs.statusCode).toBeLessThan(400);
    expect(docs.body).not.toBe(INDEX);
    expect((await get('/v1/anything')).statusCode).toBe(404);
  });
});

describe('the invitation link (W1)', () => {
  it('opens the served app: WEB_ORIGIN defaults to PUBLIC_BASE_URL', () => {
    const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: mkdtempSync(join(tmpdir(), 'acc-cfg-')) };
    expect(loadConfig({ ...base, PUBLIC_BASE_URL: 'https://books.example.test/' }).webOrigin).toBe(
      'https://books.example.test',
    );
    expect(loadConfig({ ...base, ACCOUNTING_PORT: '3100' }).webOrigin).toBe('http://127.0.0.1:3100');
    expect(loadConfig({ ...base, WEB_ORIGIN: 'https://app.example.test' }).webOrigin).toBe('https://app.example.test');
  });

  it('allows the Vite development origin outside production only', () => {
    const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: mkdtempSync(join(tmpdir(), 'acc-cfg-')) };
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).corsOrigins).toContain('http://localhost:5173');
    const prod = loadConfig({
      ...base,
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://books.example.test',
      ACCOUNTING_DATABASE_URL: 'postgres://app@db.example.test/accounting',
      CLAMAV_HOST: 'clamd.example.test',
    });
    expect(prod.corsOrigins).toEqual(['https://books.example.test']);
  });
});

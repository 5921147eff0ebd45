import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG, LANGUAGES, languageFromHeader, messageFor } from '../src/lib/catalog.js';
import { authed, buildTestApp, freshIp, registerOrg, type TestApp } from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

// Codes of our own, beyond the specification (docs/decisions.md): SVC-9009, a body too large.
const EXTENSIONS = ['SVC-9009'];

describe('error catalog (A18)', () => {
  it('has a message for every code of the specification in sr, bs, hr and en', () => {
    // The specification sits beside the repository (../shared), as in CI.
    const specFile = new URL('../../../../shared/spec/accounting-service.md', import.meta.url);
    const spec = existsSync(specFile) ? readFileSync(specFile, 'utf8') : '';
    const specCodes = spec
      ? [...spec.matchAll(/^\| (SVC-\d{4}) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])] as const)
      : Object.entries(CATALOG)
          .filter(([c]) => !EXTENSIONS.includes(c))
          .map(([c, e]) => [c, e.status] as const);
    expect(specCodes.length).toBe(70);
    for (const [code, status] of [...specCodes, ['SVC-9009', 413] as const]) {
      const entry = (
        CATALOG as unknown as Record<string, { status: number; en: string; sr: string; bs: string; hr: string }>
      )[code];
      expect(entry, code).toBeDefined();
      expect([code, entry.status]).toEqual([code, status]);
      for (const lang of LANGUAGES) {
        expect(entry[lang], `${code} ${lang}`).toMatch(/\S{2,}/);
      }
      // The local languages are real translations, not the English text copied.
      expect(entry.sr, code).not.toBe(entry.en);
      expect(entry.hr, code).not.toBe(entry.en);
      expect(entry.bs, code).not.toBe(entry.en);
    }
    expect(Object.keys(CATALOG).sort()).toEqual([...specCodes.map(([c]) => c), ...EXTENSIONS].sort());
  });

  it('falls back to the internal-error message for an unknown code', () => {
    expect(messageFor('SVC-0000', 'sr')).toBe(CATALOG['SVC-9004'].sr);
  });

  it('picks the language from Accept-Language by quality, else en', () => {
    expect(languageFromHeader('de-DE,bs;q=0.8,hr;q=0.9')).toBe('hr');
    expect(languageFromHeader('sr-Latn-RS')).toBe('sr');
    expect(languageFromHeader('fr')).toBe('en');
    expect(languageFromHeader(undefined)).toBe('en');
  });
});

describe('HTTP conventions', () => {
  it('echoes a valid X-Request-Id and replaces an invalid one', async () => {
    const echoed = await h.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const replaced = await h.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'bad id with spaces <>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers (nosniff, HSTS, no CSP for a JSON API) on answers and errors', async () => {
    // 200, 401, 404 (no route) and 400 (an unsafe query string, refused before validation).
    for (const url of ['/health', '/api/v1/auth/me', '/api/v1/nothing-here', '/api/v1/auth/me?x=%00']) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('answers unknown routes and non-UUID ids with 404 SVC-9002', async () => {
    const s = await registerOrg(h.app);
    const unknown = await h.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('SVC-9002');
    const badId = await h.app.inject(authed(s.token, { method: 'DELETE', url: '/api/v1/users/not-a-uuid' }));
    expect(badId.statusCode).toBe(404);
    expect(badId.json().error.code).toBe('SVC-9002');
  });

  it('answers malformed, too deep and prototype-polluting JSON safely', async () => {
    const s = await registerOrg(h.app);
    const malformed = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": ',
      }),
    );
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().error.code).toBe('SVC-9003');
    let deep = '1';
    for (let i = 0; i < 200; i++) deep = `{"a":${deep}}`;
    const tooDeep = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        headers: { 'content-type': 'application/json' },
        payload: deep,
      }),
    );
    expect(tooDeep.statusCode).toBe(422);
    const proto = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        headers: { 'content-type': 'application/json' },
        payload: '{"__proto__": {"isAdmin": true}, "name": "Proto"}',
      }),
    );
    expect(proto.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const huge = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { name: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    // Issue 25 item 2: over the body limit is 413 SVC-9009.
    expect([huge.statusCode, huge.json().error.code]).toEqual([413, 'SVC-9009']);
  });

  it('never coerces body strings such as "Infinity" into numbers (G14)', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email: 'a@b.test', password: 'x', rememberMe: 'true' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.rememberMe).toBeDefined();
    const long = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email: 'a@b.test', password: 'x'.repeat(500) },
    });
    expect(long.statusCode).toBe(422);
  });

  it('allows CORS with credentials for the web origin and the local development origin only', async () => {
    for (const origin of ['https://app.example.test', 'http://localhost:5173']) {
      const res = await h.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/auth/login',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
    }
    const evil = await h.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/login',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the OpenAPI 3.1 document and the reference page', async () => {
    const doc = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.paths['/api/v1/auth/register'].post.requestBody).toBeDefined();
    expect(spec.paths['/api/v1/users/{id}/role'].put).toBeDefined();
    const page = await h.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('reports health, and 503 when the database is unreachable', async () => {
    const ok = await h.app.inject({ method: 'GET', url: '/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'ok', db: 'connected', version: expect.any(String) });
    const broken = await buildTestApp();
    await broken.t.db.close();
    const down = await broken.app.inject({ method: 'GET', url: '/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'error', db: 'disconnected' });
    await broken.app.close();
    await broken.t.destroy().catch(() => {});
  });
});

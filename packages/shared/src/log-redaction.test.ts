import { describe, expect, it } from 'vitest';
import { createHttp } from './http.js';
import { maskEmail, maskUrl } from './log-redaction.js';

describe('log redaction (issue 33 item 9)', () => {
  it('masks credential query values and the token segment of a secret path', () => {
    expect(maskUrl('/api/auth/eid/callback?code=abc&state=def&lang=sr')).toBe(
      '/api/auth/eid/callback?code=[redacted]&state=[redacted]&lang=sr',
    );
    expect(maskUrl('/api/v1/public/invoices/tok3n', ['/api/v1/public/invoices/'])).toBe(
      '/api/v1/public/invoices/[redacted]',
    );
    expect(maskUrl('/api/v1/invoices?page=2')).toBe('/api/v1/invoices?page=2');
    expect(maskEmail('kupac@example.test')).toBe('k***@example.test');
  });

  it('never writes the public invoice token, an OAuth code or state, or a full e-mail address to the log', async () => {
    const lines: string[] = [];
    const app = createHttp({
      logLevel: 'info',
      trustProxy: false,
      secretPaths: ['/api/v1/public/invoices/'],
      logStream: { write: (line) => lines.push(line) },
    });
    app.get('/api/v1/public/invoices/:token', async () => 'ok');
    app.get('/callback', async (request) => {
      request.log.info({ to: 'kupac@example.test', cc: ['b@example.test'], token: 'xyz' }, 'mail');
      return 'ok';
    });
    await app.inject({ url: '/api/v1/public/invoices/SECRET-TOKEN-123' });
    await app.inject({ url: '/callback?code=SECRET-CODE&state=SECRET-STATE&ok=1' });
    await app.close();
    const text = lines.join('');
    expect(text).toContain('/api/v1/public/invoices/[redacted]');
    expect(text).toContain('/callback?code=[redacted]&state=[redacted]&ok=1');
    expect(text).toContain('k***@example.test');
    for (const secret of ['SECRET-TOKEN-123', 'SECRET-CODE', 'SECRET-STATE', 'kupac@', 'b@example', 'xyz'])
      expect(text).not.toContain(secret);
  });
});

import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './config.js';

describe('TRUST_PROXY (issue 33 item 2)', () => {
  it('reads a hop count or proxy addresses, never "trust every hop"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1/128,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1/128',
      'loopback',
    ]);
    for (const bad of ['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1', '99'])
      expect(() => parseTrustProxy(bad), bad).toThrow('TRUST_PROXY');
  });
});

describe('accepted weak settings (issue 33 item 7)', () => {
  it('logs each accepted weakness as a warning when the app is built', async () => {
    const { createHttp } = await import('./http.js');
    const lines: string[] = [];
    const app = createHttp({
      logLevel: 'info',
      trustProxy: false,
      acceptedWeaknesses: ['ALLOW_RATE_LIMITS_OFF=true: RATE_LIMITS=off'],
      logStream: { write: (line) => lines.push(line) },
    });
    await app.close();
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
    expect(warned.map((l) => l.weakness)).toEqual(['ALLOW_RATE_LIMITS_OFF=true: RATE_LIMITS=off']);
  });
});

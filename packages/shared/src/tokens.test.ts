import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from './tokens.js';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const anyClaims = (p: { sub?: string }) => (typeof p.sub === 'string' ? { sub: p.sub } : null);

afterEach(() => vi.useRealTimers());

describe('shared token service', () => {
  it('verifies a token it signed and returns the checked claims', async () => {
    const tokens = new TokenService({ algorithm: 'HS256', secret: SECRET });
    const { token } = await tokens.sign({}, { subject: 'u1', ttlSeconds: 60 });
    expect(await tokens.verifier({ claims: anyClaims }).verify(token)).toEqual({ ok: true, claims: { sub: 'u1' } });
  });

  it('tells an expired token from an invalid one', async () => {
    const tokens = new TokenService({ algorithm: 'HS256', secret: SECRET });
    const verifier = tokens.verifier({ claims: anyClaims });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const { token } = await tokens.sign({}, { subject: 'u1', ttlSeconds: 60 });
    vi.setSystemTime(new Date('2026-01-01T00:02:00Z'));
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifier.verify(`${token}x`)).toEqual({ ok: false, reason: 'invalid' });
    const other = new TokenService({ algorithm: 'HS256', secret: `${SECRET}-other` });
    const { token: foreign } = await other.sign({}, { subject: 'u1', ttlSeconds: 600 });
    expect(await verifier.verify(foreign)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('checks expiry again on every use of a cached token', async () => {
    const tokens = new TokenService({ algorithm: 'HS256', secret: SECRET });
    const verifier = tokens.verifier({ claims: anyClaims });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const { token } = await tokens.sign({}, { subject: 'u1', ttlSeconds: 60 });
    expect((await verifier.verify(token)).ok).toBe(true);
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token whose claims the profile rejects, and never caches it as valid', async () => {
    const tokens = new TokenService({ algorithm: 'HS256', secret: SECRET });
    const { token } = await tokens.sign({ role: 'x' }, { ttlSeconds: 60 });
    const verifier = tokens.verifier({ claims: anyClaims });
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('requires the issuer and audience a profile names', async () => {
    const tokens = new TokenService({ algorithm: 'HS256', secret: SECRET });
    const api = tokens.verifier({ issuer: 'app-api', audience: 'app', claims: anyClaims });
    const plain = await tokens.sign({}, { subject: 'u1', ttlSeconds: 60 });
    const scoped = await tokens.sign({}, { subject: 'u1', ttlSeconds: 60, issuer: 'app-api', audience: 'app' });
    expect((await api.verify(plain.token)).ok).toBe(false);
    expect((await api.verify(scoped.token)).ok).toBe(true);
  });

  it('signs with RS256 and pins the algorithm on verify', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = new TokenService({
      algorithm: 'RS256',
      privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    const { token } = await rs.sign({}, { subject: 'u1', ttlSeconds: 60 });
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg).toBe('RS256');
    expect(await rs.verifier({ claims: anyClaims }).verify(token)).toEqual({ ok: true, claims: { sub: 'u1' } });
    const hs = new TokenService({ algorithm: 'HS256', secret: SECRET });
    const { token: hsToken } = await hs.sign({}, { subject: 'u1', ttlSeconds: 60 });
    expect(await rs.verifier({ claims: anyClaims }).verify(hsToken)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('keeps at most cacheSize verified tokens, still answering for evicted ones', async () => {
    const tokens = new TokenService({ algorithm: 'HS256', secret: SECRET });
    let checks = 0;
    const verifier = tokens.verifier({
      cacheSize: 2,
      claims: (p) => {
        checks++;
        return anyClaims(p);
      },
    });
    const issued = await Promise.all(['a', 'b', 'c'].map((sub) => tokens.sign({}, { subject: sub, ttlSeconds: 60 })));
    for (const { token } of issued) await verifier.verify(token);
    expect(checks).toBe(3);
    await verifier.verify(issued[2].token); // cached
    expect(checks).toBe(3);
    expect(await verifier.verify(issued[0].token)).toEqual({ ok: true, claims: { sub: 'a' } }); // evicted: verified again
    expect(checks).toBe(4);
  });
});

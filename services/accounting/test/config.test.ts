import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'acc-config-'));
const SECRET = 'p'.repeat(40);
/** A production environment without the weak settings of issue 33 item 7. */
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  ACCOUNTING_DATABASE_URL: 'postgres://app@db.example/accounting',
  WEB_ORIGIN: 'https://app.example.com',
  CLAMAV_HOST: 'clamd.internal',
};

describe('configuration (G3, G7, G8)', () => {
  it('refuses to start in production without a JWT secret, or with a short one, or a cheap bcrypt cost', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(
      'JWT_SECRET is required in production',
    );
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir(), JWT_SECRET: 'short' })).toThrow(
      'at least 32 characters',
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir(), JWT_SECRET: SECRET, BCRYPT_COST: '4' }),
    ).toThrow('BCRYPT_COST');
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
  });

  it('generates a development secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
  });

  it('reads durations, ports and the database location', () => {
    const dir = dataDir();
    const c = loadConfig({
      DATA_DIR: dir,
      ACCESS_TOKEN_TTL: '2s',
      REFRESH_TOKEN_TTL: '1d',
      INVITE_TTL: '90m',
      ACCOUNTING_PORT: '4000',
    });
    expect([c.accessTokenTtlMs, c.refreshTokenTtlMs, c.inviteTtlMs, c.port]).toEqual([
      2000, 86_400_000, 5_400_000, 4000,
    ]);
    expect(c.databaseUrl).toBe(join(dir, 'accounting'));
    expect(c.rateLimits).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dir, ACCESS_TOKEN_TTL: '15 minutes' })).toThrow('ACCESS_TOKEN_TTL');
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'staging' })).toThrow('NODE_ENV');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('switches rate limits off for every false spelling of RATE_LIMITS and refuses a word it does not know (G6)', () => {
    const dir = dataDir();
    for (const off of ['off', 'false', 'FALSE', '0', 'no'])
      expect(loadConfig({ DATA_DIR: dir, RATE_LIMITS: off }).rateLimits).toBe(false);
    for (const on of ['on', 'true', '1', 'yes', ''])
      expect(loadConfig({ DATA_DIR: dir, RATE_LIMITS: on }).rateLimits).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dir, RATE_LIMITS: 'sometimes' })).toThrow('RATE_LIMITS');
  });

  it('freezes the configuration all the way down, so no module can change a nested setting', () => {
    const c = loadConfig({ DATA_DIR: dataDir() });
    expect(Object.isFrozen(c.clamav) && Object.isFrozen(c.exchangeRateFeed) && Object.isFrozen(c.corsOrigins)).toBe(
      true,
    );
    expect(() => {
      (c.clamav as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reports the version of its package.json', async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8'));
    expect(loadConfig({ DATA_DIR: dataDir() }).version).toBe(pkg.version);
  });

  it('refuses weak production settings unless each is accepted by its own ALLOW_ variable (issue 33 item 7)', () => {
    const prod = (env: Record<string, string | undefined>) =>
      loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), ...env });
    expect(prod({}).acceptedWeaknesses).toEqual([]);
    expect(prod({}).corsOrigins).toEqual(['https://app.example.com']);
    const weak: Array<[Record<string, string | undefined>, string]> = [
      [{ RATE_LIMITS: 'off' }, 'ALLOW_RATE_LIMITS_OFF'],
      [{ ACCOUNTING_DATABASE_URL: undefined }, 'ALLOW_EMBEDDED_DATABASE'],
      [{ CLAMAV_HOST: undefined }, 'ALLOW_BUILTIN_SCANNER'],
      [{ CORS_DEV_ORIGIN: 'http://localhost:5173' }, 'ALLOW_LOCALHOST_ORIGINS'],
      [{ WEB_ORIGIN: undefined }, 'ALLOW_LOCALHOST_ORIGINS'],
      [{ WEB_ORIGIN: 'http://app.example.com' }, 'ALLOW_LOCALHOST_ORIGINS'],
    ];
    for (const [env, optIn] of weak) {
      expect(() => prod(env), optIn).toThrow(`set ${optIn}=true to accept it`);
      const accepted = prod({ ...env, [optIn]: 'true' }).acceptedWeaknesses;
      expect(accepted).toHaveLength(1);
      expect(accepted[0]).toMatch(new RegExp(`^${optIn}=true: `));
    }
    // Outside production the development defaults stay as they were.
    const dev = loadConfig({ DATA_DIR: dataDir(), RATE_LIMITS: 'off' });
    expect(dev.acceptedWeaknesses).toEqual([]);
    expect(dev.corsOrigins).toContain('http://localhost:5173');
  });
});

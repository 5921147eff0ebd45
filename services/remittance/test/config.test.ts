import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@app/shared/config';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'remittance-config-'));
const long = (c: string) => c.repeat(40);
const PROD = {
  NODE_ENV: 'production',
  JWT_SECRET: long('s'),
  EID_MOCK: 'false',
  EID_ISSUER: 'https://login.example.no',
  EID_CLIENT_ID: 'client',
  EID_CLIENT_SECRET: long('c'),
  EID_CALLBACK_URL: 'https://app.example.no/api/auth/eid/callback',
  EID_CALLBACK_URL_MOBILE: 'app://auth/callback',
  OPEN_BANKING_PROVIDER: 'sandbox',
  RECEIPT_ISSUER_NAME: 'Eksempel Betaling AS',
  RECEIPT_ISSUER_ORG_NUMBER: '923 456 783',
  NATIONAL_ID_PEPPER: long('p'),
  REMITTANCE_DATABASE_URL: 'postgres://app@db.example/remittance',
  ALLOWED_ORIGINS: 'https://app.example.no',
};

describe('configuration (G7, G8)', () => {
  it('uses the spec defaults outside production: mock eID, sandbox bank, 24h and 7d tokens', () => {
    const c = loadConfig({ DATA_DIR: dataDir() });
    expect(c.eid.mock).toBe(true);
    expect(c.openBanking.provider).toBe('sandbox');
    expect(c.jwt).toMatchObject({ algorithm: 'HS256', expiryMs: 24 * 3600_000, expiryMobileMs: 7 * 24 * 3600_000 });
    expect(c.port).toBe(3001);
    expect(Object.isFrozen(c) && Object.isFrozen(c.jwt)).toBe(true);
  });

  it('keeps every card flag off by default, and BCRYPT_COST within 4-15 (at least 10 in production)', () => {
    const c = loadConfig({ DATA_DIR: dataDir() });
    expect(c.features).toMatchObject({ cards: false, physicalCards: false, cardPin: false, spendingLimits: false });
    expect(c.bcryptCost).toBe(10);
    expect(() => loadConfig({ DATA_DIR: dataDir(), BCRYPT_COST: '3' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), BCRYPT_COST: 'ten' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PROD, DATA_DIR: dataDir(), BCRYPT_COST: '4' })).toThrow(/BCRYPT_COST/);
  });

  it('generates a development JWT secret once and keeps it', () => {
    const dir = dataDir();
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.jwt.algorithm === 'HS256' && b.jwt.algorithm === 'HS256' && a.jwt.secret === b.jwt.secret).toBe(true);
  });

  it('reads durations such as JWT_EXPIRY=2s', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_EXPIRY: '2s' }).jwt.expiryMs).toBe(2000);
    expect(() => loadConfig({ DATA_DIR: dataDir(), JWT_EXPIRY: 'soon' })).toThrow(ConfigError);
  });

  it('refuses in production: mocks, missing or short secrets, the sandbox bank', () => {
    const fails = (env: Record<string, string | undefined>, reason: RegExp) =>
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...PROD, ...env })).toThrow(reason);
    fails({ EID_MOCK: 'true' }, /EID_MOCK/);
    fails({ JWT_SECRET: undefined }, /JWT_SECRET/);
    fails({ JWT_SECRET: 'short' }, /JWT_SECRET/);
    fails({ EID_CLIENT_SECRET: undefined }, /EID_CLIENT_SECRET/);
    fails({ EID_CALLBACK_URL: undefined }, /EID_CALLBACK_URL/);
    fails({ OPEN_BANKING_PROVIDER: undefined }, /OPEN_BANKING_PROVIDER/);
    fails({ RECEIPT_ISSUER_NAME: undefined }, /RECEIPT_ISSUER_NAME/);
    fails({ RECEIPT_ISSUER_ORG_NUMBER: undefined }, /RECEIPT_ISSUER_ORG_NUMBER/);
    fails({ NATIONAL_ID_PEPPER: undefined }, /NATIONAL_ID_PEPPER is required in production/);
    fails({ NATIONAL_ID_PEPPER: 'short' }, /NATIONAL_ID_PEPPER/);
    fails({}, /sandbox is refused/);
  });

  it('names the receipt issuer: placeholder defaults outside production, the organisation number mod-11 checked', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).receiptIssuer).toEqual({
      name: 'Ledgerline Remittance AS',
      orgNumber: '999999999',
      address: 'Oslo, Norway',
      contact: 'support@ledgerline.example',
    });
    const set = loadConfig({
      DATA_DIR: dataDir(),
      RECEIPT_ISSUER_NAME: 'Eksempel Betaling AS',
      RECEIPT_ISSUER_ORG_NUMBER: '923 456 783',
      RECEIPT_ISSUER_ADDRESS: 'Karl Johans gate 1, 0154 Oslo',
      RECEIPT_ISSUER_CONTACT: '+47 22 00 00 00, hjelp@eksempel.no',
    }).receiptIssuer;
    expect(set).toEqual({
      name: 'Eksempel Betaling AS',
      orgNumber: '923456783',
      address: 'Karl Johans gate 1, 0154 Oslo',
      contact: '+47 22 00 00 00, hjelp@eksempel.no',
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), RECEIPT_ISSUER_ORG_NUMBER: '923456784' })).toThrow(
      /RECEIPT_ISSUER_ORG_NUMBER/,
    );
  });

  it('refuses weak production settings unless each is accepted by its own ALLOW_ variable (issue 33 item 7)', () => {
    const prod = (env: Record<string, string | undefined>) => () =>
      loadConfig({ DATA_DIR: dataDir(), ...PROD, ...env });
    for (const [env, optIn] of [
      [{ RATE_LIMITS: 'off' }, 'ALLOW_RATE_LIMITS_OFF'],
      [{ REMITTANCE_DATABASE_URL: undefined }, 'ALLOW_EMBEDDED_DATABASE'],
      [{ ALLOWED_ORIGINS: undefined }, 'ALLOW_LOCALHOST_ORIGINS'],
      [{ ALLOWED_ORIGINS: 'https://app.example.no,http://localhost:5173' }, 'ALLOW_LOCALHOST_ORIGINS'],
    ] as const) {
      expect(prod(env), optIn).toThrow(`set ${optIn}=true to accept it`);
      // Accepted, start-up goes on to the next check (here the sandbox bank production refuses).
      expect(prod({ ...env, [optIn]: 'true' }), optIn).toThrow(/sandbox is refused/);
    }
  });

  it('needs RS256 keys when JWT_ALGORITHM=RS256', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), JWT_ALGORITHM: 'RS256' })).toThrow(/JWT_PRIVATE_KEY/);
  });
});

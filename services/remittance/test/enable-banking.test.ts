import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { EnableBankingError } from '../src/modules/open-banking/enable-banking/client.js';
import { createEnableBankingProvider } from '../src/modules/open-banking/enable-banking/provider.js';
import { type EnableBankingMock, follow, startEnableBankingMock } from './enable-banking-mock.js';
import { buildTestApp, pathOf, signInWeb, web } from './helpers.js';

const APP_ID = 'c2b1a3d4-0000-4000-8000-000000000001';
const ASPSP = 'Mock Norsk Bank';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const CALLBACK = 'http://127.0.0.1:3001/api/open-banking/callback';

let mock: EnableBankingMock;
beforeAll(async () => {
  mock = await startEnableBankingMock({ appId: APP_ID, publicKey: keys.publicKey, aspspName: ASPSP });
});
afterAll(async () => mock?.close());

function adapter(
  overrides: {
    privateKeyPem?: string;
    appId?: string;
    timeoutMs?: number;
    aspsp?: { name: string; country: string } | null;
  } = {},
) {
  return createEnableBankingProvider({
    appId: overrides.appId ?? APP_ID,
    privateKeyPem: overrides.privateKeyPem ?? privateKeyPem,
    apiUrl: mock.url,
    aspsp: overrides.aspsp === undefined ? { name: ASPSP, country: 'NO' } : overrides.aspsp,
    timeoutMs: overrides.timeoutMs ?? 5000,
    consentDays: 90,
  });
}

/** Starts a consent, follows the bank's redirect as a browser would, and completes the callback. */
async function linked(eb = adapter()) {
  const started = await eb.createConsent({
    customerRef: 'user-1',
    scope: 'AISP+PISP',
    redirectUri: `${CALLBACK}?consentId=con_1`,
    state: 'state-1',
  });
  const back = new URL(await follow(started.redirectUrl));
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(back.searchParams.get('consentId')).toBe('con_1');
  expect(back.searchParams.get('state')).toBe('state-1');
  const done = await eb.completeConsent(started.externalConsentId, Object.fromEntries(back.searchParams));
  if (typeof done !== 'object') throw new Error('consent not approved');
  return { eb, sessionId: done.externalConsentId, authorizationId: started.externalConsentId };
}

async function rejection(p: Promise<unknown>): Promise<EnableBankingError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EnableBankingError);
  return err as EnableBankingError;
}

describe('Enable Banking adapter against a mock of its API (issue 30)', () => {
  it('signs every request with the application key (RS256, kid, iss, aud) and links the accounts with balances', async () => {
    const before = mock.calls.length;
    const { eb, sessionId, authorizationId } = await linked();
    expect(sessionId).not.toBe(authorizationId);
    const accounts = await eb.listAccounts(sessionId);
    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toMatchObject({
      bankName: ASPSP,
      name: 'Brukskonto',
      accountNumber: 'NO9386011117947',
      currency: 'NOK',
      balance: '12345.67', // the available (ITAV) balance, not the booked one
      isChecking: true,
    });
    expect(accounts[1]).toMatchObject({ name: 'Sparekonto', balance: '800.00', isChecking: false });
    // After the callback's cache, the accounts come from GET /sessions and /details.
    const again = await eb.listAccounts(sessionId);
    expect(again.map((a) => a.externalId).sort()).toEqual(accounts.map((a) => a.externalId).sort());
    expect(await eb.readBalance(sessionId, accounts[1].externalId)).toEqual({ amount: '800.00', currency: 'NOK' });

    const calls = mock.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path.replace(/[0-9a-f-]{36}/g, ':id')}`)).toEqual(
      expect.arrayContaining(['POST /auth', 'POST /sessions', 'GET /sessions/:id', 'GET /accounts/:id/balances']),
    );
    expect(calls.every((c) => c.verified)).toBe(true);
  });

  it("lists a country's banks for personal accounts (GET /aspsps), kept an hour, a failed read not kept", async () => {
    const eb = adapter();
    const listed = () => mock.calls.filter((c) => c.path === '/aspsps').length;
    mock.fail('GET', '/aspsps', 503, { code: 503, message: 'down', error: 'ASPSP_ERROR' });
    expect(await rejection(eb.listBanks('NO'))).toMatchObject({ reason: 'unavailable', status: 503 });
    const before = listed();
    const banks = await eb.listBanks('NO');
    // Norwegian banks only, personal ones only (not the business-only bank), by name in Norwegian order.
    expect(banks.map((b) => b.name)).toEqual(['DNB', ASPSP, 'SpareBank 1 Østlandet']);
    expect(banks[0]).toEqual({
      name: 'DNB',
      country: 'NO',
      logo: 'https://enablebanking.com/brands/NO/DNB/',
      bic: 'DNBANOKK',
      beta: false,
    });
    expect(banks[2]).toMatchObject({ beta: true, bic: null });
    expect(await eb.listBanks('no')).toEqual(banks);
    expect((await eb.listBanks('FI')).map((b) => b.name)).toEqual(['Nordea']);
    expect(listed() - before).toBe(2); // NO once (kept), FI once
  });

  it('starts a consent and a payment at the bank chosen; with no bank chosen and no default, refuses before calling', async () => {
    const eb = adapter({ aspsp: null });
    const started = await eb.createConsent({
      customerRef: 'u',
      scope: 'AISP+PISP',
      redirectUri: CALLBACK,
      state: 'chosen-1',
      bank: { name: 'DNB', country: 'NO' },
    });
    const params = Object.fromEntries(new URL(await follow(started.redirectUrl)).searchParams);
    const done = await eb.completeConsent(started.externalConsentId, params);
    if (typeof done !== 'object') throw new Error('consent not approved');
    expect((await eb.listAccounts(done.externalConsentId))[0].bankName).toBe('DNB');

    const order = {
      externalAccountId: 'acc',
      amount: '10',
      currency: 'NOK',
      creditorAccount: 'NO9386011117947',
      creditorName: 'Kari',
      reference: 'TX-B',
      endToEndId: 'e2e-bank-1',
    };
    await eb.initiatePayment(
      's',
      { ...order, bank: { name: 'DNB', country: 'NO' } },
      { redirectUri: CALLBACK, state: 'b1' },
    );
    expect(mock.paymentsFor('e2e-bank-1').map((x) => x.aspsp)).toEqual([{ name: 'DNB', country: 'NO' }]);

    const before = mock.calls.length;
    expect(
      await rejection(eb.createConsent({ customerRef: 'u', scope: 'AISP', redirectUri: CALLBACK, state: 'none' })),
    ).toMatchObject({ reason: 'refused', apiError: 'WRONG_ASPSP_PROVIDED' });
    expect(
      await rejection(
        eb.initiatePayment('s', { ...order, endToEndId: 'e2e-bank-2' }, { redirectUri: CALLBACK, state: 'b2' }),
      ),
    ).toMatchObject({ reason: 'refused' });
    expect(mock.calls.length).toBe(before);
  });

  it('is refused by the API with another key or application id, as unavailable (not a consent problem)', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    for (const eb of [adapter({ privateKeyPem: other }), adapter({ appId: 'someone-else' })]) {
      const err = await rejection(
        eb.createConsent({ customerRef: 'u', scope: 'AISP', redirectUri: CALLBACK, state: 's' }),
      );
      expect(err).toMatchObject({ reason: 'unavailable', status: 401, apiError: 'UNAUTHORIZED_ACCESS' });
    }
  });

  it('answers false when the user declines at the bank, and refuses a code used twice', async () => {
    const eb = adapter();
    const started = await eb.createConsent({ customerRef: 'u', scope: 'AISP', redirectUri: CALLBACK, state: 's2' });
    const back = new URL(await follow(started.redirectUrl, { decision: 'deny' }));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(await eb.completeConsent(started.externalConsentId, Object.fromEntries(back.searchParams))).toBe(false);

    const again = await eb.createConsent({ customerRef: 'u', scope: 'AISP', redirectUri: CALLBACK, state: 's3' });
    const params = Object.fromEntries(new URL(await follow(again.redirectUrl)).searchParams);
    await eb.completeConsent(again.externalConsentId, params);
    const err = await rejection(eb.completeConsent(again.externalConsentId, params));
    expect(err).toMatchObject({ reason: 'consent_invalid', apiError: 'WRONG_AUTHORIZATION_CODE' });
  });

  it('maps an expired or revoked session to consent_invalid, 5xx, 429 and a timeout to unavailable', async () => {
    const { eb, sessionId } = await linked();
    const [account] = await eb.listAccounts(sessionId);

    mock.fail('GET', '/accounts/', 503, { code: 503, message: 'ASPSP error', error: 'ASPSP_ERROR' });
    expect(await rejection(eb.readBalance(sessionId, account.externalId))).toMatchObject({
      reason: 'unavailable',
      status: 503,
    });
    mock.fail('GET', '/accounts/', 429, {
      code: 429,
      message: 'Too many requests',
      error: 'ASPSP_RATE_LIMIT_EXCEEDED',
    });
    expect(await rejection(eb.readBalance(sessionId, account.externalId))).toMatchObject({
      reason: 'unavailable',
      status: 429,
    });
    mock.fail('GET', '/accounts/', 200, { balances: [] }, 1500);
    const slow = adapter({ timeoutMs: 200 });
    expect(await rejection(slow.readBalance(sessionId, account.externalId))).toMatchObject({
      reason: 'unavailable',
      status: 0,
    });
    // The fault above was consumed by the slow call; the account reads again.
    expect((await eb.readBalance(sessionId, account.externalId)).amount).toBe('12345.67');

    mock.sessions.get(sessionId)!.status = 'EXPIRED';
    expect(await rejection(eb.readBalance(sessionId, account.externalId))).toMatchObject({
      reason: 'consent_invalid',
      apiError: 'EXPIRED_SESSION',
    });
    expect(await rejection(eb.listAccounts(sessionId))).toMatchObject({ reason: 'consent_invalid' });
    expect(await rejection(eb.readBalance(sessionId, 'no-such-account'))).toMatchObject({ reason: 'unknown_account' });
  });

  it('initiates a payment with our end-to-end id and the bank authorization redirect, and polls it to ACSC or RJCT with the reason', async () => {
    const eb = adapter();
    const order = {
      externalAccountId: 'acc',
      amount: '250.5',
      currency: 'NOK',
      creditorAccount: '1234 56 78903',
      creditorName: 'Ledgerline Client Funds',
      reference: 'TX-1',
      endToEndId: 'e2e-adapter-1',
    };
    const started = await eb.initiatePayment('s', order, { redirectUri: `${CALLBACK}?payment=1`, state: 'pay-1' });
    expect(started).toMatchObject({ status: 'received', bankStatus: 'RCVD' });
    expect(started.authorizationUrl).toContain('/bank/pay');
    expect(await eb.paymentStatus(started.paymentId)).toMatchObject({ status: 'received', bankStatus: 'RCVD' });
    const sent = mock.payments.get(started.paymentId)!.body as Record<string, any>;
    expect(sent.payment_request.credit_transfer_transaction[0]).toMatchObject({
      beneficiary: { creditor_account: { scheme_name: 'BBAN', identification: '12345678903' } },
      instructed_amount: { amount: '250.50', currency: 'NOK' },
      payment_id: { end_to_end_id: 'e2e-adapter-1' },
    });

    const back = new URL(await follow(started.authorizationUrl!));
    expect(back.searchParams.get('state')).toBe('pay-1');
    // Accepted (ACCP) at the first read after the authorization, settled (ACSC) at the next.
    expect(await eb.paymentStatus(started.paymentId)).toMatchObject({ status: 'pending', bankStatus: 'ACCP' });
    expect(await eb.paymentStatus(started.paymentId)).toMatchObject({ status: 'completed', bankStatus: 'ACSC' });

    const denied = await eb.initiatePayment(
      's',
      { ...order, endToEndId: 'e2e-2' },
      { redirectUri: CALLBACK, state: 'pay-2' },
    );
    await follow(denied.authorizationUrl!, { decision: 'deny' });
    expect(await eb.paymentStatus(denied.paymentId)).toMatchObject({
      status: 'rejected',
      bankStatus: 'RJCT',
      reason: 'DS02: Order cancelled by the PSU',
    });

    const toRejected = await eb.initiatePayment(
      's',
      { ...order, creditorAccount: 'NO9312340000', endToEndId: 'e2e-3' },
      { redirectUri: CALLBACK, state: 'p3' },
    );
    await follow(toRejected.authorizationUrl!);
    expect(await eb.paymentStatus(toRejected.paymentId)).toMatchObject({
      status: 'rejected',
      reason: 'AC04: Closed account number',
    });

    expect(await rejection(eb.paymentStatus('00000000-0000-4000-8000-000000000000'))).toMatchObject({
      reason: 'unknown_account',
      apiError: 'PAYMENT_NOT_FOUND',
    });
    // A refusal of the request itself is final (not retried); 5xx and a timeout are not.
    mock.fail('POST', '/payments', 422, { code: 422, message: 'bad creditor', error: 'WRONG_REQUEST_PARAMETERS' });
    expect(
      await rejection(
        eb.initiatePayment('s', { ...order, endToEndId: 'e2e-4' }, { redirectUri: CALLBACK, state: 'p4' }),
      ),
    ).toMatchObject({
      reason: 'refused',
      status: 422,
    });
    mock.fail('POST', '/payments', 503, { code: 503, message: 'ASPSP error', error: 'ASPSP_ERROR' });
    expect(
      await rejection(
        eb.initiatePayment('s', { ...order, endToEndId: 'e2e-5' }, { redirectUri: CALLBACK, state: 'p5' }),
      ),
    ).toMatchObject({
      reason: 'unavailable',
      status: 503,
    });
    expect(mock.paymentsFor('e2e-4')).toHaveLength(0);
  });
});

/** The service with Enable Banking pointed at the mock (no default bank unless a test adds one). */
const serviceEnv = () => ({
  OPEN_BANKING_PROVIDER: 'enablebanking',
  ENABLE_BANKING_APP_ID: APP_ID,
  ENABLE_BANKING_PRIVATE_KEY: privateKeyPem,
  ENABLE_BANKING_API_URL: mock.url,
});

describe('OPEN_BANKING_PROVIDER=enablebanking through the service routes', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    env = await buildTestApp({ ...serviceEnv(), ENABLE_BANKING_ASPSP: ASPSP });
  });
  afterAll(async () => env?.close());

  it('links the bank at the callback, refreshes a balance, marks it stale when the session expires, and revokes', async () => {
    const { cookie } = await signInWeb(env.app);
    const created = await env.app.inject({
      method: 'POST',
      url: '/api/open-banking/consents',
      ...web(cookie),
      payload: {},
    });
    expect(created.statusCode).toBe(201);
    const { consentId, redirectUrl } = created.json().data;
    expect(redirectUrl.startsWith(`${mock.url}/bank/authorize`)).toBe(true);
    // The sandbox bank's page does not exist with the real provider.
    expect(
      (await env.app.inject({ method: 'GET', url: '/api/open-banking/sandbox/authorize?consent=x' })).statusCode,
    ).toBe(404);

    const callback = await follow(redirectUrl);
    expect(new URL(callback).pathname).toBe('/api/open-banking/callback');
    const back = await env.app.inject({ method: 'GET', url: pathOf(callback) });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`/bank-accounts?consentId=${consentId}`);

    const list = (await env.app.inject({ method: 'GET', url: '/api/bank-accounts', ...web(cookie) })).json();
    expect(list.data).toHaveLength(2);
    expect(list.data[0]).toMatchObject({ bankName: ASPSP, balance: 12345.67, isPrimary: true, stale: false });
    expect(list.totalBalance).toBe(13145.67);

    // The session this callback created: the newest one at the mock.
    const session = [...mock.sessions.values()].at(-1)!;
    expect(session.accounts[0].iban).toBe(list.data[0].accountNumber);
    session.accounts[0].balance = '4321.10';
    const refreshed = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${list.data[0].id}/refresh`,
      ...web(cookie),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().data.balance).toBe(4321.1);

    session.status = 'EXPIRED';
    const stale = await env.app.inject({
      method: 'POST',
      url: `/api/bank-accounts/${list.data[0].id}/refresh`,
      ...web(cookie),
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toMatchObject({ data: { balance: 4321.1, stale: true } });
    expect(stale.json().warning).toMatch(/no longer accepts this consent/);
    expect(stale.json().data.reauthorizationRequired).toBe(true);

    session.status = 'AUTHORIZED';
    // Payments through the bank: test/enable-banking-payments.test.ts.
    const revoked = await env.app.inject({
      method: 'DELETE',
      url: `/api/open-banking/consents/${consentId}`,
      ...web(cookie),
    });
    expect(revoked.statusCode).toBe(200);
    expect(session.status).toBe('CLOSED'); // DELETE /sessions/{id} at the provider
  });

  it('answers 502 bank_unavailable when the aggregator fails to start the consent, recording nothing', async () => {
    const { cookie } = await signInWeb(env.app);
    const count = async () =>
      (await env.app.inject({ method: 'GET', url: '/api/open-banking/consents', ...web(cookie) })).json().data.length;
    const before = await count();
    mock.fail('POST', '/auth', 503, { code: 503, message: 'Service unavailable', error: 'ASPSP_ERROR' });
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/open-banking/consents',
      ...web(cookie),
      payload: {},
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('bank_unavailable');
    expect(await count()).toBe(before);
  });

  it('sends the user back with consent_failed (consent still pending) when the code cannot be exchanged', async () => {
    const { cookie } = await signInWeb(env.app);
    const created = await env.app.inject({
      method: 'POST',
      url: '/api/open-banking/consents',
      ...web(cookie),
      payload: {},
    });
    const { consentId, redirectUrl } = created.json().data;
    mock.fail('POST', '/sessions', 500, { code: 500, message: 'Internal error' });
    const back = await env.app.inject({ method: 'GET', url: pathOf(await follow(redirectUrl)) });
    expect(back.headers.location).toBe(`/bank-accounts?consentId=${consentId}&error=consent_failed`);
    const consents = (
      await env.app.inject({ method: 'GET', url: '/api/open-banking/consents', ...web(cookie) })
    ).json();
    expect(consents.data.find((c: { id: string }) => c.id === consentId).status).toBe('pending');
  });
});

describe('the bank chooser through the service routes (no default bank configured)', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    env = await buildTestApp(serviceEnv());
  });
  afterAll(async () => env?.close());

  it('lists the banks, requires a bank that is on the list, links the one chosen and names it on the consent', async () => {
    const { cookie } = await signInWeb(env.app);
    const get = (url: string) => env.app.inject({ method: 'GET', url, ...web(cookie) });
    const consentsNow = async () =>
      (await get('/api/open-banking/consents')).json().data as Array<Record<string, unknown>>;
    const banks = await get('/api/open-banking/banks');
    expect(banks.statusCode).toBe(200);
    expect(banks.json().data.map((b: { name: string }) => b.name)).toEqual(['DNB', ASPSP, 'SpareBank 1 Østlandet']);
    expect((await get('/api/open-banking/banks?country=fi')).json().data).toEqual([
      {
        name: 'Nordea',
        country: 'FI',
        logo: 'https://enablebanking.com/brands/FI/Nordea/',
        bic: 'NDEAFIHH',
        beta: false,
      },
    ]);
    expect((await get('/api/open-banking/banks?country=NOR')).json()).toMatchObject({
      error: 'bad_request',
      details: [{ field: 'country' }],
    });
    expect((await env.app.inject({ method: 'GET', url: '/api/open-banking/banks' })).statusCode).toBe(401);

    const post = (payload: unknown) =>
      env.app.inject({ method: 'POST', url: '/api/open-banking/consents', ...web(cookie), payload: payload as object });
    // No bank and no default: 422 naming the field; a bank not on the list: 422; nothing recorded either way.
    const none = await post({});
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'bank' }] });
    const unknown = await post({ bank: { name: 'Bedriftsbanken', country: 'NO' } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([{ field: 'bank.name', message: expect.stringMatching(/not a bank/) }]);
    expect(await consentsNow()).toHaveLength(0);

    const created = await post({ bank: { name: 'sparebank 1 østlandet', country: 'no' } });
    expect(created.statusCode, created.body).toBe(201);
    const back = await env.app.inject({ method: 'GET', url: pathOf(await follow(created.json().data.redirectUrl)) });
    expect(back.statusCode).toBe(302);
    expect(await consentsNow()).toMatchObject([
      { status: 'active', bank: { name: 'SpareBank 1 Østlandet', country: 'NO' } },
    ]);
    const accounts = (await get('/api/bank-accounts')).json().data;
    expect(accounts.map((a: { bankName: string }) => a.bankName)).toEqual([
      'SpareBank 1 Østlandet',
      'SpareBank 1 Østlandet',
    ]);
  });

  it('answers 502 bank_unavailable when the aggregator cannot list its banks', async () => {
    const { cookie } = await signInWeb(env.app);
    // The list may be kept from the test before: the country not asked yet.
    mock.fail('GET', '/aspsps', 503, { code: 503, message: 'down', error: 'ASPSP_ERROR' });
    const res = await env.app.inject({ method: 'GET', url: '/api/open-banking/banks?country=SE', ...web(cookie) });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('bank_unavailable');
  });
});

describe('production configuration with Enable Banking', () => {
  const long = (c: string) => c.repeat(40);
  const dataDir = () => mkdtempSync(join(tmpdir(), 'remittance-eb-config-'));
  const keyFile = join(dataDir(), 'eb.pem');
  writeFileSync(keyFile, privateKeyPem);
  const PROD = {
    NODE_ENV: 'production',
    JWT_SECRET: long('s'),
    EID_MOCK: 'false',
    EID_ISSUER: 'https://login.example.no',
    EID_CLIENT_ID: 'client',
    EID_CLIENT_SECRET: long('c'),
    EID_CALLBACK_URL: 'https://app.example.no/api/auth/eid/callback',
    EID_CALLBACK_URL_MOBILE: 'app://auth/callback',
    RECEIPT_ISSUER_NAME: 'Eksempel Betaling AS',
    RECEIPT_ISSUER_ORG_NUMBER: '923 456 783',
    NATIONAL_ID_PEPPER: long('p'),
    REMITTANCE_DATABASE_URL: 'postgres://app@db.example/remittance',
    ALLOWED_ORIGINS: 'https://app.example.no',
    REMITTANCE_PUBLIC_URL: 'https://app.example.no',
    OPEN_BANKING_PROVIDER: 'enablebanking',
    ENABLE_BANKING_APP_ID: APP_ID,
    ENABLE_BANKING_PRIVATE_KEY_FILE: keyFile,
    ENABLE_BANKING_ASPSP: 'DNB',
  };
  const load = (env: Record<string, string | undefined>) => loadConfig({ DATA_DIR: dataDir(), ...PROD, ...env });

  it('starts with the provider and its secrets: public API URL by default, callback from REMITTANCE_PUBLIC_URL', () => {
    const c = load({});
    expect(c.openBanking.provider).toBe('enablebanking');
    expect(c.openBanking.enableBanking).toMatchObject({
      appId: APP_ID,
      apiUrl: 'https://api.enablebanking.com',
      redirectUrl: 'https://app.example.no/api/open-banking/callback',
      aspsp: { name: 'DNB', country: 'NO' },
    });
    expect(c.openBanking.enableBanking?.privateKeyPem).toContain('PRIVATE KEY');
    const inline = load({
      ENABLE_BANKING_PRIVATE_KEY_FILE: undefined,
      ENABLE_BANKING_PRIVATE_KEY: privateKeyPem.replace(/\n/g, '\\n'),
    });
    expect(inline.openBanking.enableBanking?.privateKeyPem).toBe(privateKeyPem);
  });

  it('refuses without each secret, naming it in one line; and refuses the sandbox', () => {
    const message = (env: Record<string, string | undefined>) => {
      try {
        load(env);
      } catch (err) {
        return (err as Error).message;
      }
      return 'started';
    };
    expect(message({ ENABLE_BANKING_APP_ID: undefined })).toMatch(/^ENABLE_BANKING_APP_ID is required[^\n]*$/);
    expect(message({ ENABLE_BANKING_PRIVATE_KEY_FILE: undefined })).toMatch(
      /^ENABLE_BANKING_PRIVATE_KEY[^\n]* is required/,
    );
    expect(message({ ENABLE_BANKING_PRIVATE_KEY_FILE: '/nonexistent/eb.pem' })).toMatch(
      /ENABLE_BANKING_PRIVATE_KEY_FILE cannot be read/,
    );
    // The default bank is optional (the user chooses one from GET /open-banking/banks); its country is checked.
    expect(message({ ENABLE_BANKING_ASPSP: undefined })).toBe('started');
    expect(load({ ENABLE_BANKING_ASPSP: undefined }).openBanking.enableBanking?.aspsp).toBeNull();
    expect(message({ ENABLE_BANKING_ASPSP_COUNTRY: 'Norway' })).toMatch(/^ENABLE_BANKING_ASPSP_COUNTRY must be/);
    expect(message({ OPEN_BANKING_PROVIDER: 'sandbox' })).toMatch(/sandbox is refused/);
    expect(message({ OPEN_BANKING_PROVIDER: 'tink' })).toMatch(
      /OPEN_BANKING_PROVIDER must be sandbox or enablebanking/,
    );
  });
});

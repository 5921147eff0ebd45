import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, freshIp, registerOrg, type Session, type TestApp } from './helpers.js';

// Issue 25 item 6 (A18): the detail messages of the error envelope are in the request's language
// like its message (Accept-Language before sign-in, the organization's language after); field keys
// and codes stay English. Every localized detail must differ from the English one (the same request
// with Accept-Language en before sign-in; the service's English text after, since an organization
// speaks sr, bs or hr) and read as no English sentence.
let h: TestApp;
const orgs: Partial<Record<'sr' | 'hr', Session>> = {};

beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  orgs.sr = await registerOrg(h.app, { country: 'RS', baseCurrency: 'RSD', language: 'sr' });
  orgs.hr = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
}, 120_000);
afterAll(() => h?.close());

type Details = Record<string, string[]>;
const ENGLISH =
  /\b(must|is|not|the|be|only|of|already|required|cannot|has|have|an?|at|least|most|between|before|after)\b/i;

async function errorOf(opts: InjectOptions): Promise<{ status: number; code: string; details: Details }> {
  const res = await h.app.inject({ remoteAddress: freshIp(), ...opts });
  const body = res.json();
  return { status: res.statusCode, code: body.error?.code, details: body.error?.details ?? {} };
}

/** The same failure in `lang` and in English: same status, code and fields, no English message. */
function expectLocalized(
  local: Awaited<ReturnType<typeof errorOf>>,
  english: { status: number; code: string; details: Details },
) {
  expect(local.status).toBe(english.status);
  expect(local.code).toBe(english.code);
  expect(Object.keys(local.details).sort()).toEqual(Object.keys(english.details).sort());
  expect(Object.keys(english.details).length).toBeGreaterThan(0);
  for (const [field, messages] of Object.entries(english.details)) {
    messages.forEach((message, i) => {
      const translated = local.details[field][i];
      expect(translated, `${field}: ${message}`).not.toBe(message);
      expect(translated, `${field}: ${translated}`).not.toMatch(ENGLISH);
    });
    for (const m of messages) expect(m, `${field} in English`).toMatch(ENGLISH);
  }
}

describe('error details in the request’s language', () => {
  it('a validation error before sign-in follows Accept-Language (sr, hr)', async () => {
    const payload = {
      organizationName: '',
      country: 'XX',
      baseCurrency: 'RSD',
      language: 'sr',
      email: 'not-an-email',
      password: 'x'.repeat(200),
    };
    const request = (lang: string) =>
      errorOf({ method: 'POST', url: '/api/v1/auth/register', payload, headers: { 'accept-language': lang } });
    const english = await request('en');
    expect(english.status).toBe(422);
    expect(Object.keys(english.details)).toEqual(expect.arrayContaining(['email', 'fullName']));
    for (const lang of ['sr', 'hr']) expectLocalized(await request(lang), english);
  });

  it('a tax number refused by the contacts service is in the organization’s language (sr, hr)', async () => {
    const request = (org: Session, country: string) =>
      errorOf(
        authed(org.token, {
          method: 'POST',
          url: '/api/v1/contacts',
          payload: { type: 'customer', name: 'Kupac', country, vatNumber: '12345678901' },
        }),
      );
    const oib = {
      status: 422,
      code: 'SVC-9003',
      details: {
        vatNumber: ['must be a valid Croatian OIB (11 digits with a correct check digit, "HR" prefix optional)'],
      },
    };
    const pib = {
      status: 422,
      code: 'SVC-9003',
      details: {
        vatNumber: ['must be a valid Serbian PIB (9 digits with a correct check digit, "RS" prefix optional)'],
      },
    };
    for (const org of [orgs.sr!, orgs.hr!]) {
      expectLocalized(await request(org, 'HR'), oib);
      expectLocalized(await request(org, 'RS'), pib);
    }
  });

  it('a report period the reports service refuses is in the organization’s language (sr, hr)', async () => {
    const english = { status: 422, code: 'SVC-6003', details: { from: ['must not be after to'] } };
    for (const org of [orgs.sr!, orgs.hr!]) {
      const local = await errorOf(
        authed(org.token, { method: 'GET', url: '/api/v1/reports/profit-loss?from=2026-05-01&to=2026-04-01' }),
      );
      expectLocalized(local, english);
    }
  });

  it('a manual posting to one account on both sides is refused in the organization’s language (sr, hr)', async () => {
    const request = async (org: Session) => {
      const accounts = (await h.app.inject(authed(org.token, { method: 'GET', url: '/api/v1/accounts' }))).json();
      const account = (accounts.data ?? accounts)[0].id as string;
      return errorOf(
        authed(org.token, {
          method: 'POST',
          url: '/api/v1/transactions',
          payload: {
            transactionDate: '2026-03-10',
            description: 'Test',
            debitAccountId: account,
            creditAccountId: account,
            amount: 10,
          },
        }),
      );
    };
    const english = {
      status: 422,
      code: 'SVC-9003',
      details: { creditAccountId: ['must differ from debitAccountId'] },
    };
    expectLocalized(await request(orgs.sr!), english);
    expectLocalized(await request(orgs.hr!), english);
  });
});

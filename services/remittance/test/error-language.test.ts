import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signInMobile } from './helpers.js';

// Issue 25 item 6 for remittance: its error messages and details are English whatever the
// request's Accept-Language or the user's settings language (docs/decisions.md, "Remittance error
// texts stay English"); the apps show their own text by `error` code and `details[].field`.
let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(() => env?.close());

describe('remittance error texts', () => {
  it('are the same English texts for every Accept-Language and settings language, field names unchanged', async () => {
    const { token } = await signInMobile(env.app);
    const auth = bearer(token);
    const bad = { name: '<b>', country: 'RS', currency: 'RSD', bankAccount: 'RS00 1234' };
    const answer = async (lang: string) => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/recipients',
        payload: bad,
        headers: { ...auth.headers, 'accept-language': lang },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const english = await answer('en');
    expect(english.status).toBe(422);
    expect(english.body.details.map((d: { field: string }) => d.field)).toContain('name');
    for (const language of ['nb', 'bs', 'sq']) {
      const set = await env.app.inject({ method: 'PATCH', url: '/v1/settings', ...auth, payload: { language } });
      expect(set.statusCode).toBe(200);
      for (const lang of ['nb', 'bs', 'sr', 'hr', 'en']) expect(await answer(lang)).toEqual(english);
    }
  });
});

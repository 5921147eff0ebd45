import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPid, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
let cookie: string;
let token: string;

beforeAll(async () => {
  env = await buildTestApp();
  cookie = (await signInWeb(env.app, { pid: nextPid() })).cookie;
  token = (await signInMobile(env.app, { pid: nextPid() })).token;
});
afterAll(async () => env?.close());

const RS_IBAN = 'RS35260005601001611379';
const surfaces = () =>
  [
    ['/api', web(cookie)],
    ['/v1', bearer(token)],
  ] as const;

describe('recipients (R10)', () => {
  it('creates a recipient on both surfaces and shows only the last four characters of the account', async () => {
    for (const [prefix, auth] of surfaces()) {
      const res = await env.app.inject({
        method: 'POST',
        url: `${prefix}/recipients`,
        ...auth,
        payload: {
          name: '  Marko   Marković ',
          country: 'RS',
          currency: 'RSD',
          bankAccount: 'rs35 2600 0560 1001 6113 79',
          bankName: 'Banka Intesa',
        },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json().data;
      expect(body).toEqual({
        id: expect.stringMatching(/^rcp_/),
        name: 'Marko Marković',
        country: 'RS',
        currency: 'RSD',
        bankAccount: `${'*'.repeat(RS_IBAN.length - 4)}1379`,
        bankName: 'Banka Intesa',
        createdAt: expect.any(String),
      });
      const row = await env.db.system
        .selectFrom('recipients')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      expect(row.bank_account).toBe(RS_IBAN);
    }
  });

  it('accepts every corridor of R10 with an IBAN of the country', async () => {
    const cases = [
      ['RS', 'EUR', RS_IBAN],
      ['BA', 'BAM', 'BA391290079401028494'],
      ['BA', 'EUR', 'BA391290079401028494'],
      ['PL', 'PLN', 'PL61109010140000071219812874'],
      ['PK', 'PKR', 'PK36SCBL0000001123456702'],
      ['TR', 'TRY', 'TR330006100519786457841326'],
      ['TR', 'EUR', 'TR330006100519786457841326'],
    ];
    for (const [country, currency, bankAccount] of cases) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/recipients',
        ...bearer(token),
        payload: { name: 'Ana Kovač', country, currency, bankAccount },
      });
      expect(res.statusCode, `${country} ${currency}`).toBe(201);
      expect(res.json().data.bankName).toBeNull();
    }
  });

  it('refuses a currency outside the corridor with 422 validation_error', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...web(cookie),
      payload: { name: 'Ali Khan', country: 'PK', currency: 'EUR', bankAccount: 'PK36SCBL0000001123456702' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'currency' }] });
  });

  it('refuses an IBAN with a wrong checksum and an IBAN of another country with 422', async () => {
    const bad = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...web(cookie),
      payload: { name: 'Ana', country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611378' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0].field).toBe('bankAccount');
    const other = await env.app.inject({
      method: 'POST',
      url: '/v1/recipients',
      ...bearer(token),
      payload: { name: 'Ana', country: 'RS', currency: 'RSD', bankAccount: 'BA391290079401028494' },
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().details[0]).toMatchObject({ field: 'bankAccount', message: expect.stringContaining('RS') });
  });

  it('refuses names without a letter or with markup (422) and unknown countries (400)', async () => {
    for (const name of ['1234', '<script>alert(1)</script>', '', 'x'.repeat(101)]) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/recipients',
        ...web(cookie),
        payload: { name, country: 'RS', currency: 'RSD', bankAccount: RS_IBAN },
      });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().error).toBe('validation_error');
    }
    const country = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...web(cookie),
      payload: { name: 'Ana', country: 'DE', currency: 'EUR', bankAccount: RS_IBAN },
    });
    expect(country.statusCode).toBe(400);
    expect(country.json().error).toBe('bad_request');
    const missing = await env.app.inject({
      method: 'POST',
      url: '/v1/recipients',
      ...bearer(token),
      payload: { name: 'Ana' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('cuts bankName to 200 characters', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...web(cookie),
      payload: { name: 'Ana', country: 'RS', currency: 'RSD', bankAccount: RS_IBAN, bankName: 'B'.repeat(250) },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.bankName).toHaveLength(200);
  });

  it("lists the user's own recipients, newest first, paginated (limit 1-50)", async () => {
    const { cookie: own } = await signInWeb(env.app, { pid: nextPid() });
    for (const name of ['First', 'Second', 'Third']) {
      await env.app.inject({
        method: 'POST',
        url: '/api/recipients',
        ...web(own),
        payload: { name, country: 'PL', currency: 'PLN', bankAccount: 'PL61109010140000071219812874' },
      });
    }
    const page1 = await env.app.inject({ method: 'GET', url: '/api/recipients?limit=2', ...web(own) });
    expect(page1.statusCode).toBe(200);
    expect(page1.json().pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.json().data.map((r: { name: string }) => r.name)).toEqual(['Third', 'Second']);
    const page2 = await env.app.inject({ method: 'GET', url: '/api/recipients?limit=2&page=2', ...web(own) });
    expect(page2.json().data.map((r: { name: string }) => r.name)).toEqual(['First']);
    expect(page2.json().data[0].bankAccount).toMatch(/^\*+2874$/);
    for (const q of ['limit=51', 'limit=0', 'page=0', 'page=x']) {
      const res = await env.app.inject({ method: 'GET', url: `/api/recipients?${q}`, ...web(own) });
      expect(res.statusCode, q).toBe(400);
    }
  });

  it("deletes the user's own recipient (204) and answers 404 for another user's or a deleted one", async () => {
    const created = await env.app.inject({
      method: 'POST',
      url: '/api/recipients',
      ...web(cookie),
      payload: { name: 'Gone', country: 'TR', currency: 'TRY', bankAccount: 'TR330006100519786457841326' },
    });
    const id = created.json().data.id;
    const foreign = await env.app.inject({ method: 'DELETE', url: `/v1/recipients/${id}`, ...bearer(token) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('not_found');
    const del = await env.app.inject({ method: 'DELETE', url: `/api/recipients/${id}`, ...web(cookie) });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const again = await env.app.inject({ method: 'DELETE', url: `/api/recipients/${id}`, ...web(cookie) });
    expect(again.statusCode).toBe(404);
    const list = (await env.app.inject({ method: 'GET', url: '/api/recipients?limit=50', ...web(cookie) })).json().data;
    expect(list.map((r: { id: string }) => r.id)).not.toContain(id);
  });
});

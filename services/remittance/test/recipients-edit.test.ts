import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, linkSandboxBank, nextPid, signInMobile, signInWeb, web } from './helpers.js';

// Issue 29: PATCH /recipients/:id on both surfaces: the fields given change, checked as on
// creation against the recipient as it will stand; another user's or a removed recipient is 404;
// past transactions keep what they were made with (name, country, currency, account).
let env: Awaited<ReturnType<typeof buildTestApp>>;
let cookie: string;
let token: string;

const RS_IBAN = 'RS35260005601001611379';
const BA_IBAN = 'BA391290079401028494';
const BA_IBAN_2 = 'BA391990440001200279';
const PL_IBAN = 'PL61109010140000071219812874';

beforeAll(async () => {
  env = await buildTestApp({ SANDBOX_SETTLEMENT_SECONDS: '0' });
  cookie = (await signInWeb(env.app, { pid: nextPid() })).cookie;
  token = (await signInMobile(env.app, { pid: nextPid() })).token;
});
afterAll(async () => env?.close());

async function create(auth: ReturnType<typeof web> | ReturnType<typeof bearer>, prefix = '/api', payload = {}) {
  const res = await env.app.inject({
    method: 'POST',
    url: `${prefix}/recipients`,
    ...auth,
    payload: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: RS_IBAN, ...payload },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; createdAt: string };
}

const stored = (id: string) =>
  env.db.system.selectFrom('recipients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('PATCH /recipients/:id', () => {
  it('changes only the fields given, on both surfaces, and answers the recipient masked', async () => {
    for (const [prefix, auth] of [
      ['/api', web(cookie)],
      ['/v1', bearer(token)],
    ] as const) {
      const r = await create(auth, prefix, { bankName: 'Banka Intesa' });
      const res = await env.app.inject({
        method: 'PATCH',
        url: `${prefix}/recipients/${r.id}`,
        ...auth,
        payload: { name: '  Marko   Petrović ', currency: 'EUR' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        id: r.id,
        name: 'Marko Petrović',
        country: 'RS',
        currency: 'EUR',
        bankAccount: `${'*'.repeat(RS_IBAN.length - 4)}1379`,
        bankName: 'Banka Intesa',
        createdAt: r.createdAt,
      });
      const cleared = await env.app.inject({
        method: 'PATCH',
        url: `${prefix}/recipients/${r.id}`,
        ...auth,
        payload: { bankName: null },
      });
      expect(cleared.json().data.bankName).toBeNull();
      expect((await stored(r.id)).bank_account).toBe(RS_IBAN);
    }
  });

  it('moves a recipient to another corridor with an IBAN of the new country', async () => {
    const r = await create(web(cookie));
    const res = await env.app.inject({
      method: 'PATCH',
      url: `/api/recipients/${r.id}`,
      ...web(cookie),
      payload: { country: 'PL', currency: 'PLN', bankAccount: 'pl61 1090 1014 0000 0712 1981 2874' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      country: 'PL',
      currency: 'PLN',
      bankAccount: expect.stringMatching(/2874$/),
    });
    expect(await stored(r.id)).toMatchObject({ country: 'PL', currency: 'PLN', bank_account: PL_IBAN });
  });

  it('checks the recipient as it will stand (422) and changes nothing when it refuses', async () => {
    const r = await create(web(cookie));
    const before = await stored(r.id);
    const cases: [Record<string, unknown>, string][] = [
      // A new country with the old IBAN (of RS).
      [{ country: 'PL', currency: 'PLN' }, 'bankAccount'],
      // A currency outside the (unchanged) corridor.
      [{ currency: 'PKR' }, 'currency'],
      // A new country whose corridor lacks the old currency.
      [{ country: 'PK', bankAccount: 'PK36SCBL0000001123456702' }, 'currency'],
      [{ bankAccount: 'RS35260005601001611378' }, 'bankAccount'],
      [{ bankAccount: BA_IBAN }, 'bankAccount'],
      [{ name: '<b>x</b>' }, 'name'],
      [{ name: '1234' }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const res = await env.app.inject({ method: 'PATCH', url: `/api/recipients/${r.id}`, ...web(cookie), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation_error', details: [{ field }] });
    }
    const nothing = await env.app.inject({
      method: 'PATCH',
      url: `/api/recipients/${r.id}`,
      ...web(cookie),
      payload: {},
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error).toBe('bad_request');
    const badType = await env.app.inject({
      method: 'PATCH',
      url: `/api/recipients/${r.id}`,
      ...web(cookie),
      payload: { country: 'DE' },
    });
    expect(badType.statusCode).toBe(400);
    expect(await stored(r.id)).toEqual(before);
  });

  it("answers 404 for another user's, a removed or an unknown recipient, and leaves the other user's as it was", async () => {
    const mine = await create(web(cookie));
    const before = await stored(mine.id);
    const foreign = await env.app.inject({
      method: 'PATCH',
      url: `/v1/recipients/${mine.id}`,
      ...bearer(token),
      payload: { name: 'Taken Over' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('not_found');
    expect(await stored(mine.id)).toEqual(before);
    await env.app.inject({ method: 'DELETE', url: `/api/recipients/${mine.id}`, ...web(cookie) });
    const removed = await env.app.inject({
      method: 'PATCH',
      url: `/api/recipients/${mine.id}`,
      ...web(cookie),
      payload: { name: 'Back Again' },
    });
    expect(removed.statusCode).toBe(404);
    const unknown = await env.app.inject({
      method: 'PATCH',
      url: '/api/recipients/rcp_unknown',
      ...web(cookie),
      payload: { name: 'Nobody' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a cookie edit without an allowed Origin (R4)', async () => {
    const r = await create(web(cookie));
    const res = await env.app.inject({
      method: 'PATCH',
      url: `/api/recipients/${r.id}`,
      cookies: { app_token: cookie },
      payload: { name: 'Forged' },
    });
    expect(res.statusCode).toBe(403);
    expect((await stored(r.id)).name).toBe('Marko Marković');
  });

  it('two edits at once both apply, one after the other', async () => {
    const r = await create(web(cookie));
    const [a, b] = await Promise.all([
      env.app.inject({ method: 'PATCH', url: `/api/recipients/${r.id}`, ...web(cookie), payload: { name: 'Ana' } }),
      env.app.inject({
        method: 'PATCH',
        url: `/api/recipients/${r.id}`,
        ...web(cookie),
        payload: { bankName: 'Komercijalna banka' },
      }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await stored(r.id)).toMatchObject({ name: 'Ana', bank_name: 'Komercijalna banka' });
  });
});

describe('past transactions after an edit', () => {
  it('keep the name, country, currency and account they were paid with; new ones use the edited recipient', async () => {
    const auth = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    await linkSandboxBank(env.app, auth);
    const r = await create(auth, '/api', { name: 'Ana Kovač', country: 'BA', currency: 'BAM', bankAccount: BA_IBAN });
    const paid = await env.app.inject({
      method: 'POST',
      url: '/api/transactions/remittance',
      ...auth,
      payload: { recipientId: r.id, amount: 200 },
    });
    expect(paid.statusCode).toBe(201);
    const oldId = paid.json().data.id;
    const edit = await env.app.inject({
      method: 'PATCH',
      url: `/api/recipients/${r.id}`,
      ...auth,
      payload: { name: 'Ana Hodžić', currency: 'EUR', bankAccount: BA_IBAN_2 },
    });
    expect(edit.statusCode).toBe(200);

    const detail = (await env.app.inject({ method: 'GET', url: `/api/transactions/${oldId}`, ...auth })).json().data;
    expect(detail).toMatchObject({ recipientName: 'Ana Kovač', recipientCountry: 'BA', receiveCurrency: 'BAM' });
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await env.app.inject({ method: 'GET', url: `/api/transactions/${oldId}/receipt.pdf`, ...auth });
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload), useSystemFonts: false }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Ana Kovač');
    expect(text).toContain('8494');
    expect(text).not.toContain('0279');

    const next = await env.app.inject({
      method: 'POST',
      url: '/api/transactions/remittance',
      ...auth,
      payload: { recipientId: r.id, amount: 200 },
    });
    expect(next.json().data).toMatchObject({ recipientName: 'Ana Hodžić', receiveCurrency: 'EUR' });
    const rows = await env.db.system
      .selectFrom('transactions')
      .select(['id', 'recipient_account'])
      .where('recipient_id', '=', r.id)
      .execute();
    expect(Object.fromEntries(rows.map((t) => [t.id, t.recipient_account]))).toEqual({
      [oldId]: BA_IBAN,
      [next.json().data.id]: BA_IBAN_2,
    });
  });
});

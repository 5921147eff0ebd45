import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPid, signInMobile, signInWeb, web } from './helpers.js';

type Env = Awaited<ReturnType<typeof buildTestApp>>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const ALL_ON = {
  FEATURE_CARDS: 'true',
  FEATURE_PHYSICAL_CARDS: 'true',
  FEATURE_CARD_PIN: 'true',
  FEATURE_SPENDING_LIMITS: 'true',
  BCRYPT_COST: '4',
};

let env: Env;
beforeAll(async () => {
  env = await buildTestApp(ALL_ON);
});
afterAll(async () => env?.close());

/** A user signed in on both surfaces of the given app. */
async function user(e: Env = env) {
  const pid = nextPid();
  const { cookie } = await signInWeb(e.app, { pid });
  const { token, user } = await signInMobile(e.app, { pid });
  const auth = (surface: 'api' | 'v1') => (surface === 'api' ? web(cookie) : bearer(token));
  const call = (surface: 'api' | 'v1', method: Method, path: string, payload?: object) =>
    e.app.inject({ method, url: `/${surface}${path}`, ...auth(surface), ...(payload ? { payload } : {}) });
  return { id: user.id as string, call };
}

const CARD_ROUTES: Array<[Method, string, object?]> = [
  ['GET', '/cards'],
  ['POST', '/cards', {}],
  ['GET', '/cards/crd_x'],
  ['PATCH', '/cards/crd_x', { status: 'frozen' }],
  ['DELETE', '/cards/crd_x'],
  ['POST', '/cards/crd_x/physical', { address: 'Storgata 1, 0155 Oslo' }],
  ['POST', '/cards/crd_x/pin', { pin: '1234' }],
  ['GET', '/cards/crd_x/limits'],
  ['PUT', '/cards/crd_x/limits', { limitType: 'daily', amount: 100 }],
];

describe('feature flags (R14)', () => {
  it('answers 404 not_found on every card route of both surfaces while FEATURE_CARDS is off (the default)', async () => {
    const off = await buildTestApp({});
    try {
      const u = await user(off);
      for (const surface of ['api', 'v1'] as const) {
        for (const [method, path, payload] of CARD_ROUTES) {
          const res = await u.call(surface, method, path, payload);
          expect(res.statusCode, `${method} /${surface}${path}`).toBe(404);
          expect(res.json().error).toBe('not_found');
        }
      }
      expect(off.app.remitRoutes.some((r) => r.url.includes('/cards'))).toBe(false);
    } finally {
      await off.close();
    }
  }, 90_000);

  it('keeps each sub-feature 404 while its own flag is off', async () => {
    const basic = await buildTestApp({ FEATURE_CARDS: 'true' });
    try {
      const u = await user(basic);
      for (const surface of ['api', 'v1'] as const) {
        const card = (await u.call(surface, 'POST', '/cards', {})).json().data;
        expect(card.type).toBe('virtual');
        for (const [method, path, payload] of [
          ['POST', `/cards/${card.id}/physical`, { address: 'Storgata 1, 0155 Oslo' }],
          ['POST', `/cards/${card.id}/pin`, { pin: '1234' }],
          ['GET', `/cards/${card.id}/limits`],
          ['PUT', `/cards/${card.id}/limits`, { limitType: 'daily', amount: 100 }],
        ] as Array<[Method, string, object?]>) {
          expect((await u.call(surface, method, path, payload)).statusCode, `${method} ${path}`).toBe(404);
        }
        // A physical card is part of the physical-cards feature.
        expect((await u.call(surface, 'POST', '/cards', { type: 'physical' })).statusCode).toBe(404);
      }
    } finally {
      await basic.close();
    }
  }, 90_000);

  it('ignores the sub-feature flags while FEATURE_CARDS is off', async () => {
    const subOnly = await buildTestApp({
      FEATURE_PHYSICAL_CARDS: 'true',
      FEATURE_CARD_PIN: 'true',
      FEATURE_SPENDING_LIMITS: 'true',
    });
    try {
      const u = await user(subOnly);
      expect((await u.call('v1', 'POST', '/cards/crd_x/pin', { pin: '1234' })).statusCode).toBe(404);
      expect((await u.call('v1', 'GET', '/cards')).statusCode).toBe(404);
    } finally {
      await subOnly.close();
    }
  }, 90_000);

  it("requires a session for every card route while on (401 without a token or with the other surface's token) and an allowed Origin for cookie writes (403)", async () => {
    const cookieOf = (await signInWeb(env.app, { pid: nextPid() })).cookie;
    for (const [method, path, payload] of CARD_ROUTES) {
      for (const surface of ['api', 'v1'] as const) {
        const none = await env.app.inject({
          method,
          url: `/${surface}${path}`,
          headers: { origin: 'http://127.0.0.1:3001' },
          ...(payload ? { payload } : {}),
        });
        expect(none.statusCode, `${method} /${surface}${path}`).toBe(401);
      }
      const crossed = await env.app.inject({
        method,
        url: `/v1${path}`,
        headers: { authorization: `Bearer ${cookieOf}` },
      });
      expect(crossed.statusCode).toBe(401);
      if (method !== 'GET') {
        const noOrigin = await env.app.inject({
          method,
          url: `/api${path}`,
          cookies: { app_token: cookieOf },
          ...(payload ? { payload } : {}),
        });
        expect(noOrigin.statusCode, `${method} /api${path} without Origin`).toBe(403);
      }
    }
  });
});

describe('cards', () => {
  for (const surface of ['api', 'v1'] as const) {
    it(`creates a virtual card by default and a physical one on request, both with masked number and hidden code (${surface})`, async () => {
      const u = await user();
      const virtual = await u.call(surface, 'POST', '/cards');
      expect(virtual.statusCode).toBe(201);
      const card = virtual.json().data;
      expect(card).toMatchObject({ type: 'virtual', status: 'active', securityCode: '---' });
      expect(card.id).toMatch(/^crd_/);
      expect(card.maskedNumber).toMatch(/^---- ---- ---- \d{4}$/);
      expect(card.expiryMonth).toBeGreaterThanOrEqual(1);
      expect(card.expiryYear).toBe(new Date().getUTCFullYear() + 3);
      expect(Object.keys(card).sort()).toEqual([
        'createdAt',
        'expiryMonth',
        'expiryYear',
        'id',
        'maskedNumber',
        'securityCode',
        'status',
        'type',
      ]);

      const physical = await u.call(surface, 'POST', '/cards', { type: 'physical' });
      expect(physical.statusCode).toBe(201);
      expect(physical.json().data.type).toBe('physical');

      const read = await u.call(surface, 'GET', `/cards/${card.id}`);
      expect(read.json().data).toEqual(card);
      const list = (await u.call(surface, 'GET', '/cards')).json().data;
      expect(list.map((c: { id: string }) => c.id)).toEqual([card.id, physical.json().data.id]);
    });
  }

  it('refuses an unknown or wrongly typed card type with 400 and creates nothing', async () => {
    const u = await user();
    for (const payload of [{ type: 'metal' }, { type: 1 }]) {
      const res = await u.call('api', 'POST', '/cards', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
    expect((await u.call('api', 'GET', '/cards')).json().data).toEqual([]);
  });

  it('freezes and unfreezes; a cancelled card leaves the list and cannot be reactivated', async () => {
    const u = await user();
    const id = (await u.call('v1', 'POST', '/cards')).json().data.id;
    const frozen = await u.call('api', 'PATCH', `/cards/${id}`, { status: 'frozen' });
    expect(frozen.statusCode).toBe(200);
    expect(frozen.json().data.status).toBe('frozen');
    expect((await u.call('v1', 'PATCH', `/cards/${id}`, { status: 'active' })).json().data.status).toBe('active');
    for (const payload of [{ status: 'cancelled' }, { status: 'closed' }, {}]) {
      expect((await u.call('api', 'PATCH', `/cards/${id}`, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }

    const cancelled = await u.call('v1', 'DELETE', `/cards/${id}`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.status).toBe('cancelled');
    expect((await u.call('api', 'GET', '/cards')).json().data).toEqual([]);
    expect((await u.call('api', 'GET', `/cards/${id}`)).json().data.status).toBe('cancelled');
    for (const status of ['active', 'frozen']) {
      const res = await u.call('api', 'PATCH', `/cards/${id}`, { status });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('conflict');
    }
    expect((await u.call('api', 'POST', `/cards/${id}/pin`, { pin: '1234' })).statusCode).toBe(409);
    expect((await u.call('api', 'PUT', `/cards/${id}/limits`, { limitType: 'daily', amount: 10 })).statusCode).toBe(
      409,
    );
    expect(
      (await u.call('api', 'POST', `/cards/${id}/physical`, { address: 'Storgata 1, 0155 Oslo' })).statusCode,
    ).toBe(409);
    expect((await u.call('api', 'DELETE', `/cards/${id}`)).json().data.status).toBe('cancelled');
    const row = await env.db.system
      .selectFrom('cards')
      .select(['status', 'cancelled_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
    expect(row.cancelled_at).toBeInstanceOf(Date);
  });

  it("answers 404 for another user's card on every card route of both surfaces, and changes nothing", async () => {
    const owner = await user();
    const stranger = await user();
    const id = (await owner.call('api', 'POST', '/cards')).json().data.id;
    for (const surface of ['api', 'v1'] as const) {
      for (const [method, path, payload] of CARD_ROUTES.filter(([, p]) => p.includes('crd_x'))) {
        const res = await stranger.call(surface, method, path.replace('crd_x', id), payload);
        expect(res.statusCode, `${method} /${surface}${path}`).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    }
    const row = await env.db.system.selectFrom('cards').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', type: 'virtual', pin_hash: null, shipping_address: null });
    expect(
      await env.db.system.selectFrom('card_spending_limits').select('card_id').where('card_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('orders the physical card once, for an address of at least 10 characters', async () => {
    const u = await user();
    const id = (await u.call('api', 'POST', '/cards')).json().data.id;
    const short = await u.call('api', 'POST', `/cards/${id}/physical`, { address: 'Oslo 1' });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'address' }] });
    expect((await u.call('api', 'POST', `/cards/${id}/physical`, { address: '<b>Oslo</b>     ' })).statusCode).toBe(
      422,
    );
    expect((await u.call('api', 'POST', `/cards/${id}/physical`, {})).statusCode).toBe(400);

    const ordered = await u.call('v1', 'POST', `/cards/${id}/physical`, { address: 'Storgata 1, 0155 Oslo' });
    expect(ordered.statusCode).toBe(201);
    expect(ordered.json().data).toMatchObject({
      cardId: id,
      status: 'requested',
      shippingAddress: 'Storgata 1, 0155 Oslo',
    });
    expect((await u.call('v1', 'GET', `/cards/${id}`)).json().data.type).toBe('physical');
    const again = await u.call('api', 'POST', `/cards/${id}/physical`, { address: 'Karl Johans gate 2, Oslo' });
    expect(again.statusCode).toBe(409);
    const row = await env.db.system
      .selectFrom('cards')
      .select('shipping_address')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.shipping_address).toBe('Storgata 1, 0155 Oslo');
  });

  it('stores the PIN only as a bcrypt hash and never echoes it', async () => {
    const u = await user();
    const id = (await u.call('api', 'POST', '/cards')).json().data.id;
    for (const surface of ['api', 'v1'] as const) {
      const pin = surface === 'api' ? '0427' : '9051';
      const res = await u.call(surface, 'POST', `/cards/${id}/pin`, { pin });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ cardId: id, pinSet: true });
      expect(res.body).not.toContain(pin);
      const row = await env.db.system
        .selectFrom('cards')
        .select(['pin_hash', 'pin_set_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.pin_hash).toMatch(/^\$2[aby]\$04\$/);
      expect(row.pin_hash).not.toContain(pin);
      expect(await bcrypt.compare(pin, row.pin_hash!)).toBe(true);
      expect(row.pin_set_at).toBeInstanceOf(Date);
      const read = await u.call(surface, 'GET', `/cards/${id}`);
      expect(read.body).not.toContain(pin);
      expect(read.body).not.toContain('pin');
    }
    const exported = await u.call('v1', 'GET', '/user/data-export');
    expect(exported.body).not.toContain('$2b$');
  });

  it('refuses a PIN that is not exactly 4 digits (422) or not a string (400)', async () => {
    const u = await user();
    const id = (await u.call('api', 'POST', '/cards')).json().data.id;
    for (const pin of ['123', '12345', '12a4', ' 1234', '１２３４']) {
      const res = await u.call('api', 'POST', `/cards/${id}/pin`, { pin });
      expect(res.statusCode, pin).toBe(422);
      expect(res.json().error).toBe('validation_error');
    }
    for (const payload of [{ pin: 1234 }, {}]) {
      expect((await u.call('v1', 'POST', `/cards/${id}/pin`, payload)).statusCode).toBe(400);
    }
    const row = await env.db.system
      .selectFrom('cards')
      .select('pin_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.pin_hash).toBeNull();
  });

  it('sets one spending limit per type, replacing the same type, with a positive amount of at most 2 decimals', async () => {
    const u = await user();
    const id = (await u.call('api', 'POST', '/cards')).json().data.id;
    expect((await u.call('v1', 'GET', `/cards/${id}/limits`)).json().data).toEqual([]);
    const daily = await u.call('api', 'PUT', `/cards/${id}/limits`, { limitType: 'daily', amount: 500 });
    expect(daily.statusCode).toBe(200);
    expect(daily.json().data).toMatchObject({ limitType: 'daily', amount: 500, currency: 'NOK' });
    await u.call('v1', 'PUT', `/cards/${id}/limits`, { limitType: 'transaction', amount: 99.95 });
    const replaced = await u.call('v1', 'PUT', `/cards/${id}/limits`, { limitType: 'daily', amount: 750.5 });
    expect(replaced.json().data.amount).toBe(750.5);
    const limits = (await u.call('api', 'GET', `/cards/${id}/limits`)).json().data;
    expect(limits.map((l: { limitType: string; amount: number }) => [l.limitType, l.amount])).toEqual([
      ['transaction', 99.95],
      ['daily', 750.5],
    ]);
    const rows = await env.db.system
      .selectFrom('card_spending_limits')
      .select(['limit_type', 'amount'])
      .where('card_id', '=', id)
      .orderBy('limit_type')
      .execute();
    expect(rows).toEqual([
      { limit_type: 'daily', amount: '750.50' },
      { limit_type: 'transaction', amount: '99.95' },
    ]);

    for (const amount of [0, -5, 10.001, 20_000_000]) {
      const res = await u.call('api', 'PUT', `/cards/${id}/limits`, { limitType: 'weekly', amount });
      expect(res.statusCode, String(amount)).toBe(422);
      expect(res.json().error).toBe('validation_error');
    }
    for (const payload of [
      { limitType: 'yearly', amount: 5 },
      { limitType: 'weekly', amount: '5' },
      { limitType: 'weekly', amount: 'Infinity' },
      { amount: 5 },
    ]) {
      expect((await u.call('api', 'PUT', `/cards/${id}/limits`, payload)).statusCode, JSON.stringify(payload)).toBe(
        400,
      );
    }
    expect(
      await env.db.system
        .selectFrom('card_spending_limits')
        .select('limit_type')
        .where('limit_type', '=', 'weekly')
        .execute(),
    ).toEqual([]);
  });

  it('cancels the cards of an erased account', async () => {
    const u = await user();
    const id = (await u.call('api', 'POST', '/cards')).json().data.id;
    expect((await u.call('v1', 'DELETE', '/user/account')).statusCode).toBe(200);
    const row = await env.db.system.selectFrom('cards').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nokRatesFromFeed, parseNorgesBankSdmx } from '../src/modules/rates/norges-bank.js';
import { createRatesService, RATES_CACHE_MS, SUPPORTED_TARGETS } from '../src/modules/rates/rates.service.js';
import { buildTestApp } from './helpers.js';

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures/norges-bank-exr-2026-11-20.sdmx.json'), 'utf8'),
);

describe('Norges Bank SDMX-JSON parser (recorded feed)', () => {
  it('reads the latest observation of each series and applies UNIT_MULT', () => {
    const feed = parseNorgesBankSdmx(recorded);
    const byCurrency = Object.fromEntries(
      feed.map((r) => [r.currency, { nok: r.nokPerUnit.toString(), date: r.date }]),
    );
    expect(byCurrency).toEqual({
      EUR: { nok: '11.7265', date: '2026-11-20' },
      PLN: { nok: '2.7605', date: '2026-11-20' }, // quoted per 100
      TRY: { nok: '0.2384', date: '2026-11-20' },
      PKR: { nok: '0.03587', date: '2026-11-20' },
    });
  });

  it('turns them into NOK -> target rates, with BAM through the euro peg', () => {
    const rates = nokRatesFromFeed(parseNorgesBankSdmx(recorded), SUPPORTED_TARGETS);
    expect(rates.get('EUR')!.rate.toFixed(6)).toBe('0.085277'); // 1 / 11.7265
    expect(rates.get('PLN')!.rate.toFixed(6)).toBe('0.362253');
    expect(rates.get('TRY')!.rate.toFixed(4)).toBe('4.1946');
    expect(rates.get('PKR')!.rate.toFixed(4)).toBe('27.8784');
    expect(rates.get('BAM')!.rate.toFixed(6)).toBe('0.166787'); // 1.95583 / 11.7265
    expect(rates.has('RSD')).toBe(false);
  });

  it('rejects documents that are not SDMX-JSON data messages', () => {
    expect(() => parseNorgesBankSdmx({})).toThrow();
    expect(() =>
      parseNorgesBankSdmx({ data: { dataSets: [{ series: {} }], structure: { dimensions: { series: [] } } } }),
    ).toThrow();
  });
});

describe('rates endpoints (R11)', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  const feedCalls: string[] = [];
  beforeAll(async () => {
    env = await buildTestApp(
      {},
      {
        fetch: (async (url: string) => {
          feedCalls.push(String(url));
          return new Response(JSON.stringify(recorded), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        }) as typeof fetch,
      },
    );
  });
  afterAll(async () => env?.close());

  it('serves the seeded rates on both surfaces without calling the feed, flagged stale when older than 24 h', async () => {
    for (const prefix of ['/api', '/v1']) {
      const res = await env.app.inject({ method: 'GET', url: `${prefix}/rates` });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.baseCurrency).toBe('NOK');
      expect(Object.keys(data.rates).sort()).toEqual([...SUPPORTED_TARGETS].sort());
      expect(data.stale).toBe(Date.now() - Date.parse(data.updatedAt) > 24 * 3600_000);
    }
    expect(feedCalls).toEqual([]);
  });

  it('serves one rate with the fee, and 404 for an unknown currency', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/rates/pln' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ baseCurrency: 'NOK', currency: 'PLN', fee: 0.005 });
    expect(typeof res.json().data.rate).toBe('number');
    const unknown = await env.app.inject({ method: 'GET', url: '/api/rates/XYZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
  });

  it('stores a refresh from the feed and clears the stale flag of the refreshed rates', async () => {
    const updated = await env.app.ctx.rates.refreshFromFeed();
    expect(updated).toEqual(['BAM', 'EUR', 'PKR', 'PLN', 'TRY']);
    const eur = (await env.app.inject({ method: 'GET', url: '/v1/rates/EUR' })).json().data;
    expect(eur).toMatchObject({ rate: 0.08527694, stale: false });
    const row = await env.db.system
      .selectFrom('exchange_rates')
      .selectAll()
      .where('currency', '=', 'EUR')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ rate: '0.08527694', source: 'norges-bank' });
    // RSD is not in Norges Bank's feed: it keeps its older value, so the set as a whole is stale.
    const all = (await env.app.inject({ method: 'GET', url: '/api/rates' })).json().data;
    expect(all.rates.EUR).toBe(0.08527694);
    const rsd = (await env.app.inject({ method: 'GET', url: '/api/rates/RSD' })).json().data;
    expect(all.stale).toBe(rsd.stale);
  });

  it('shows a stored refresh at once on the instance that stored it and within 5 s on another instance', async () => {
    const other = createRatesService({ db: env.db.system, config: env.app.ctx.config });
    const before = (await other.one('EUR')).rate;
    const feed = parseNorgesBankSdmx(recorded).map((r) =>
      r.currency === 'EUR' ? { ...r, nokPerUnit: r.nokPerUnit.mul(2) } : r,
    );
    await env.app.ctx.rates.store(feed);
    const after = (await env.app.inject({ method: 'GET', url: '/v1/rates/EUR' })).json().data.rate;
    expect(after).not.toBe(before);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + RATES_CACHE_MS + 1);
      expect((await other.one('EUR')).rate).toBe(after);
    } finally {
      vi.useRealTimers();
    }
  });

  it("serves GET /rates from a ready-made body equal to the schema serialiser's output, rebuilt when the stale flag flips or the rates change", async () => {
    const { RatesResponse } = await import('../src/modules/rates/rates.schemas.js');
    const { default: build } = await import('fast-json-stringify');
    const serialise = build(RatesResponse as object);
    const rates = env.app.ctx.rates;
    const res = await env.app.inject({ method: 'GET', url: '/api/rates' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe(serialise({ data: await rates.all() }));
    // Around the moment the oldest rate turns stale (24 h after it), both ways: the cached text
    // follows the flag whatever order the clock is read in.
    const oldest = Date.parse(JSON.parse(res.body).data.updatedAt);
    const edge = oldest + env.app.ctx.config.rates.staleAfterMs;
    for (const at of [edge, edge + 1, edge, edge - 1000, edge + 1]) {
      const text = await rates.allJson(new Date(at));
      expect(text).toBe(serialise({ data: await rates.all(new Date(at)) }));
      expect(JSON.parse(text).data.stale).toBe(at > edge);
    }
    // A stored refresh shows at once.
    const feed = parseNorgesBankSdmx(recorded).map((r) =>
      r.currency === 'PLN' ? { ...r, nokPerUnit: r.nokPerUnit.mul(4) } : r,
    );
    await rates.store(feed);
    const after = await env.app.inject({ method: 'GET', url: '/v1/rates' });
    expect(after.body).toBe(serialise({ data: await rates.all() }));
    expect(after.body).not.toBe(res.body);
  });

  it('the refresh job never breaks start-up when the feed is offline', async () => {
    const offline = await buildTestApp(
      { RATES_FEED: 'on', RATES_REFRESH_INTERVAL: '1h' },
      {
        fetch: (async () => {
          throw new TypeError('fetch failed');
        }) as typeof fetch,
      },
    );
    try {
      await new Promise((r) => setTimeout(r, 50));
      const res = await offline.app.inject({ method: 'GET', url: '/api/rates' });
      expect(res.statusCode).toBe(200);
    } finally {
      await offline.close();
    }
  });
});

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventually } from '@app/shared/test/eventually';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CURRENCY_DECIMALS } from '../src/modules/currencies/currencies.js';
import { importEcbDays, parseEcbXml, runDailyImport } from '../src/modules/exchange-rates/ecb-feed.js';
import { documentRate } from '../src/modules/exchange-rates/exchange-rates.service.js';
import { organizationToday } from '../src/modules/reports/report-dates.js';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';

const ECB_FILE = readFileSync(join(import.meta.dirname, 'fixtures/ecb-eurofxref-daily-2022-07-08.xml'), 'utf8');

let h: TestApp;
let owner: Session;
beforeAll(async () => {
  h = await buildTestApp();
  owner = await registerOrg(h.app, { baseCurrency: 'RSD' });
});
afterAll(() => h?.close());

const getRate = (token: string, query: Record<string, string>) =>
  h.app.inject(authed(token, { method: 'GET', url: '/api/v1/exchange-rates', query }));
const postRate = (token: string, payload: object) =>
  h.app.inject(authed(token, { method: 'POST', url: '/api/v1/exchange-rates', payload }));

/** A global (feed) rate written as the system role. */
async function globalRate(base: string, target: string, rate: string, date: string, source: 'nbs' | 'ecb' = 'ecb') {
  await h.t.db.system
    .insertInto('exchange_rates')
    .values({ organization_id: null, base_currency: base, target_currency: target, rate, effective_date: date, source })
    .execute();
}

describe('GET /currencies', () => {
  it('lists the seven currencies with their minor units, matching the synchronous map', async () => {
    const res = await h.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/currencies' }));
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Array<{
      code: string;
      decimalPlaces: number;
      name: string;
      symbol: string | null;
      isActive: boolean;
    }>;
    expect(data.map((c) => c.code).sort()).toEqual(['BAM', 'CHF', 'EUR', 'GBP', 'HRK', 'RSD', 'USD']);
    expect(data.find((c) => c.code === 'EUR')).toEqual({
      code: 'EUR',
      name: 'Euro',
      symbol: '€',
      decimalPlaces: 2,
      isActive: true,
    });
    expect(Object.fromEntries(data.map((c) => [c.code, c.decimalPlaces]))).toEqual(CURRENCY_DECIMALS);
  });

  it('needs a token', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/currencies' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /exchange-rates', () => {
  it('answers the seeded laws-fixed EUR-BAM and EUR-HRK rates', async () => {
    const bam = await getRate(owner.token, { base: 'EUR', target: 'BAM', date: '2026-06-30' });
    expect(bam.statusCode).toBe(200);
    expect(bam.json()).toMatchObject({
      baseCurrency: 'EUR',
      targetCurrency: 'BAM',
      rate: '1.955830',
      effectiveDate: '1999-01-01',
      source: 'cbbh',
    });
    const hrk = await getRate(owner.token, { base: 'EUR', target: 'HRK', date: '2026-06-30' });
    expect(hrk.json()).toMatchObject({ rate: '7.534500', source: 'hnb' });
    expect(typeof hrk.json().lastUpdated).toBe('string');
  });

  it('takes the latest rate on or before the date, and shows which one by its effectiveDate', async () => {
    await globalRate('EUR', 'CHF', '0.9500', '2020-03-02');
    await globalRate('EUR', 'CHF', '0.9600', '2020-03-05');
    const on = await getRate(owner.token, { base: 'EUR', target: 'CHF', date: '2020-03-05' });
    expect(on.json()).toMatchObject({ rate: '0.960000', effectiveDate: '2020-03-05' });
    const between = await getRate(owner.token, { base: 'EUR', target: 'CHF', date: '2020-03-04' });
    expect(between.json()).toMatchObject({ rate: '0.950000', effectiveDate: '2020-03-02' });
    const before = await getRate(owner.token, { base: 'EUR', target: 'CHF', date: '2020-03-01' });
    expect(before.statusCode).toBe(404);
    expect(before.json().error.code).toBe('SVC-9002');
  });

  it('inverts a stored pair and crosses two currencies through EUR', async () => {
    await globalRate('EUR', 'USD', '1.2500', '2019-05-02');
    await globalRate('EUR', 'GBP', '0.8000', '2019-05-03');
    const inverse = await getRate(owner.token, { base: 'USD', target: 'EUR', date: '2019-05-02' });
    expect(inverse.json()).toMatchObject({
      baseCurrency: 'USD',
      targetCurrency: 'EUR',
      rate: '0.800000',
      effectiveDate: '2019-05-02',
    });
    // 1 GBP = 1/0.8 EUR = 1.25 EUR = 1.5625 USD; the cross rate is as old as its older leg.
    const cross = await getRate(owner.token, { base: 'GBP', target: 'USD', date: '2019-05-10' });
    expect(cross.json()).toMatchObject({ rate: '1.562500', effectiveDate: '2019-05-02' });
    // Before the GBP leg exists there is no cross rate.
    const early = await getRate(owner.token, { base: 'GBP', target: 'USD', date: '2019-05-02' });
    expect(early.statusCode).toBe(404);
  });

  it('prefers the most recent of a direct quote and a cross rate', async () => {
    const s = await registerOrg(h.app);
    // A manual direct USD/RSD quote, older than the EUR legs.
    expect(
      (await postRate(s.token, { baseCurrency: 'USD', targetCurrency: 'RSD', rate: 100, effectiveDate: '2026-01-10' }))
        .statusCode,
    ).toBe(201);
    const recent = await getRate(s.token, { base: 'USD', target: 'RSD', date: '2026-11-21' });
    // Cross through the seeded 2026-11-20 legs: 117.2 / 1.16.
    expect(recent.json()).toMatchObject({ rate: '101.034483', effectiveDate: '2026-11-20' });
    const older = await getRate(s.token, { base: 'USD', target: 'RSD', date: '2026-01-10' });
    expect(older.json()).toMatchObject({ rate: '100.000000', effectiveDate: '2026-01-10', source: 'manual' });
  });

  it('answers 1 for a currency against itself', async () => {
    const res = await getRate(owner.token, { base: 'RSD', target: 'RSD', date: '2026-01-01' });
    expect(res.json()).toMatchObject({ rate: '1.000000', effectiveDate: '2026-01-01' });
  });

  it('defaults the date to today', async () => {
    const res = await getRate(owner.token, { base: 'EUR', target: 'RSD' });
    expect(res.statusCode).toBe(200);
    expect(res.json().effectiveDate <= new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it.each([
    [{ target: 'RSD' }, 'base'],
    [{ base: 'EUR' }, 'target'],
    [{ base: 'EURO', target: 'RSD' }, 'base'],
    [{ base: 'XYZ', target: 'RSD' }, 'base'],
    [{ base: 'EUR', target: 'QQQ' }, 'target'],
    [{ base: 'EUR', target: 'RSD', date: '2026-02-30' }, 'date'],
    [{ base: 'EUR', target: 'RSD', date: 'yesterday' }, 'date'],
  ])('answers 422 SVC-9003 for %o (details.%s)', async (query, field) => {
    const res = await getRate(owner.token, query as Record<string, string>);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details)).toContain(field);
  });
});

describe('POST /exchange-rates (manual, per organization)', () => {
  it('records an organization rate that wins over the global one on the same date and stays invisible to others', async () => {
    const a = await registerOrg(h.app);
    const b = await registerOrg(h.app);
    const res = await postRate(a.token, {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 118.5,
      effectiveDate: '2026-11-20',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: '118.500000',
      effectiveDate: '2026-11-20',
      source: 'manual',
    });
    expect((await getRate(a.token, { base: 'EUR', target: 'RSD', date: '2026-11-21' })).json().rate).toBe('118.500000');
    expect((await getRate(b.token, { base: 'EUR', target: 'RSD', date: '2026-11-21' })).json().rate).toBe('117.200000');
    // Recording the same pair and date again replaces the rate.
    await postRate(a.token, { baseCurrency: 'EUR', targetCurrency: 'RSD', rate: 118.25, effectiveDate: '2026-11-20' });
    expect((await getRate(a.token, { base: 'EUR', target: 'RSD', date: '2026-11-21' })).json().rate).toBe('118.250000');
    const audit = await h.t.db.system
      .selectFrom('logged_actions')
      .select('action')
      .where('organization_id', '=', a.orgId)
      .where('table_name', '=', 'exchange_rates')
      .execute();
    expect(audit.map((r) => r.action)).toEqual(['INSERT', 'UPDATE']);
  });

  it('lets owner and admin record rates, not accountants or viewers (403 SVC-9001)', async () => {
    const admin = await addMember(h.app, owner, 'admin');
    const accountant = await addMember(h.app, owner, 'accountant');
    const payload = { baseCurrency: 'EUR', targetCurrency: 'USD', rate: 1.1, effectiveDate: '2026-11-01' };
    expect((await postRate(admin.token, payload)).statusCode).toBe(201);
    const res = await postRate(accountant.token, payload);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('SVC-9001');
  });

  it.each([
    [{ baseCurrency: 'EUR', targetCurrency: 'EUR', rate: 1, effectiveDate: '2026-11-01' }, 'targetCurrency'],
    [{ baseCurrency: 'EUR', targetCurrency: 'XYZ', rate: 1, effectiveDate: '2026-11-01' }, 'targetCurrency'],
    [{ baseCurrency: 'EUR', targetCurrency: 'USD', rate: 0, effectiveDate: '2026-11-01' }, 'rate'],
    [{ baseCurrency: 'EUR', targetCurrency: 'USD', rate: -2, effectiveDate: '2026-11-01' }, 'rate'],
    [{ baseCurrency: 'EUR', targetCurrency: 'USD', rate: '1.1', effectiveDate: '2026-11-01' }, 'rate'],
    [{ baseCurrency: 'EUR', targetCurrency: 'USD', rate: 1.1 }, 'effectiveDate'],
  ])('answers 422 SVC-9003 for %o', async (payload, field) => {
    const res = await postRate(owner.token, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details)).toContain(field);
  });
});

describe('documentRate', () => {
  const call = (orgId: string, cur: string, base: string, date: string) =>
    h.t.db.withContext({ kind: 'tenant', orgId }, (db) => documentRate(db, orgId, cur, base, date));

  it('is 1.000000 for the base currency and 6 decimals otherwise', async () => {
    expect(await call(owner.orgId, 'RSD', 'RSD', '2026-11-21')).toBe('1.000000');
    expect(await call(owner.orgId, 'EUR', 'RSD', '2026-11-21')).toBe('117.200000');
    // 1 USD in RSD through EUR: 117.2 / 1.16 = 101.0344827...
    expect(await call(owner.orgId, 'USD', 'RSD', '2026-11-21')).toBe('101.034483');
    expect(await call(owner.orgId, 'RSD', 'EUR', '2026-11-21')).toBe('0.008532');
  });

  it('throws 422 SVC-9003 on currencyCode when no rate exists on or before the date', async () => {
    await expect(call(owner.orgId, 'USD', 'RSD', '1990-01-01')).rejects.toMatchObject({
      code: 'SVC-9003',
      status: 422,
      details: { currencyCode: [expect.stringContaining('no exchange rate')] },
    });
  });
});

describe('ECB feed', () => {
  it('parses the recorded daily file', () => {
    const days = parseEcbXml(ECB_FILE);
    expect(days).toHaveLength(1);
    expect(days[0].date).toBe('2022-07-08');
    expect(days[0].rates).toHaveLength(31);
    expect(days[0].rates.find((r) => r.currency === 'USD')).toEqual({ currency: 'USD', rate: '1.0163' });
    expect(days[0].rates.find((r) => r.currency === 'GBP')).toEqual({ currency: 'GBP', rate: '0.84585' });
  });

  it('parses a multi-day file with double-quoted attributes', () => {
    const xml = `<gesmes:Envelope><Cube><Cube time="2024-01-03"><Cube currency="USD" rate="1.0919"/></Cube><Cube time="2024-01-02"><Cube rate="1.0956" currency="USD"/></Cube></Cube></gesmes:Envelope>`;
    expect(parseEcbXml(xml)).toEqual([
      { date: '2024-01-03', rates: [{ currency: 'USD', rate: '1.0919' }] },
      { date: '2024-01-02', rates: [{ currency: 'USD', rate: '1.0956' }] },
    ]);
  });

  it.each([
    ['<html>Service unavailable</html>'],
    ['<gesmes:Envelope><Cube></Cube></gesmes:Envelope>'],
    [`<gesmes:Envelope><Cube time='2024-01-02'><Cube currency='USD' rate='-1'/></Cube></gesmes:Envelope>`],
  ])('refuses a document without usable rates: %s', (xml) => {
    expect(() => parseEcbXml(xml)).toThrow();
  });

  it('imports the known currencies only, never the rates fixed by law, and is idempotent', async () => {
    const days = parseEcbXml(ECB_FILE);
    expect(await importEcbDays(h.t.db.system, days)).toBe(3);
    expect(await importEcbDays(h.t.db.system, days)).toBe(0);
    const rows = await h.t.db.system
      .selectFrom('exchange_rates')
      .select(['target_currency', 'rate', 'source'])
      .where('effective_date', '=', '2022-07-08')
      .orderBy('target_currency')
      .execute();
    expect(rows).toEqual([
      { target_currency: 'CHF', rate: '0.9913000000', source: 'ecb' },
      { target_currency: 'GBP', rate: '0.8458500000', source: 'ecb' },
      { target_currency: 'USD', rate: '1.0163000000', source: 'ecb' },
    ]);
    const res = await getRate(owner.token, { base: 'USD', target: 'EUR', date: '2022-07-10' });
    expect(res.json()).toMatchObject({ rate: '0.983961', effectiveDate: '2022-07-08', source: 'ecb' });
  });

  it('claims the day once the feed holds its rates: before the ECB publishes it asks again; an offline feed throws and claims nothing', async () => {
    let fetches = 0;
    let published = '2030-01-01';
    const fetchImpl = (async () => {
      fetches += 1;
      return new Response(ECB_FILE.replace("time='2022-07-08'", `time='${published}'`), { status: 200 });
    }) as typeof fetch;
    const offline = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const run = (f: typeof fetch) =>
      runDailyImport(h.t.db.system, { url: 'http://ecb.invalid', fetchImpl: f, today: '2030-01-02' });
    await expect(run(offline)).rejects.toThrow('fetch failed');
    // The morning of 2 January: the file ends on the 1st; stored, and asked for again.
    expect(await run(fetchImpl)).toMatchObject({ status: 'imported', days: 1, latest: '2030-01-01', done: false });
    expect(await run(fetchImpl)).toMatchObject({ status: 'imported', done: false });
    // The afternoon: the 2nd's rates are in; the day is done and not fetched again.
    published = '2030-01-02';
    expect(await run(fetchImpl)).toMatchObject({ status: 'imported', rows: 3, latest: '2030-01-02', done: true });
    expect(await run(fetchImpl)).toEqual({ status: 'already-done' });
    expect(fetches).toBe(3);
    const runs = await h.t.db.system
      .selectFrom('job_runs')
      .select(['job', 'run_date'])
      .where('job', '=', 'ecb-rates')
      .execute();
    expect(runs).toEqual([{ job: 'ecb-rates', run_date: '2030-01-02' }]);
  });

  it('does not break start-up when on and offline, and stops its timer on close', async () => {
    // A feed that always fails: every run of the job fetches (nothing is ever "already done").
    let fetched = 0;
    const server = createServer((_req, res) => {
      fetched += 1;
      res.writeHead(503).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    // The scheduler's hourly timers are setInterval: faked, so the timers that are left can be
    // counted and hours pass at once. Everything else keeps real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const other = await buildTestApp({
        EXCHANGE_RATE_FEED: 'on',
        EXCHANGE_RATE_FEED_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref.xml`,
      });
      let open = true;
      try {
        expect((await other.app.inject({ method: 'GET', url: '/health' })).statusCode).toBeLessThan(500);
        expect(await eventually(async () => fetched === 1, 10_000)).toBe(true); // the run at start-up
        // The hourly timers of the jobs (the feed's among them) are set...
        expect(vi.getTimerCount()).toBeGreaterThan(0);
        await other.close();
        open = false;
        // ...and closing clears every one: no interval left, and hours passing fetch nothing more.
        expect(vi.getTimerCount()).toBe(0);
        vi.advanceTimersByTime(3 * 3_600_000);
        await new Promise((r) => setTimeout(r, 300));
        expect(fetched).toBe(1);
      } finally {
        if (open) await other.close();
      }
    } finally {
      vi.useRealTimers();
      server.close();
    }
  });
  it('imports once shortly after start-up when EXCHANGE_RATE_FEED=on', async () => {
    let served = 0;
    const server = createServer((_req, res) => {
      served += 1;
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(ECB_FILE.replace("time='2022-07-08'", `time='${organizationToday('RS')}'`));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref.xml`;
    try {
      const other = await buildTestApp({ EXCHANGE_RATE_FEED: 'on', EXCHANGE_RATE_FEED_URL: feedUrl });
      try {
        const deadline = Date.now() + 10_000;
        let row: { rate: string } | undefined;
        while (!row && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 250));
          row = await other.t.db.system
            .selectFrom('exchange_rates')
            .select('rate')
            .where('effective_date', '=', organizationToday('RS'))
            .where('target_currency', '=', 'USD')
            .executeTakeFirst();
        }
        expect(row).toEqual({ rate: '1.0163000000' });
        expect(served).toBe(1);
        const runs = await other.t.db.system.selectFrom('job_runs').select('job').execute();
        expect(runs).toEqual([{ job: 'ecb-rates' }]);
      } finally {
        await other.close();
      }
    } finally {
      server.close();
    }
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@app/shared/test/eventually';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { loadConfig } from '../src/config.js';
import { elementText, findElements, parseXml } from '../src/lib/xml-tree.js';
import { documentRate } from '../src/modules/exchange-rates/exchange-rates.service.js';
import {
  NBS_NAMESPACE,
  type NbsCredentials,
  nbsEnvelope,
  parseNbsAnswer,
  runNbsImport,
} from '../src/modules/exchange-rates/nbs-feed.js';
import { organizationToday } from '../src/modules/reports/report-dates.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';

/**
 * A mock of NBS's ExchangeRateXmlService over HTTP, built from its published interface: SOAP 1.1
 * POSTs with a SOAPAction, the credentials in an AuthenticationHeader, GetCurrentExchangeRate and
 * GetExchangeRateByDate (date YYYYMMDD), and an answer whose …Result holds the ExchangeRateDataSet
 * as escaped XML text. A wrong user name, password or licence id gets a SOAP fault (HTTP 500).
 */
const CREDENTIALS: NbsCredentials = { username: 'knjigovodja', password: 'tajna<&>', licenceId: 'e7a1-licence' };

interface Row {
  currency: string;
  unit: number;
  middle: string;
}
/** A middle-rate list as NBS publishes it (list type 3: buying and selling rates are 0). */
const LIST: Row[] = [
  { currency: 'EUR', unit: 1, middle: '117.1729' },
  { currency: 'USD', unit: 1, middle: '101.1234' },
  { currency: 'CHF', unit: 1, middle: '125.3017' },
  { currency: 'GBP', unit: 1, middle: '134.5602' },
  { currency: 'BAM', unit: 1, middle: '59.9086' },
  { currency: 'JPY', unit: 100, middle: '65.8612' },
  { currency: 'NOK', unit: 1, middle: '9.9876' },
];
const NUMERIC: Record<string, string> = {
  EUR: '978',
  USD: '840',
  CHF: '756',
  GBP: '826',
  BAM: '977',
  JPY: '392',
  NOK: '578',
};

function dataSet(date: string, rows: Row[]): string {
  const [y, m, d] = date.split('-');
  const set = create().ele('ExchangeRateDataSet');
  for (const r of rows) {
    const row = set.ele('ExchangeRate');
    const field = (name: string, value: string | number) => row.ele(name).txt(String(value));
    field('ExchangeRateListNumber', 230);
    field('Date', `${d}.${m}.${y}`);
    field('CreateDate', `${d}.${m}.${y}`);
    field('DateTo', `${d}.${m}.${y}`);
    field('ExchangeRateListTypeID', 3);
    field('CurrencyGroupID', 2);
    field('CurrencyCode', Number(NUMERIC[r.currency]));
    field('CurrencyCodeNumChar', NUMERIC[r.currency]);
    field('CurrencyCodeAlfaChar', r.currency);
    field('CurrencyNameSerLat', r.currency);
    field('CurrencyNameEng', r.currency);
    field('CountryNameEng', r.currency);
    field('Unit', r.unit);
    field('BuyingRate', 0);
    field('MiddleRate', r.middle);
    field('SellingRate', 0);
    field('FixingRate', 0);
  }
  return set.end({ headless: true });
}

function answer(operation: string, inner: string): string {
  const doc = create({ version: '1.0', encoding: 'utf-8' }).ele(
    'http://schemas.xmlsoap.org/soap/envelope/',
    'soap:Envelope',
  );
  doc.ele('soap:Body').ele(NBS_NAMESPACE, `${operation}Response`).ele(NBS_NAMESPACE, `${operation}Result`).txt(inner);
  return doc.end();
}

const fault = (reason: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>${reason}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;

class NbsMock {
  server: Server;
  /** The current list's date; lists by date (undefined: no list that day; 'down': HTTP 503). */
  current = '2030-03-15';
  byDate = new Map<string, string | 'down'>();
  calls: Array<{ operation: string; date?: string; listType?: string }> = [];

  constructor() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const tree = parseXml(body);
        const field = (name: string) => elementText(findElements(tree, name)[0]) ?? undefined;
        const operation = ['GetCurrentExchangeRate', 'GetExchangeRateByDate'].find(
          (op) => findElements(tree, op).length > 0,
        );
        const send = (status: number, xml: string) =>
          res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(xml);
        if (req.method !== 'POST' || !operation || req.headers.soapaction !== `"${NBS_NAMESPACE}/${operation}"`) {
          return send(500, fault('Server did not recognize the value of HTTP Header SOAPAction'));
        }
        if (
          field('UserName') !== CREDENTIALS.username ||
          field('Password') !== CREDENTIALS.password ||
          field('LicenceID') !== CREDENTIALS.licenceId
        ) {
          return send(500, fault('Authentication failed'));
        }
        const listType = field('exchangeRateListTypeID');
        const date = field('date');
        this.calls.push({ operation, date, listType });
        if (operation === 'GetCurrentExchangeRate') return send(200, answer(operation, dataSet(this.current, LIST)));
        if (!date || !/^\d{8}$/.test(date)) return send(500, fault('Input string was not in a correct format.'));
        const iso = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}`;
        const list = this.byDate.get(iso);
        if (list === 'down') return res.writeHead(503).end('Service Unavailable');
        return send(200, answer(operation, list ?? '<ExchangeRateDataSet />'));
      });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/CommunicationOfficeService1_0/ExchangeRateXmlService.asmx`;
  }
}

let h: TestApp;
let owner: Session;
let mock: NbsMock;
let url: string;
/** 10:00 UTC on 15 March 2030: 11:00 in Belgrade. */
const NOW = new Date('2030-03-15T10:00:00Z');

beforeAll(async () => {
  h = await buildTestApp();
  owner = await registerOrg(h.app, { baseCurrency: 'RSD' });
  mock = new NbsMock();
  url = await mock.start();
});
afterAll(async () => {
  mock?.server.close();
  await h?.close();
});
beforeEach(async () => {
  mock.calls = [];
  mock.byDate.clear();
  mock.current = '2030-03-15';
  await h.t.db.system.deleteFrom('job_runs').execute();
  await h.t.db.system.deleteFrom('exchange_rates').where('source', '=', 'nbs').execute();
});

/** A global rate as a feed writes it. */
const globalRate = (base: string, target: string, rate: string, date: string, source: 'nbs' | 'ecb') =>
  h.t.db.system
    .insertInto('exchange_rates')
    .values({ organization_id: null, base_currency: base, target_currency: target, rate, effective_date: date, source })
    .execute();

const run = (opts: { now?: Date; credentials?: NbsCredentials } = {}) =>
  runNbsImport(h.t.db.system, {
    url,
    credentials: opts.credentials ?? CREDENTIALS,
    listType: 3,
    now: opts.now ?? NOW,
  });
const nbsRows = () =>
  h.t.db.system
    .selectFrom('exchange_rates')
    .select(['base_currency', 'target_currency', 'rate', 'effective_date'])
    .where('source', '=', 'nbs')
    .orderBy('effective_date')
    .orderBy('base_currency')
    .execute();

describe('NBS middle rates', () => {
  it('imports the current list as "1 currency = rate RSD" for the known currencies, and records the day', async () => {
    const outcome = await run();
    expect(outcome).toEqual({
      status: 'imported',
      listDate: '2030-03-15',
      rows: 5,
      backfilled: [],
      missed: [],
      done: true,
    });
    expect(mock.calls).toEqual([{ operation: 'GetCurrentExchangeRate', date: undefined, listType: '3' }]);
    expect(await nbsRows()).toEqual(
      ['BAM', 'CHF', 'EUR', 'GBP', 'USD'].map((c) => ({
        base_currency: c,
        target_currency: 'RSD',
        rate: `${LIST.find((r) => r.currency === c)?.middle}000000`,
        effective_date: '2030-03-15',
      })),
    );
    // A second run the same day asks NBS nothing.
    expect(await run()).toEqual({ status: 'already-done' });
    expect(mock.calls).toHaveLength(1);
  });

  it('gives a dinar organization the NBS rate directly, not a cross rate through an ECB quote of the same day', async () => {
    await globalRate('EUR', 'USD', '1.05', '2030-03-15', 'ecb');
    await run();
    const rate = (cur: string) =>
      h.t.db.withContext({ kind: 'tenant', orgId: owner.orgId }, (db) =>
        documentRate(db, owner.orgId, cur, 'RSD', '2030-03-16'),
      );
    expect(await rate('EUR')).toBe('117.172900');
    // Through the euro it would be 117.1729 / 1.05 = 111.593238.
    expect(await rate('USD')).toBe('101.123400');
    const res = await h.app.inject(
      authed(owner.token, {
        method: 'GET',
        url: '/api/v1/exchange-rates',
        query: { base: 'RSD', target: 'CHF', date: '2030-03-15' },
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rate: '0.007981', effectiveDate: '2030-03-15', source: 'nbs' });
  });

  it('before NBS publishes, stores the last list and asks again on the next run', async () => {
    mock.current = '2030-03-14';
    const early = new Date('2030-03-15T06:00:00Z');
    expect(await run({ now: early })).toMatchObject({ status: 'imported', listDate: '2030-03-14', done: false });
    mock.current = '2030-03-15';
    expect(await run({ now: early })).toMatchObject({ status: 'imported', listDate: '2030-03-15', done: true });
    expect((await nbsRows()).map((r) => r.effective_date)).toEqual([
      ...Array(5).fill('2030-03-14'),
      ...Array(5).fill('2030-03-15'),
    ]);
    const runs = await h.t.db.system.selectFrom('job_runs').select(['job', 'run_date']).execute();
    expect(runs).toEqual([{ job: 'nbs-rates', run_date: '2030-03-15' }]);
  });

  it('after downtime, looks up each missed day by date; a day NBS cannot answer is reported, the rest stored', async () => {
    await globalRate('EUR', 'RSD', '117.1', '2030-03-10', 'nbs');
    mock.byDate.set('2030-03-11', dataSet('2030-03-11', [{ currency: 'EUR', unit: 1, middle: '117.1101' }]));
    mock.byDate.set('2030-03-12', 'down');
    mock.byDate.set('2030-03-13', dataSet('2030-03-13', [{ currency: 'EUR', unit: 1, middle: '117.1303' }]));
    // 14 March: no list (the mock answers an empty data set, as NBS does for a day without one).
    expect(await run()).toEqual({
      status: 'imported',
      listDate: '2030-03-15',
      rows: 7,
      backfilled: ['2030-03-11', '2030-03-12', '2030-03-13', '2030-03-14'],
      missed: ['2030-03-12'],
      done: true,
    });
    expect(mock.calls.filter((c) => c.operation === 'GetExchangeRateByDate').map((c) => c.date)).toEqual([
      '20300311',
      '20300312',
      '20300313',
      '20300314',
    ]);
    const eur = (await nbsRows()).filter((r) => r.base_currency === 'EUR').map((r) => [r.effective_date, r.rate]);
    expect(eur).toEqual([
      ['2030-03-10', '117.1000000000'],
      ['2030-03-11', '117.1101000000'],
      ['2030-03-13', '117.1303000000'],
      ['2030-03-15', '117.1729000000'],
    ]);
  });

  it('looks back at most 14 days', async () => {
    await globalRate('EUR', 'RSD', '116.9', '2030-01-01', 'nbs');
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'imported', missed: [] });
    expect(outcome.status === 'imported' && outcome.backfilled).toHaveLength(14);
    expect(outcome.status === 'imported' && outcome.backfilled[0]).toBe('2030-03-01');
  });

  it('refused credentials write nothing and record nothing', async () => {
    await expect(run({ credentials: { ...CREDENTIALS, password: 'wrong' } })).rejects.toThrow(
      'NBS refused the request: Authentication failed',
    );
    expect(await nbsRows()).toEqual([]);
    expect(await h.t.db.system.selectFrom('job_runs').selectAll().execute()).toEqual([]);
  });
});

describe('NBS answers', () => {
  it('sends the credentials escaped in the AuthenticationHeader', () => {
    const xml = nbsEnvelope('GetExchangeRateByDate', CREDENTIALS, { date: '20300315', exchangeRateListTypeID: 3 });
    expect(xml).toContain('<Password>tajna&lt;&amp;&gt;</Password>');
    const tree = parseXml(xml);
    expect(elementText(findElements(tree, 'Password')[0])).toBe('tajna<&>');
    expect(elementText(findElements(tree, 'date')[0])).toBe('20300315');
  });

  it('reads a data set given inline (a .NET diffgram) as well as escaped, and a decimal comma', () => {
    const inline = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetExchangeRateByDateResponse xmlns="${NBS_NAMESPACE}"><GetExchangeRateByDateResult><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="ExchangeRateDataSet"/><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><ExchangeRateDataSet xmlns=""><ExchangeRate diffgr:id="ExchangeRate1"><Date>02.01.2030</Date><CurrencyCodeAlfaChar>EUR</CurrencyCodeAlfaChar><Unit>1</Unit><MiddleRate>117,0001</MiddleRate></ExchangeRate><ExchangeRate diffgr:id="ExchangeRate2"><Date>02.01.2030</Date><CurrencyCodeAlfaChar>JPY</CurrencyCodeAlfaChar><Unit>100</Unit><MiddleRate>66.1</MiddleRate></ExchangeRate></ExchangeRateDataSet></diffgr:diffgram></GetExchangeRateByDateResult></GetExchangeRateByDateResponse></soap:Body></soap:Envelope>`;
    expect(parseNbsAnswer(inline, 'GetExchangeRateByDate')).toEqual({
      date: '2030-01-02',
      rates: [
        { currency: 'EUR', rate: '117.0001' },
        { currency: 'JPY', rate: '0.661' },
      ],
    });
  });

  it.each([
    ['an HTML page', '<html><body>Service Unavailable</body></html>', 'holds no GetExchangeRateByDateResult'],
    [
      'another operation',
      answer('GetCurrentExchangeRate', dataSet('2030-03-15', LIST)),
      'no GetExchangeRateByDateResult',
    ],
    [
      'rows of two dates',
      answer('GetExchangeRateByDate', dataSet('2030-03-15', LIST).replace('15.03.2030', '14.03.2030')),
      '2 dates',
    ],
    [
      'no middle rates (another list type)',
      answer(
        'GetExchangeRateByDate',
        dataSet(
          '2030-03-15',
          LIST.map((r) => ({ ...r, middle: '0' })),
        ),
      ),
      'no middle rates',
    ],
  ])('refuses %s', (_name, xml, message) => {
    expect(() => parseNbsAnswer(xml, 'GetExchangeRateByDate')).toThrow(message);
  });
});

describe('NBS feed configuration and start-up', () => {
  it('takes the three credentials together or not at all', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: h.config.dataDir, EXCHANGE_RATE_FEED: 'on' };
    expect(loadConfig(base).exchangeRateFeed.nbs.credentials).toBeNull();
    expect(() => loadConfig({ ...base, NBS_USERNAME: 'u' })).toThrow(
      'NBS_PASSWORD, NBS_LICENCE_ID must be set with the other NBS credentials',
    );
    expect(() =>
      loadConfig({ ...base, NBS_USERNAME: 'u', NBS_PASSWORD: 'p', NBS_LICENCE_ID: 'l', NBS_RATE_LIST: 'x' }),
    ).toThrow('NBS_RATE_LIST');
  });

  it('imports the NBS list at start-up when the feed is on, even with the ECB feed offline', async () => {
    const today = organizationToday('RS');
    mock.current = today;
    const ecb = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((r) => ecb.listen(0, '127.0.0.1', r));
    try {
      const other = await buildTestApp({
        EXCHANGE_RATE_FEED: 'on',
        EXCHANGE_RATE_FEED_URL: `http://127.0.0.1:${(ecb.address() as AddressInfo).port}/eurofxref.xml`,
        NBS_URL: url,
        NBS_USERNAME: CREDENTIALS.username,
        NBS_PASSWORD: CREDENTIALS.password,
        NBS_LICENCE_ID: CREDENTIALS.licenceId,
      });
      try {
        expect((await other.app.inject({ method: 'GET', url: '/health' })).statusCode).toBeLessThan(500);
        expect(
          await eventually(async () => {
            const runs = await other.t.db.system.selectFrom('job_runs').select('job').execute();
            return runs.some((r) => r.job === 'nbs-rates');
          }, 10_000),
        ).toBe(true);
        const eur = await other.t.db.system
          .selectFrom('exchange_rates')
          .select(['rate', 'source'])
          .where('base_currency', '=', 'EUR')
          .where('target_currency', '=', 'RSD')
          .where('effective_date', '=', today)
          .executeTakeFirst();
        expect(eur).toEqual({ rate: '117.1729000000', source: 'nbs' });
      } finally {
        await other.close();
      }
    } finally {
      ecb.close();
    }
  });
});

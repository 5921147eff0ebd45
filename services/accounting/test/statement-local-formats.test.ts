import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnsOf, headerKey, localDate } from '../src/modules/banking/statement-columns.js';
import { normaliseAmount } from '../src/modules/banking/statement-csv.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { form } from './multipart.js';

// Issue 25 item 8: the statement importer takes the headers, dates and amounts Balkan bank exports
// use. The example files are the ones docs/accounting/bank-statements.md shows.
const EXAMPLES = new URL('../../../docs/accounting/bank-statements/', import.meta.url);
const example = (name: string) => readFileSync(new URL(name, EXAMPLES));

let t: TestApp;
let owner: Session;
let bankCode = 1300;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app);
});
afterAll(async () => t?.close());

async function newBank(currencyCode = 'RSD') {
  bankCode += 1;
  const acc = await t.app.inject(
    authed(owner.token, {
      method: 'POST',
      url: '/api/v1/accounts',
      payload: { code: String(bankCode), name: `Banka ${bankCode}`, accountTypeId: 1 },
    }),
  );
  const res = await t.app.inject(
    authed(owner.token, {
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: { accountId: acc.json().id, bankName: 'Banka', currencyCode, currentBalance: 0 },
    }),
  );
  if (res.statusCode !== 201) throw new Error(`bank: ${res.body}`);
  return res.json() as { id: string };
}

const importCsv = (bankId: string, data: Buffer | string) =>
  t.app.inject(
    authed(owner.token, {
      method: 'POST',
      url: `/api/v1/bank-accounts/${bankId}/import`,
      ...form({}, { field: 'file', filename: 'izvod.csv', type: 'text/csv', data: Buffer.from(data) }),
    }),
  );

async function rows(bankId: string) {
  const res = await t.app.inject(
    authed(owner.token, { method: 'GET', url: `/api/v1/bank-accounts/${bankId}/transactions?perPage=100` }),
  );
  // By date, then description (lines of one day have no order of their own).
  return res
    .json()
    .data.map((l: any) => [l.transactionDate, l.amount, l.description, l.reference])
    .sort((a: string[], b: string[]) => (a[0] + a[2]).localeCompare(b[0] + b[2]));
}

describe('the example statements of docs/accounting/bank-statements.md', () => {
  it('a Serbian export: Datum, Datum valute, Opis, Poziv na broj, Duguje/Potražuje, decimal comma, CRLF', async () => {
    const bank = await newBank();
    const res = await importCsv(bank.id, example('izvod-rs.csv'));
    expect(res.json()).toEqual({ imported: 4, duplicates: 0, errors: [] });
    expect(await rows(bank.id)).toEqual([
      ['2026-11-27', '1500.00', 'Uplata kupca Čačić d.o.o.', '97 12-2026-0001'],
      ['2026-11-27', '-12345.67', 'Zakup poslovnog prostora, novembar', null],
      ['2026-11-28', '-150.00', 'Provizija banke', null],
      ['2026-11-30', '20000.00', 'Uplata; avans za decembar', '97 34-2026-0002'],
    ]);
  });

  it('a Croatian export: Datum izvršenja, Opis plaćanja, Poziv na broj primatelja, Iznos, dates ending in a dot', async () => {
    const bank = await newBank('EUR');
    const res = await importCsv(bank.id, example('izvod-hr.csv'));
    expect(res.json()).toEqual({ imported: 3, duplicates: 0, errors: [] });
    expect(await rows(bank.id)).toEqual([
      ['2026-11-27', '1234.56', 'Uplata po računu 1-1-1', 'HR01 2026-0001-5'],
      ['2026-11-28', '-87.90', 'Režije studeni', null],
      ['2026-12-01', '0.12', 'Kamata', null],
    ]);
  });

  it('a Bosnian export: comma-delimited, Svrha, Isplata/Uplata with quoted decimal-comma amounts, Referenca', async () => {
    const bank = await newBank('BAM');
    const res = await importCsv(bank.id, example('izvod-ba.csv'));
    expect(res.json()).toEqual({ imported: 2, duplicates: 0, errors: [] });
    expect(await rows(bank.id)).toEqual([
      ['2026-11-27', '-2450.00', 'Plata za novembar', null],
      ['2026-11-28', '1170.00', 'Uplata kupca, Mostar', 'R-77'],
    ]);
  });

  it("the specification's own format (Date, Description, Amount, Reference) still imports as before", async () => {
    const bank = await newBank();
    expect((await importCsv(bank.id, example('statement.csv'))).json()).toEqual({
      imported: 2,
      duplicates: 0,
      errors: [],
    });
    expect(await rows(bank.id)).toEqual([
      ['2026-11-27', '1500.00', 'Customer payment', 'INV-2026-0001'],
      ['2026-11-28', '-400.50', 'Office rent', null],
    ]);
  });
});

describe('local headers, dates and amounts', () => {
  it('finds the columns by name in any order, ignores other columns and counts a re-import as duplicates', async () => {
    const bank = await newBank();
    const csv =
      'Stanje;Iznos;Opis;Broj;Datum\n10.000,00;-1.000,00;Kirija;7;01.12.2026\n9.000,00;2.500,5;Uplata;8;2.12.2026\n';
    expect((await importCsv(bank.id, csv)).json()).toEqual({ imported: 2, duplicates: 0, errors: [] });
    expect((await importCsv(bank.id, csv)).json()).toEqual({ imported: 0, duplicates: 2, errors: [] });
    expect(await rows(bank.id)).toEqual([
      ['2026-12-01', '-1000.00', 'Kirija', null],
      ['2026-12-02', '2500.50', 'Uplata', null],
    ]);
  });

  it('reads Cyrillic headers and a value date when it is the only date', async () => {
    const bank = await newBank();
    const csv = 'Датум валуте;Опис;Износ\n03.12.2026;Уплата;100,00\n';
    expect((await importCsv(bank.id, csv)).json()).toEqual({ imported: 1, duplicates: 0, errors: [] });
    expect(await rows(bank.id)).toEqual([['2026-12-03', '100.00', 'Уплата', null]]);
  });

  it('reports rows with both, neither or a bad split amount, and an impossible local date, with their lines', async () => {
    const bank = await newBank();
    const csv = [
      'Datum;Opis;Duguje;Potražuje', // 1
      '01.12.2026;oba;10,00;20,00', // 2
      '01.12.2026;nijedan;0,00;', // 3
      '01.12.2026;loš;deset;', // 4
      '31.11.2026;nemoguć datum;1,00;', // 5
      '01.12.2026;dobar;;5,00', // 6
    ].join('\n');
    const body = (await importCsv(bank.id, csv)).json();
    expect(body.imported).toBe(1);
    expect(body.errors.map((e: { line: number }) => e.line)).toEqual([2, 3, 4, 5]);
    // In the organization's language (sr): "both money out and money in carry an amount".
    expect(body.errors[0].error).toBe('i isplata i uplata imaju iznos');
    expect(body.errors[3].error).toContain('DD.MM.GGGG');
  });

  it('answers 422 SVC-5006 naming the accepted names when a local header has no amount column', async () => {
    const bank = await newBank();
    const res = await importCsv(bank.id, 'Datum;Opis;Saldo\n01.12.2026;x;1\n');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-5006');
    expect(res.json().error.details.file[0]).toMatch(/^red 1: .*Iznos.*Duguje i Potražuje/);
  });

  it('answers 422 SVC-5008 when every row has a date in neither form', async () => {
    const bank = await newBank();
    const res = await importCsv(bank.id, 'Datum;Opis;Iznos\n2026/12/01;x;1,00\n12-01-2026;y;2,00\n');
    expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-5008']);
  });
});

describe('the pieces', () => {
  it('reduce header names to compare them', () => {
    expect(headerKey(' Potražuje (RSD): ')).toBe('potrazuje');
    expect(headerKey('DATUM VALUTE')).toBe('datum valute');
    expect(headerKey('Датум валуте')).toBe('datum valute');
    expect(headerKey('Opis plaćanja')).toBe('opis placanja');
    expect(headerKey('Poziv na broj [odobrenja]')).toBe('poziv na broj');
  });

  it('prefer the booking date to the value date and the amount column to split ones', () => {
    expect(columnsOf(['Datum valute', 'Datum', 'Opis', 'Duguje', 'Potražuje', 'Iznos'])).toMatchObject({
      date: 1,
      description: 2,
      amount: 5,
    });
    expect(columnsOf(['2026-01-01', 'x', '1'])).toBeNull();
    expect(columnsOf(['Date', 'Foo', 'Bar'])).toMatchObject({ header: true, date: 0, description: 1, amount: 2 });
  });

  it('read local dates and decimal commas', () => {
    expect(localDate('27.11.2026')).toBe('2026-11-27');
    expect(localDate('27.11.2026.')).toBe('2026-11-27');
    expect(localDate('1. 2. 2026.')).toBe('2026-02-01');
    expect(localDate('27.11.2026 14:05:00')).toBe('2026-11-27');
    expect(localDate('2026-11-27')).toBeNull();
    expect(localDate('11/27/2026')).toBeNull();
    expect(normaliseAmount('-1.234,56', 2)).toBe('-1234.56');
    expect(normaliseAmount('1 234 567,80', 2)).toBe('1234567.8');
    expect(normaliseAmount('1234,5', 2)).toBe('1234.5');
    expect(normaliseAmount('1,234.56', 2)).toBeNull();
    expect(normaliseAmount('0,00', 2)).toBeNull();
  });
});

describe('the import summary in the organization’s language (issue 25)', () => {
  it('gives each refused row’s reason in sr, bs or hr, line numbers kept', async () => {
    const csv = [
      'Datum;Opis;Iznos;Poziv na broj',
      '27.11.2026;Uplata kupca;1.500,00;97 12-345',
      '31.02.2026;Nepostojeći datum;100,00;',
      '28.11.2026;Bez iznosa;abc;',
      '29.11.2026;Kratak red',
      `30.11.2026;${'x'.repeat(501)};10,00;`,
    ].join('\n');
    // An organization speaks sr, bs or hr (A2); the English texts are the importer's own.
    const ENGLISH = /\b(is|not|a|date|amount|expected|columns|found|longer|than|characters|with|at|most)\b/;
    const summaries: Record<string, Array<{ line: number; error: string }>> = {};
    for (const language of ['sr', 'bs', 'hr'] as const) {
      const put = await t.app.inject(
        authed(owner.token, { method: 'PUT', url: '/api/v1/organization', payload: { language } }),
      );
      expect(put.statusCode).toBe(200);
      const res = await importCsv((await newBank()).id, csv);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().imported).toBe(1);
      summaries[language] = res.json().errors;
      expect(summaries[language].map((e) => e.line)).toEqual([3, 4, 5, 6]);
      for (const e of summaries[language]) expect(e.error, `${language} line ${e.line}`).not.toMatch(ENGLISH);
    }
    expect(summaries.sr[0].error).toBe('datum "31.02.2026" nije datum (GGGG-MM-DD ili DD.MM.GGGG)');
    expect(summaries.sr[1].error).toBe('iznos "abc" nije decimalni broj različit od nule sa najviše 2 decimala');
    expect(summaries.hr[2].error).toBe('broj stupaca: očekivano najmanje 3, pronađeno 2');
    expect(summaries.bs[3].error).toBe('opis je duži od 500 znakova');
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';

// Issue 25 item 1: every multipart route answers a broken form with a 4xx in the catalog envelope
// (never 500 SVC-9004) and writes nothing.
let h: TestApp;
let owner: Session;
let bankId: string;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const CSV = 'Date,Description,Amount\r\n2026-01-05,Payment,100.00\r\n';
const B = 'xB0undary';
const CT = `multipart/form-data; boundary=${B}`;
const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, filename: string, type: string, data: string | Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from('\r\n'),
  ]);
const close = `--${B}--\r\n`;
const EXPENSE_FIELDS = field('expenseDate', '2026-05-04') + field('category', 'Travel') + field('amount', '10.00');

interface Case {
  name: string;
  contentType?: string;
  body: Buffer;
  status: number;
  code: string;
  field: string;
}

/** The cases of item 1 for a route whose file field is `fileField`, valid otherwise. */
function cases(fileField: string, fields: string, good: { filename: string; type: string; data: string | Buffer }) {
  const file = filePart(fileField, good.filename, good.type, good.data);
  const text = (s: string) => Buffer.from(s);
  return (expect: { empty: [number, string, string]; textField: [number, string, string] }): Case[] => [
    {
      name: 'a body whose closing boundary never comes',
      body: Buffer.concat([text(fields), file]),
      status: 422,
      code: 'SVC-9003',
      field: 'body',
    },
    {
      name: 'a content type without its boundary parameter',
      contentType: 'multipart/form-data',
      body: Buffer.concat([text(fields), file, text(close)]),
      status: 422,
      code: 'SVC-9003',
      field: 'body',
    },
    {
      name: 'a part without Content-Disposition',
      body: Buffer.concat([
        text(fields),
        text(`--${B}\r\nContent-Type: ${good.type}\r\n\r\n`),
        Buffer.isBuffer(good.data) ? good.data : text(good.data),
        text(`\r\n${close}`),
      ]),
      status: 422,
      code: 'SVC-9003',
      field: 'body',
    },
    {
      name: 'two file parts',
      body: Buffer.concat([text(fields), file, filePart('second', good.filename, good.type, good.data), text(close)]),
      status: 422,
      code: 'SVC-9003',
      field: 'second',
    },
    {
      name: 'an empty file',
      body: Buffer.concat([text(fields), filePart(fileField, good.filename, good.type, ''), text(close)]),
      status: expect.empty[0],
      code: expect.empty[1],
      field: expect.empty[2],
    },
    {
      name: 'a text field where the file belongs',
      body: text(fields + field(fileField, 'not a file') + close),
      status: expect.textField[0],
      code: expect.textField[1],
      field: expect.textField[2],
    },
    {
      name: 'a body cut off inside the file',
      body: Buffer.concat([text(fields), file.subarray(0, file.length - 6)]),
      status: 422,
      code: 'SVC-9003',
      field: 'body',
    },
    {
      name: 'a body cut off inside a part header',
      body: text(`${fields}--${B}\r\nContent-Disposition: form-da`),
      status: 422,
      code: 'SVC-9003',
      field: 'body',
    },
  ];
}

beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(h.app);
  const accounts = await h.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/accounts' }));
  const ledger = (accounts.json().data ?? accounts.json()).find((a: { code: string }) => a.code === '1100');
  const bank = await h.app.inject(
    authed(owner.token, {
      method: 'POST',
      url: '/api/v1/bank-accounts',
      payload: {
        accountId: ledger.id,
        bankName: 'Banka',
        accountNumber: '160-0000000000000-00',
        iban: 'RS35260005601001611379',
        currencyCode: 'RSD',
      },
    }),
  );
  expect(bank.statusCode).toBe(201);
  bankId = bank.json().id;
}, 60_000);
afterAll(() => h?.close());

async function rows(table: 'bank_transactions' | 'expenses'): Promise<number> {
  const res = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(table)}`.execute(h.t.db.system);
  return Number(res.rows[0].n);
}

const routes = [
  {
    route: 'POST /bank-accounts/:id/import',
    url: () => `/api/v1/bank-accounts/${bankId}/import`,
    table: 'bank_transactions' as const,
    cases: cases('file', '', { filename: 'a.csv', type: 'text/csv', data: CSV })({
      empty: [422, 'SVC-5006', 'file'],
      textField: [422, 'SVC-5006', 'file'],
    }),
    good: Buffer.concat([filePart('file', 'a.csv', 'text/csv', CSV), Buffer.from(close)]),
  },
  {
    route: 'POST /expenses',
    url: () => '/api/v1/expenses',
    table: 'expenses' as const,
    cases: cases('receiptFile', EXPENSE_FIELDS, { filename: 'r.png', type: 'image/png', data: PNG })({
      empty: [422, 'SVC-4006', 'receiptFile'],
      textField: [422, 'SVC-9003', 'receiptFile'],
    }),
    good: Buffer.concat([
      Buffer.from(EXPENSE_FIELDS),
      filePart('receiptFile', 'r.png', 'image/png', PNG),
      Buffer.from(close),
    ]),
  },
];

describe.each(routes)('$route with a broken multipart form', (r) => {
  it.each(r.cases)('answers $name with $status $code naming $field and writes nothing', async (c) => {
    const before = await rows(r.table);
    const res = await h.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: r.url(),
        headers: { 'content-type': c.contentType ?? CT },
        payload: c.body,
      }),
    );
    expect([res.statusCode, res.json().error?.code]).toEqual([c.status, c.code]);
    expect(Object.keys(res.json().error.details ?? {})).toContain(c.field);
    expect(await rows(r.table)).toBe(before);
  });

  it('still accepts the well-formed form the cases were made from', async () => {
    const res = await h.app.inject(
      authed(owner.token, { method: 'POST', url: r.url(), headers: { 'content-type': CT }, payload: r.good }),
    );
    expect(res.statusCode).toBeLessThan(300);
  });
});

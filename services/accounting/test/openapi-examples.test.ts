import { writeFileSync } from 'node:fs';
import {
  exampleProblems,
  openApiOperations,
  requestOf,
  responseOf,
  schemaProblems,
  undocumented,
} from '@app/shared/test/openapi-docs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, freshIp, type TestApp } from './helpers.js';

// Issue 25 item 6: the examples the reference page (/docs) shows cannot rot. Every example of the
// document fits its own schema, and each main operation's example request, sent to the app on a
// fresh database, is answered with the documented success status and a body that fits the
// documented answer schema. Only references to records the database makes (ids) are replaced by
// the fixtures' own; every other field is sent as the example shows it.
type Json = Record<string, any>;

let h: TestApp;
let ops: Map<string, Json>;

beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  ops = new Map(await openApiOperations(h.app));
});
afterAll(() => h?.close());

/** The main operations (issue 25 item 6): each shows an example answer, and one request when it takes a body. */
const MAIN = [
  'POST /api/v1/auth/register',
  'POST /api/v1/auth/login',
  'POST /api/v1/contacts',
  'POST /api/v1/invoices',
  'GET /api/v1/invoices',
  'GET /api/v1/invoices/{id}',
  'POST /api/v1/expenses',
  'GET /api/v1/reports/dashboard',
  'GET /api/v1/reports/profit-loss',
  'GET /api/v1/reports/balance-sheet',
  'GET /api/v1/reports/cash-flow',
  'GET /api/v1/reports/vat',
  'GET /api/v1/reports/trial-balance',
];

const answers: Record<string, unknown> = {};

/**
 * Sends an operation's example request (with `refs` put in place of the example's ids) to `url`
 * and checks the answer against the operation's documented success status and schema.
 */
async function send(name: string, opts: { url?: string; token?: string; refs?: Json } = {}): Promise<Json> {
  const op = ops.get(name);
  if (!op) throw new Error(`${name} is not in the document`);
  const [method, path] = name.split(' ');
  const { example } = requestOf(op);
  for (const key of Object.keys(opts.refs ?? {})) expect(example, `${name}: ${key}`).toHaveProperty(key);
  const res = await h.app.inject({
    method: method as 'GET',
    url: opts.url ?? path,
    remoteAddress: freshIp(),
    headers: opts.token ? { authorization: `Bearer ${opts.token}`, 'accept-language': 'en' } : {},
    ...(example === undefined ? {} : { payload: { ...(example as Json), ...opts.refs } }),
  });
  const documented = responseOf(op);
  expect(res.statusCode, `${name}: ${res.body}`).toBe(Number(documented.status));
  const body = res.json();
  answers[name] = body;
  expect(schemaProblems(documented.schema, body), name).toEqual([]);
  return body;
}

describe('the examples of the OpenAPI document', () => {
  it('give every operation a summary and a description', () => {
    expect(undocumented([...ops])).toEqual([]);
  });

  it('show an example answer on every main operation and an example request on those that take a body', () => {
    const missing: string[] = [];
    for (const name of MAIN) {
      const op = ops.get(name);
      if (!op) {
        missing.push(`${name}: not in the document`);
        continue;
      }
      const request = requestOf(op);
      if (request.schema && request.example === undefined) missing.push(`${name}: request`);
      if (responseOf(op).example === undefined) missing.push(`${name}: answer`);
    }
    expect(missing).toEqual([]);
  });

  it('list the sort keys and orders of every listing as enums, and the app refuses another value (400 SVC-9008)', async () => {
    const listings = [...ops].filter(([, op]) => (op.parameters ?? []).some((p: Json) => p.name === 'sort'));
    expect(listings.length).toBeGreaterThan(3);
    for (const [name, op] of listings) {
      const param = (n: string) => op.parameters.find((p: Json) => p.name === n).schema;
      expect(param('sort').enum?.length, name).toBeGreaterThan(0);
      expect(param('order').enum, name).toEqual(['asc', 'desc']);
    }
    const owner = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: freshIp(),
      payload: { ...(requestOf(ops.get('POST /api/v1/auth/register')!).example as Json), email: 'sort@example.test' },
    });
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/v1/invoices?sort=secret',
      headers: { authorization: `Bearer ${owner.json().tokens.accessToken}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('SVC-9008');
    expect(res.json().error.details.sort[0]).toContain('invoiceDate');
  });

  it('fit their own schemas (every request and answer example of the document)', () => {
    expect(exampleProblems([...ops])).toEqual([]);
  });

  it('are accepted by the app as documented when sent to it, and its answers fit the documented schemas', async () => {
    const registered = await send('POST /api/v1/auth/register');
    const token = registered.tokens.accessToken as string;
    await send('POST /api/v1/auth/login');
    const contact = await send('POST /api/v1/contacts', { token });
    const invoice = await send('POST /api/v1/invoices', { token, refs: { customerId: contact.id } });
    await send('GET /api/v1/invoices', { token });
    await send('GET /api/v1/invoices/{id}', { token, url: `/api/v1/invoices/${invoice.id}` });
    const expense = await send('POST /api/v1/expenses', { token });
    // Posted, so the reports below answer rows and not only totals.
    for (const [url, payload] of [
      [`/api/v1/invoices/${invoice.id}/status`, { action: 'send' }],
      [`/api/v1/expenses/${expense.id}/approve`, {}],
    ] as const) {
      const res = await h.app.inject({ method: 'PATCH', url, payload, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, res.body).toBe(200);
    }
    await send('GET /api/v1/reports/dashboard', { token });
    await send('GET /api/v1/reports/profit-loss', {
      token,
      url: '/api/v1/reports/profit-loss?from=2026-01-01&to=2026-12-31',
    });
    await send('GET /api/v1/reports/balance-sheet', { token, url: '/api/v1/reports/balance-sheet?date=2026-12-31' });
    await send('GET /api/v1/reports/cash-flow', {
      token,
      url: '/api/v1/reports/cash-flow?from=2026-01-01&to=2026-12-31',
    });
    await send('GET /api/v1/reports/vat', { token, url: '/api/v1/reports/vat?from=2026-01-01&to=2026-12-31' });
    await send('GET /api/v1/reports/trial-balance', { token, url: '/api/v1/reports/trial-balance?date=2026-12-31' });
    if (process.env.DUMP_EXAMPLES) writeFileSync(process.env.DUMP_EXAMPLES, JSON.stringify(answers, null, 2));
  });
});

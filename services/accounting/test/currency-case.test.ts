import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, invoiceBody } from './invoices-fixtures.js';

// Issue 25: a currency code is taken in either case on every route and stored and answered
// upper-case (docs/decisions.md, "Currency codes are case-insensitive on input"). Invoices,
// expenses and bank accounts refused `rsd` while contacts, accounts and journal entries took it.
let t: TestApp;
let owner: Session;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, { baseCurrency: 'RSD' });
});
afterAll(() => t?.close());

const post = (url: string, payload: object) =>
  t.app.inject(authed(owner.token, { method: 'POST', url, payload })).then((r) => ({
    status: r.statusCode,
    body: r.json(),
  }));

describe('currency codes in requests', () => {
  it('are accepted in lower case and answered upper-case on every route that takes one', async () => {
    const accounts = await t.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/accounts' }));
    const ids = Object.fromEntries(accounts.json().data.map((a: { code: string; id: string }) => [a.code, a.id]));
    const customer = await createCustomer(t.app, owner, { currencyCode: 'rsd' });
    expect(customer.currencyCode).toBe('RSD');
    const answers = {
      invoice: await post('/api/v1/invoices', invoiceBody(customer.id, { currencyCode: 'rsd' })),
      expense: await post('/api/v1/expenses', {
        expenseDate: '2026-03-10',
        category: 'Kancelarija',
        amount: 1200,
        currencyCode: 'rsd',
      }),
      bankAccount: await post('/api/v1/bank-accounts', {
        accountId: ids['1100'],
        bankName: 'Banka',
        currencyCode: 'rsd',
      }),
      account: await post('/api/v1/accounts', {
        code: '1190',
        name: 'Blagajna 2',
        accountTypeId: 1,
        currencyCode: 'rsd',
      }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect(answer.body.currencyCode, what).toBe('RSD');
    }
  });

  it('still refuse what is not three letters (422 naming currencyCode)', async () => {
    const customer = await createCustomer(t.app, owner);
    for (const code of ['rs', 'rsd1', 'r$d']) {
      const answer = await post('/api/v1/invoices', invoiceBody(customer.id, { currencyCode: code }));
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.error.details)).toContain('currencyCode');
    }
  });
});

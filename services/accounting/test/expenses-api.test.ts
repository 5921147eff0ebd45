import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, postingsOf, trialBalance } from './invoices-fixtures.js';

let t: TestApp;
let owner: Session;
let admin: Session;
let accountant: Session;
let viewer: Session;
let vendorId: string;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, { baseCurrency: 'RSD', language: 'sr' });
  admin = await addMember(t.app, owner, 'admin');
  accountant = await addMember(t.app, owner, 'accountant');
  viewer = await addMember(t.app, owner, 'viewer');
  vendorId = (await createCustomer(t.app, owner, { type: 'vendor', name: 'Dobavljač d.o.o.' })).id;
});
afterAll(async () => t?.close());

const inject = (s: Session, method: string, url: string, payload?: unknown) =>
  t.app.inject(
    authed(s.token, { method: method as 'GET', url, ...(payload === undefined ? {} : { payload: payload as object }) }),
  );

const body = (overrides: Record<string, unknown> = {}) => ({
  vendorId,
  expenseDate: '2026-03-10',
  category: 'Office',
  amount: 1200,
  taxAmount: 200,
  paymentMethod: 'bank_transfer',
  description: 'Papir',
  ...overrides,
});

async function create(s: Session, overrides: Record<string, unknown> = {}) {
  const res = await inject(s, 'POST', '/api/v1/expenses', body(overrides));
  if (res.statusCode !== 201) throw new Error(`expense: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function accountId(s: Session, code: string): Promise<string> {
  const res = await inject(s, 'GET', '/api/v1/accounts');
  return res.json().data.find((a: { code: string }) => a.code === code).id;
}

describe('creating and reading expenses', () => {
  it('creates a pending expense with a generated number, the vendor name and amounts with the currency decimals', async () => {
    const e = await create(accountant);
    expect(e).toMatchObject({
      status: 'pending',
      vendorId,
      vendorName: 'Dobavljač d.o.o.',
      expenseDate: '2026-03-10',
      category: 'Office',
      amount: '1200.00',
      taxAmount: '200.00',
      currencyCode: 'RSD',
      exchangeRate: '1.000000',
      baseAmount: '1200.00',
      paymentMethod: 'bank_transfer',
      description: 'Papir',
      receiptUrl: null,
      createdBy: accountant.userId,
      approvedBy: null,
      approvedAt: null,
    });
    expect(e.expenseNumber).toMatch(/^EXP-2026-\d{4}$/);
    const got = await inject(viewer, 'GET', `/api/v1/expenses/${e.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(e);
    const audit = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM logged_actions WHERE table_name = 'expenses' AND record_id = ${e.id}`.execute(
      t.t.db.system,
    );
    expect(audit.rows[0].n).toBe('1');
  });

  it('numbers expenses consecutively per organization and year of the expense date', async () => {
    const a = await create(owner, { expenseDate: '2031-02-01' });
    const b = await create(owner, { expenseDate: '2031-07-01' });
    const c = await create(owner, { expenseDate: '2032-01-01' });
    expect([a.expenseNumber, b.expenseNumber, c.expenseNumber]).toEqual([
      'EXP-2031-0001',
      'EXP-2031-0002',
      'EXP-2032-0001',
    ]);
    const other = await registerOrg(t.app);
    const d = await inject(other, 'POST', '/api/v1/expenses', body({ vendorId: undefined, expenseDate: '2031-02-01' }));
    expect(d.json().expenseNumber).toBe('EXP-2031-0001');
  });

  it('gives concurrent creations distinct, gapless numbers', async () => {
    const s = await registerOrg(t.app);
    const made = await Promise.all(
      Array.from({ length: 8 }, () =>
        inject(s, 'POST', '/api/v1/expenses', body({ vendorId: undefined, expenseDate: '2033-01-01' })),
      ),
    );
    expect(made.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(made.map((r) => r.json().expenseNumber).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `EXP-2033-000${i + 1}`),
    );
  });

  it('converts a foreign-currency expense at the rate in force on the expense date', async () => {
    const rate = await inject(owner, 'POST', '/api/v1/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 117.123456,
      effectiveDate: '2030-06-01',
    });
    expect(rate.statusCode).toBe(201);
    const e = await create(owner, { expenseDate: '2030-06-02', currencyCode: 'EUR', amount: 100.01, taxAmount: 0 });
    // 100.01 x 117.123456 = 11713.51683... -> 11713.52
    expect([e.currencyCode, e.exchangeRate, e.amount, e.baseAmount]).toEqual([
      'EUR',
      '117.123456',
      '100.01',
      '11713.52',
    ]);
  });

  it.each([
    ['a zero amount', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -5 }, 'amount'],
    ['an amount as the string "Infinity"', { amount: 'Infinity' }, 'amount'],
    ['more decimals than the currency has', { amount: 10.001 }, 'amount'],
    ['a negative tax amount', { taxAmount: -1 }, 'taxAmount'],
    ['a tax amount above the gross amount', { amount: 100, taxAmount: 100.01 }, 'taxAmount'],
    ['a missing category', { category: undefined }, 'category'],
    ['a blank category', { category: '   ' }, 'category'],
    ['a missing expense date', { expenseDate: undefined }, 'expenseDate'],
    ['an impossible date', { expenseDate: '2026-02-30' }, 'expenseDate'],
    ['an unknown currency', { currencyCode: 'XXX' }, 'currencyCode'],
  ])('refuses %s with 422 SVC-9003', async (_name, overrides, field) => {
    const res = await inject(owner, 'POST', '/api/v1/expenses', body(overrides));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details)).toContain(field);
  });

  it('refuses an account that is not an active Expense account', async () => {
    const res = await inject(owner, 'POST', '/api/v1/expenses', body({ accountId: await accountId(owner, '4000') }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.accountId).toBeDefined();
  });

  it('answers 404 SVC-4004 for a vendor of another organization, a customer-only contact or an unknown id', async () => {
    const other = await registerOrg(t.app);
    const foreign = await createCustomer(t.app, other, { type: 'vendor' });
    const customer = await createCustomer(t.app, owner, { type: 'customer' });
    for (const id of [foreign.id, customer.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await inject(owner, 'POST', '/api/v1/expenses', body({ vendorId: id }));
      expect([id, res.statusCode, res.json().error.code]).toEqual([id, 404, 'SVC-4004']);
    }
  });

  it('answers 404 SVC-4001 for an unknown expense and 404 SVC-9002 for an id that is not a UUID', async () => {
    expect(
      (await inject(owner, 'GET', '/api/v1/expenses/00000000-0000-4000-8000-000000000000')).json().error.code,
    ).toBe('SVC-4001');
    expect((await inject(owner, 'GET', '/api/v1/expenses/nope')).json().error.code).toBe('SVC-9002');
  });
});

describe('listing expenses', () => {
  let s: Session;
  let v2: string;
  beforeAll(async () => {
    s = await registerOrg(t.app);
    const v1 = (await createCustomer(t.app, s, { type: 'vendor', name: 'A' })).id;
    v2 = (await createCustomer(t.app, s, { type: 'both', name: 'B' })).id;
    await create(s, { vendorId: v1, expenseDate: '2026-01-05', category: 'Travel', amount: 10, taxAmount: 0 });
    await create(s, { vendorId: v2, expenseDate: '2026-02-05', category: 'Office', amount: 30, taxAmount: 0 });
    const third = await create(s, {
      vendorId: v2,
      expenseDate: '2026-03-05',
      category: 'Office',
      amount: 20,
      taxAmount: 0,
    });
    await inject(s, 'PATCH', `/api/v1/expenses/${third.id}/approve`);
  });
  const list = async (query: string) => (await inject(s, 'GET', `/api/v1/expenses?${query}`)).json();

  it('filters by status, category, vendor and date range, newest first by default', async () => {
    expect((await list('')).data.map((e: any) => e.expenseDate)).toEqual(['2026-03-05', '2026-02-05', '2026-01-05']);
    expect((await list('status=approved')).data.map((e: any) => e.expenseDate)).toEqual(['2026-03-05']);
    expect((await list('category=Office')).meta.total).toBe(2);
    expect((await list(`vendorId=${v2}`)).data.map((e: any) => e.vendorName)).toEqual(['B', 'B']);
    expect((await list('fromDate=2026-02-01&toDate=2026-02-28')).data.map((e: any) => e.expenseDate)).toEqual([
      '2026-02-05',
    ]);
  });

  it('sorts, paginates and shows the summary fields only', async () => {
    const page = await list('sort=amount&order=asc&perPage=2&page=2');
    expect(page.meta).toEqual({ total: 3, page: 2, perPage: 2, totalPages: 2 });
    expect(page.data.map((e: any) => e.amount)).toEqual(['30.00']);
    expect(Object.keys(page.data[0]).sort()).toEqual(
      [
        'amount',
        'category',
        'createdAt',
        'currencyCode',
        'expenseDate',
        'expenseNumber',
        'id',
        'receiptUrl',
        'status',
        'vendorId',
        'vendorName',
      ].sort(),
    );
  });

  it('answers 400 SVC-9008 for bad pagination and 422 for a bad status', async () => {
    expect((await inject(s, 'GET', '/api/v1/expenses?perPage=101')).json().error.code).toBe('SVC-9008');
    expect((await inject(s, 'GET', '/api/v1/expenses?sort=nope')).json().error.code).toBe('SVC-9008');
    expect((await inject(s, 'GET', '/api/v1/expenses?status=open')).statusCode).toBe(422);
  });
});

describe('updating and deleting', () => {
  it('updates the given fields of a pending expense and recomputes the amounts', async () => {
    const e = await create(owner);
    const res = await inject(accountant, 'PUT', `/api/v1/expenses/${e.id}`, {
      amount: 500,
      taxAmount: 0,
      category: 'Rent',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      amount: '500.00',
      taxAmount: '0.00',
      baseAmount: '500.00',
      category: 'Rent',
      vendorId,
      description: 'Papir',
    });
  });

  it('refuses to move the expense date into another year (the number carries it)', async () => {
    const e = await create(owner);
    const res = await inject(owner, 'PUT', `/api/v1/expenses/${e.id}`, { expenseDate: '2027-01-01' });
    expect(res.statusCode).toBe(422);
  });

  it('answers 400 SVC-4002 with details.status to PUT or DELETE of an approved, paid or rejected expense', async () => {
    const approved = await create(owner);
    await inject(owner, 'PATCH', `/api/v1/expenses/${approved.id}/approve`);
    const rejected = await create(owner);
    await inject(owner, 'PATCH', `/api/v1/expenses/${rejected.id}/reject`, { reason: 'duplicate' });
    for (const e of [approved, rejected]) {
      const put = await inject(owner, 'PUT', `/api/v1/expenses/${e.id}`, { amount: 1 });
      expect([put.statusCode, put.json().error.code]).toEqual([400, 'SVC-4002']);
      const del = await inject(owner, 'DELETE', `/api/v1/expenses/${e.id}`);
      expect([del.statusCode, del.json().error.code]).toEqual([400, 'SVC-4002']);
    }
    const put = await inject(owner, 'PUT', `/api/v1/expenses/${approved.id}`, { amount: 1 });
    expect(put.json().error.details.status).toEqual(['approved']);
  });

  it('deletes a pending expense (204) and then answers 404', async () => {
    const e = await create(owner);
    expect((await inject(admin, 'DELETE', `/api/v1/expenses/${e.id}`)).statusCode).toBe(204);
    expect((await inject(owner, 'GET', `/api/v1/expenses/${e.id}`)).json().error.code).toBe('SVC-4001');
  });
});

describe('approval, rejection and payment (A8, A12)', () => {
  it('refuses approval by an accountant with 403 SVC-9001', async () => {
    const e = await create(owner);
    const res = await inject(accountant, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'SVC-9001',
      details: { required: ['owner', 'admin'], current: ['accountant'] },
    });
    expect((await inject(owner, 'GET', `/api/v1/expenses/${e.id}`)).json().status).toBe('pending');
  });

  it('approve without VAT: Dr 5000 / Cr 2110 for the amount, locked, referenceType expense', async () => {
    const e = await create(owner, { amount: 750.5, taxAmount: 0 });
    const res = await inject(admin, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', approvedBy: admin.userId });
    expect(res.json().approvedAt).toEqual(expect.any(String));
    const postings = await postingsOf(t.t.db, owner.orgId, e.id);
    expect(postings.map((p) => [p.debit, p.credit, p.amount, p.base_amount, p.reference_type, p.locked])).toEqual([
      ['5000', '2110', '750.5000', '750.5000', 'expense', true],
    ]);
  });

  it('approve with VAT: the net on the expense account given and the VAT on 1300, both against 2110', async () => {
    const e = await create(owner, { amount: 1200, taxAmount: 200, accountId: await accountId(owner, '5300') });
    await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    const postings = await postingsOf(t.t.db, owner.orgId, e.id);
    expect(postings.map((p) => [p.debit, p.credit, p.amount]).sort()).toEqual([
      ['1300', '2110', '200.0000'],
      ['5300', '2110', '1000.0000'],
    ]);
  });

  it('approve and pay in a foreign currency: postings in EUR with the expense rate and base amounts in RSD', async () => {
    await inject(owner, 'POST', '/api/v1/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 117.5,
      effectiveDate: '2029-01-01',
    });
    const e = await create(owner, { expenseDate: '2029-01-10', currencyCode: 'EUR', amount: 121, taxAmount: 21 });
    await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    const pay = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2029-01-20' });
    expect(pay.statusCode).toBe(200);
    expect(pay.json()).toMatchObject({ status: 'paid', paidAt: '2029-01-20', paidBankAccountId: null });
    const postings = await postingsOf(t.t.db, owner.orgId, e.id);
    expect(
      postings.map((p) => [p.debit, p.credit, p.amount, p.exchange_rate, p.base_amount, p.reference_type]).sort(),
    ).toEqual([
      ['1300', '2110', '21.0000', '117.500000', '2467.5000', 'expense'],
      ['2110', '1100', '121.0000', '117.500000', '14217.5000', 'payment'],
      ['5000', '2110', '100.0000', '117.500000', '11750.0000', 'expense'],
    ]);
  });

  it('keeps the books balanced through approvals and payments', async () => {
    const tb = await trialBalance(t.t.db, owner.orgId);
    expect(tb.ledgerDebit).toBe(tb.ledgerCredit);
    expect(tb.balanceDebit).toBe(tb.balanceCredit);
  });

  it('answers 400 SVC-4003 with details.status for approve, reject or pay from the wrong status, with no postings', async () => {
    const e = await create(owner);
    const pay = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2026-04-01' });
    expect([pay.statusCode, pay.json().error.code, pay.json().error.details.status]).toEqual([
      400,
      'SVC-4003',
      ['pending'],
    ]);
    await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    for (const action of ['approve', 'reject']) {
      const res = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/${action}`, {});
      expect([action, res.statusCode, res.json().error.code, res.json().error.details.status]).toEqual([
        action,
        400,
        'SVC-4003',
        ['approved'],
      ]);
    }
    await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2026-04-01' });
    const again = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2026-04-01' });
    expect(again.json().error.details.status).toEqual(['paid']);
    expect((await postingsOf(t.t.db, owner.orgId, e.id)).length).toBe(3);
  });

  it('rejects a pending expense with a reason and then refuses approval', async () => {
    const e = await create(owner);
    const res = await inject(admin, 'PATCH', `/api/v1/expenses/${e.id}/reject`, { reason: 'Nije naš trošak' });
    expect(res.json()).toMatchObject({ status: 'rejected', rejectionReason: 'Nije naš trošak' });
    const approve = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    expect([approve.statusCode, approve.json().error.details.status]).toEqual([400, ['rejected']]);
    expect(await postingsOf(t.t.db, owner.orgId, e.id)).toEqual([]);
  });

  it('rejects without a body', async () => {
    const e = await create(owner);
    const res = await t.app.inject(authed(owner.token, { method: 'PATCH', url: `/api/v1/expenses/${e.id}/reject` }));
    expect(res.json()).toMatchObject({ status: 'rejected', rejectionReason: null });
  });

  it('pay: 404 SVC-5001 for an unknown bank account, 422 for a date before the expense date, nothing written', async () => {
    const e = await create(owner);
    await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    const unknown = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, {
      paidAt: '2026-04-01',
      bankAccountId: '00000000-0000-4000-8000-000000000000',
    });
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'SVC-5001']);
    const early = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2026-03-01' });
    expect(early.statusCode).toBe(422);
    const missing = await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/pay`, {});
    expect(missing.json().error.details.paidAt).toBeDefined();
    expect((await inject(owner, 'GET', `/api/v1/expenses/${e.id}`)).json().status).toBe('approved');
    expect((await postingsOf(t.t.db, owner.orgId, e.id)).length).toBe(2);
  });
});

describe('contacts with expenses (SVC-7003)', () => {
  it('refuses to delete a vendor while it has expenses that are not rejected, and allows it once they are', async () => {
    const v = (await createCustomer(t.app, owner, { type: 'vendor', name: 'Privremeni' })).id;
    const e = await create(owner, { vendorId: v });
    const refused = await inject(owner, 'DELETE', `/api/v1/contacts/${v}`);
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'SVC-7003']);
    await inject(owner, 'PATCH', `/api/v1/expenses/${e.id}/reject`, {});
    expect((await inject(owner, 'DELETE', `/api/v1/contacts/${v}`)).statusCode).toBe(204);
  });
});

describe('another organization', () => {
  it('answers 404 on every expense route with an id and changes nothing', async () => {
    const e = await create(owner);
    const intruder = await registerOrg(t.app);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', ''],
      ['PUT', '', { amount: 1 }],
      ['DELETE', ''],
      ['PATCH', '/approve'],
      ['PATCH', '/reject', {}],
      ['PATCH', '/pay', { paidAt: '2026-04-01' }],
      ['GET', '/receipt'],
    ];
    for (const [method, suffix, payload] of calls) {
      const res = await inject(intruder, method, `/api/v1/expenses/${e.id}${suffix}`, payload);
      expect([method, suffix, res.statusCode, res.json().error.code]).toEqual([method, suffix, 404, 'SVC-4001']);
    }
    const after = (await inject(owner, 'GET', `/api/v1/expenses/${e.id}`)).json();
    expect(after).toEqual(e);
    expect((await inject(intruder, 'GET', '/api/v1/expenses')).json().meta.total).toBe(0);
  });
});

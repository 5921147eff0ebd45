import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';

let h: TestApp;
let owner: Session;
beforeAll(async () => {
  // Many writes per minute from one user: the per-route limits have their own suite.
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
});
afterAll(() => h?.close());

const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject(authed(token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) }));

type Account = {
  id: string;
  code: string;
  name: string;
  currentBalance: string;
  accountTypeId: number;
  isActive: boolean;
  parentAccountId: string | null;
};
async function accounts(s: Session, qs = ''): Promise<Account[]> {
  const res = await api(s.token, 'GET', `/accounts${qs}`);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
const byCode = async (s: Session) => Object.fromEntries((await accounts(s)).map((a) => [a.code, a]));

async function post(s: Session, payload: object) {
  const res = await api(s.token, 'POST', '/transactions', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('GET /accounts', () => {
  it('lists the default chart ordered by code with type, normal side and a zero balance', async () => {
    const list = await accounts(owner);
    expect(list.map((a) => a.code)).toEqual([
      '1000',
      '1100',
      '1200',
      '1300',
      '1500',
      '2110',
      '2300',
      '2500',
      '3000',
      '3100',
      '4000',
      '4900',
      '5000',
      '5100',
      '5200',
      '5300',
      '5400',
    ]);
    expect(list[0]).toMatchObject({
      code: '1000',
      name: 'Blagajna',
      accountTypeId: 1,
      accountTypeName: 'Asset',
      normalBalance: 'debit',
      currencyCode: 'EUR',
      parentAccountId: null,
      parentAccountCode: null,
      isActive: true,
      currentBalance: '0.00',
    });
    expect(list.find((a) => a.code === '4000')).toMatchObject({ accountTypeName: 'Revenue', normalBalance: 'credit' });
  });

  it('filters by accountTypeId and isActive', async () => {
    expect((await accounts(owner, '?accountTypeId=2')).map((a) => a.code)).toEqual(['2110', '2300', '2500']);
    expect(await accounts(owner, '?isActive=false')).toEqual([]);
    const bad = await api(owner.token, 'GET', '/accounts?accountTypeId=9');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('SVC-8003');
    expect((await api(owner.token, 'GET', '/accounts?isActive=maybe')).statusCode).toBe(422);
  });

  it('shows currentBalance on the normal side of each account (A9)', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    const a = await byCode(s);
    await post(s, {
      transactionDate: '2026-05-01',
      description: 'Capital',
      debitAccountId: a['1100'].id,
      creditAccountId: a['3000'].id,
      amount: 1000,
    });
    await post(s, {
      transactionDate: '2026-05-02',
      description: 'Rent',
      debitAccountId: a['5100'].id,
      creditAccountId: a['1100'].id,
      amount: 250.5,
    });
    await post(s, {
      transactionDate: '2026-05-03',
      description: 'Refund',
      debitAccountId: a['3000'].id,
      creditAccountId: a['1100'].id,
      amount: 0.25,
    });
    const after = await byCode(s);
    expect(after['1100'].currentBalance).toBe('749.25');
    expect(after['3000'].currentBalance).toBe('999.75');
    expect(after['5100'].currentBalance).toBe('250.50');
  });
});

describe('POST /accounts', () => {
  it('creates an account whose normal balance follows its type, under a parent of the same type', async () => {
    const list = await byCode(owner);
    const res = await api(owner.token, 'POST', '/accounts', {
      code: '1110',
      name: 'Bank - Zagrebačka',
      accountTypeId: 1,
      parentAccountId: list['1100'].id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: '1110',
      name: 'Bank - Zagrebačka',
      accountTypeName: 'Asset',
      normalBalance: 'debit',
      currencyCode: 'EUR',
      parentAccountId: list['1100'].id,
      parentAccountCode: '1100',
      currentBalance: '0.00',
    });
    const liability = await api(owner.token, 'POST', '/accounts', {
      code: '2400',
      name: 'Payroll liabilities',
      accountTypeId: 2,
      currencyCode: 'usd',
    });
    expect(liability.json()).toMatchObject({ normalBalance: 'credit', currencyCode: 'USD' });
  });

  it('answers 409 SVC-8002 for a code the organization already uses (another organization may use it)', async () => {
    const res = await api(owner.token, 'POST', '/accounts', { code: '1000', name: 'Cash again', accountTypeId: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('SVC-8002');
    const other = await registerOrg(h.app);
    expect(
      (await api(other.token, 'POST', '/accounts', { code: '1110', name: 'Own', accountTypeId: 1 })).statusCode,
    ).toBe(201);
  });

  it.each([[0], [6], [2.5], ['1']])('answers 422 SVC-8003 for accountTypeId %s', async (accountTypeId) => {
    const res = await api(owner.token, 'POST', '/accounts', { code: '9999', name: 'X', accountTypeId });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-8003');
  });

  it('answers 404 SVC-8005 for a parent that is not in the organization', async () => {
    const other = await registerOrg(h.app);
    const foreign = (await byCode(other))['1100'];
    for (const parentAccountId of [crypto.randomUUID(), foreign.id]) {
      const res = await api(owner.token, 'POST', '/accounts', {
        code: '1120',
        name: 'X',
        accountTypeId: 1,
        parentAccountId,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('SVC-8005');
    }
  });

  it('answers 422 SVC-9003 for a parent of another type, a bad code or an unknown currency', async () => {
    const list = await byCode(owner);
    const cases = [
      [{ code: '1130', name: 'X', accountTypeId: 1, parentAccountId: list['4000'].id }, 'parentAccountId'],
      [{ code: '', name: 'X', accountTypeId: 1 }, 'code'],
      [{ code: '11 30', name: 'X', accountTypeId: 1 }, 'code'],
      [{ code: '1130', name: 'X', accountTypeId: 1, currencyCode: 'XYZ' }, 'currencyCode'],
      [{ code: '1130', name: 'X' }, 'accountTypeId'],
    ] as const;
    for (const [payload, field] of cases) {
      const res = await api(owner.token, 'POST', '/accounts', payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('SVC-9003');
      expect(Object.keys(res.json().error.details)).toContain(field);
    }
  });

  it('is for owner and admin only', async () => {
    const accountant = await addMember(h.app, owner, 'accountant');
    const res = await api(accountant.token, 'POST', '/accounts', { code: '5999', name: 'X', accountTypeId: 5 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'SVC-9001',
      details: { required: ['owner', 'admin'], current: ['accountant'] },
    });
  });
});

describe('PUT /accounts/:id', () => {
  it('renames and deactivates an account without postings, and reactivates it', async () => {
    const s = await registerOrg(h.app);
    const a = await byCode(s);
    const res = await api(s.token, 'PUT', `/accounts/${a['5400'].id}`, { name: 'Travel and lodging', isActive: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Travel and lodging', isActive: false });
    expect((await accounts(s, '?isActive=false')).map((x) => x.code)).toEqual(['5400']);
    expect((await api(s.token, 'PUT', `/accounts/${a['5400'].id}`, { isActive: true })).json().isActive).toBe(true);
  });

  it('answers 400 SVC-8004 when deactivating an account with postings', async () => {
    const s = await registerOrg(h.app);
    const a = await byCode(s);
    await post(s, {
      transactionDate: '2026-05-01',
      description: 'Supplies',
      debitAccountId: a['5300'].id,
      creditAccountId: a['1000'].id,
      amount: 12,
    });
    const res = await api(s.token, 'PUT', `/accounts/${a['5300'].id}`, { isActive: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('SVC-8004');
    // Renaming is still allowed.
    expect((await api(s.token, 'PUT', `/accounts/${a['5300'].id}`, { name: 'Office' })).statusCode).toBe(200);
  });

  it('answers 404 SVC-8001 for an unknown or foreign account', async () => {
    const other = await registerOrg(h.app);
    const foreign = (await byCode(other))['1000'];
    for (const id of [crypto.randomUUID(), foreign.id]) {
      const res = await api(owner.token, 'PUT', `/accounts/${id}`, { name: 'X' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('SVC-8001');
    }
  });
});

describe('PUT /accounts/:id with parentAccountId (moving an account in the tree)', () => {
  const create = async (s: Session, code: string, parentAccountId: string | null, accountTypeId = 1) => {
    const res = await api(s.token, 'POST', '/accounts', {
      code,
      name: `Account ${code}`,
      accountTypeId,
      parentAccountId,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const move = (s: Session, id: string, body: object) => api(s.token, 'PUT', `/accounts/${id}`, body);
  const parentOf = async (s: Session, id: string) => (await accounts(s)).find((a) => a.id === id) as Account;

  it('moves an account under another of its type or to the top, keeping its postings and balance', async () => {
    const s = await registerOrg(h.app);
    const a = await byCode(s);
    const sub = await create(s, '1110', a['1100'].id);
    await post(s, {
      transactionDate: '2026-05-01',
      description: 'Deposit',
      debitAccountId: sub,
      creditAccountId: a['3000'].id,
      amount: 120.5,
    });
    const moved = await move(s, sub, { parentAccountId: a['1000'].id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ parentAccountId: a['1000'].id, parentAccountCode: '1000' });
    expect(Number((await byCode(s))['1110'].currentBalance)).toBeCloseTo(120.5, 2);
    const top = await move(s, sub, { parentAccountId: null });
    expect(top.json()).toMatchObject({ parentAccountId: null, parentAccountCode: null });
    // Only what is sent changes: a rename leaves the parent alone.
    await move(s, sub, { parentAccountId: a['1100'].id });
    expect((await move(s, sub, { name: 'Bank - Erste' })).json()).toMatchObject({
      name: 'Bank - Erste',
      parentAccountCode: '1100',
    });
  });

  it('refuses the account itself, its own sub-accounts or another type (422), an unknown parent (404), and changes nothing then', async () => {
    const s = await registerOrg(h.app);
    const a = await byCode(s);
    const child = await create(s, '1110', a['1100'].id);
    const grandchild = await create(s, '1111', child);
    const foreign = (await byCode(await registerOrg(h.app)))['1000'].id;
    for (const [id, parentAccountId, status, code] of [
      [child, child, 422, 'SVC-9003'],
      [a['1100'].id, grandchild, 422, 'SVC-9003'],
      [a['1100'].id, child, 422, 'SVC-9003'],
      [child, a['4000'].id, 422, 'SVC-9003'],
      [child, crypto.randomUUID(), 404, 'SVC-8005'],
      [child, foreign, 404, 'SVC-8005'],
    ] as const) {
      const res = await move(s, id, { name: 'Renamed', parentAccountId });
      expect(res.statusCode, `${id} under ${parentAccountId}`).toBe(status);
      expect(res.json().error.code).toBe(code);
      if (status === 422) expect(Object.keys(res.json().error.details)).toEqual(['parentAccountId']);
    }
    const after = await byCode(s);
    expect(after['1100']).toMatchObject({ parentAccountId: null, name: a['1100'].name });
    expect(after['1110']).toMatchObject({ parentAccountId: a['1100'].id, name: 'Account 1110' });
    expect(after['1111']).toMatchObject({ parentAccountId: child });
  });

  it('lets only one of two opposite moves at once through (A under B, B under A): no loop', async () => {
    const s = await registerOrg(h.app);
    const x = await create(s, '1601', null);
    const y = await create(s, '1602', null);
    const [one, two] = await Promise.all([move(s, x, { parentAccountId: y }), move(s, y, { parentAccountId: x })]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 422]);
    const [px, py] = [(await parentOf(s, x)).parentAccountId, (await parentOf(s, y)).parentAccountId];
    expect([px, py].filter((p) => p !== null)).toHaveLength(1);
  });
});

describe('DELETE /accounts/:id', () => {
  const create = async (s: Session, code: string, accountTypeId: number, parentAccountId: string | null = null) => {
    const res = await api(s.token, 'POST', '/accounts', {
      code,
      name: `Account ${code}`,
      accountTypeId,
      parentAccountId,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const remove = (s: Session, id: string) => api(s.token, 'DELETE', `/accounts/${id}`);
  const refusal = async (s: Session, id: string) => {
    const res = await remove(s, id);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('SVC-8004');
    expect((await api(s.token, 'GET', `/accounts/${id}`)).statusCode).toBe(200);
    return res.json().error.details.id as string[];
  };

  it('deletes an account nothing refers to: gone from the chart, 404 afterwards, and audited', async () => {
    const s = await registerOrg(h.app);
    const id = await create(s, '5410', 5);
    const res = await remove(s, id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await accounts(s)).map((a) => a.code)).not.toContain('5410');
    expect((await api(s.token, 'GET', `/accounts/${id}`)).statusCode).toBe(404);
    const again = await remove(s, id);
    expect([again.statusCode, again.json().error.code]).toEqual([404, 'SVC-8001']);
    const audit = await api(s.token, 'GET', `/audit-log?recordId=${id}&order=asc`);
    expect(audit.json().data.map((e: { action: string }) => e.action)).toEqual(['INSERT', 'DELETE']);
    // Its code is free again.
    expect(
      (await api(s.token, 'POST', '/accounts', { code: '5410', name: 'Again', accountTypeId: 5 })).statusCode,
    ).toBe(201);
  });

  // The details come in the organization's language (sr here; the texts are in lib/detail-messages.ts).
  it('keeps an account the automatic postings use, one with postings (reversed too) or sub-accounts, saying why', async () => {
    const s = await registerOrg(h.app);
    const a = await byCode(s);
    for (const code of ['1100', '1200', '1300', '2110', '2300', '4000', '5000']) {
      expect(await refusal(s, a[code].id), code).toEqual(['konto koriste automatska knjiženja']);
    }
    const posted = await create(s, '5420', 5);
    const tx = await post(s, {
      transactionDate: '2026-05-01',
      description: 'Supplies',
      debitAccountId: posted,
      creditAccountId: a['1000'].id,
      amount: 12,
    });
    const reversed = await api(s.token, 'POST', `/transactions/${tx.id}/reverse`);
    expect(reversed.statusCode, reversed.body).toBe(201);
    expect(await refusal(s, posted)).toEqual(['konto ima knjiženja']);
    const parent = await create(s, '5430', 5);
    const child = await create(s, '5431', 5, parent);
    expect(await refusal(s, parent)).toEqual(['konto ima potkonta']);
    // The sub-account first, then its parent.
    expect((await remove(s, child)).statusCode).toBe(204);
    expect((await remove(s, parent)).statusCode).toBe(204);
  });

  it('keeps an account named by an invoice line, an expense or a bank account', async () => {
    const s = await registerOrg(h.app);
    const revenue = await create(s, '4010', 4);
    const expense = await create(s, '5440', 5);
    const bank = await create(s, '1010', 1);
    const customer = (await api(s.token, 'POST', '/contacts', { type: 'customer', name: 'Kupac' })).json().id;
    const invoice = await api(s.token, 'POST', '/invoices', {
      customerId: customer,
      invoiceDate: '2026-05-01',
      dueDate: '2026-05-15',
      items: [{ description: 'Usluga', quantity: 1, unitPrice: 100, taxRate: 20, accountId: revenue }],
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const exp = await api(s.token, 'POST', '/expenses', {
      expenseDate: '2026-05-02',
      category: 'Kancelarija',
      amount: 50,
      accountId: expense,
    });
    expect(exp.statusCode, exp.body).toBe(201);
    const bankAccount = await api(s.token, 'POST', '/bank-accounts', {
      accountId: bank,
      bankName: 'Banka Intesa',
      currencyCode: 'RSD',
    });
    expect(bankAccount.statusCode, bankAccount.body).toBe(201);
    expect(await refusal(s, revenue)).toEqual(['konto je naveden na stavkama faktura']);
    expect(await refusal(s, expense)).toEqual(['konto je naveden na troškovima']);
    expect(await refusal(s, bank)).toEqual(['konto pripada bankovnom računu']);
  });

  it('answers in the organization language, 404 for an unknown or foreign account, and is for owner and admin only', async () => {
    const s = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    const a = await byCode(s);
    const res = await remove(s, a['1200'].id);
    expect(res.json().error.details.id).toEqual(['konto koriste automatska knjiženja']);
    const foreign = (await byCode(await registerOrg(h.app)))['5400'].id;
    for (const id of [crypto.randomUUID(), foreign]) {
      const r = await remove(s, id);
      expect([r.statusCode, r.json().error.code]).toEqual([404, 'SVC-8001']);
    }
    const id = await create(s, '5450', 5);
    for (const role of ['accountant', 'viewer'] as const) {
      const member = await addMember(h.app, s, role);
      expect((await remove(member, id)).statusCode).toBe(403);
    }
    const admin = await addMember(h.app, s, 'admin');
    expect((await remove(admin, id)).statusCode).toBe(204);
  });

  it('never leaves a posting or a sub-account on a deleted account when both happen at once', async () => {
    const s = await registerOrg(h.app);
    const cash = (await byCode(s))['1000'].id;
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let round = 0; round < 6; round++) {
      const id = await create(s, `56${round}0`, 5);
      // The deletion starts first in even rounds and last in odd ones, by 0-2 ms: both outcomes come.
      const [deleteAt, othersAt] = round % 2 ? [round % 3, 0] : [0, round % 3];
      const head = later(othersAt);
      const [deleted, posting, child] = await Promise.all([
        later(deleteAt).then(() => remove(s, id)),
        head.then(() =>
          api(s.token, 'POST', '/transactions', {
            transactionDate: '2026-05-01',
            description: 'Race',
            debitAccountId: id,
            creditAccountId: cash,
            amount: 1,
          }),
        ),
        head.then(() =>
          api(s.token, 'POST', '/accounts', {
            code: `56${round}1`,
            name: 'Child',
            accountTypeId: 5,
            parentAccountId: id,
          }),
        ),
      ]);
      if (deleted.statusCode === 204) {
        // The others came after the deletion and found no account.
        expect([posting.statusCode, posting.json().error.code]).toEqual([404, 'SVC-8001']);
        expect([child.statusCode, child.json().error.code]).toEqual([404, 'SVC-8005']);
      } else {
        expect(deleted.statusCode, deleted.body).toBe(400);
        expect(posting.statusCode === 201 || child.statusCode === 201, `${posting.body} ${child.body}`).toBe(true);
      }
      const chart = await accounts(s);
      const ids = new Set(chart.map((a) => a.id));
      expect(ids.has(id)).toBe(deleted.statusCode !== 204);
      for (const a of chart) if (a.parentAccountId) expect(ids.has(a.parentAccountId)).toBe(true);
    }
  });
});

describe('GET/PUT /settings/tax-rates', () => {
  it('answers the country defaults seeded at registration', async () => {
    const res = await api(owner.token, 'GET', '/settings/tax-rates');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      country: 'HR',
      defaultVATRate: 25,
      rates: [
        { name: 'Standard', rate: 25, description: 'Opća stopa PDV-a' },
        { name: 'Reduced', rate: 13, description: 'Snižena stopa PDV-a' },
        { name: 'Super-reduced', rate: 5, description: 'Snižena stopa PDV-a' },
        { name: 'Zero', rate: 0, description: 'Oslobođeno PDV-a' },
      ],
    });
  });

  it('replaces the rates and the default rate', async () => {
    const s = await registerOrg(h.app, { country: 'BA', baseCurrency: 'BAM', language: 'bs' });
    const payload = {
      defaultVATRate: 17,
      rates: [
        { name: 'Standard', rate: 17, description: 'PDV' },
        { name: 'Special', rate: 8.5, description: 'Test' },
        { name: 'Zero', rate: 0 },
      ],
    };
    const res = await api(s.token, 'PUT', '/settings/tax-rates', payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      country: 'BA',
      defaultVATRate: 17,
      rates: [
        { name: 'Standard', rate: 17, description: 'PDV' },
        { name: 'Special', rate: 8.5, description: 'Test' },
        { name: 'Zero', rate: 0, description: '' },
      ],
    });
    expect((await api(s.token, 'GET', '/settings/tax-rates')).json().rates).toHaveLength(3);
  });

  it.each([
    [{ defaultVATRate: 101, rates: [{ name: 'A', rate: 10 }] }, 'defaultVATRate'],
    [{ defaultVATRate: 20, rates: [{ name: 'A', rate: -1 }] }, 'rates[0].rate'],
    [
      {
        defaultVATRate: 20,
        rates: [
          { name: 'A', rate: 20 },
          { name: 'B', rate: 100.5 },
        ],
      },
      'rates[1].rate',
    ],
  ])('answers 422 SVC-8006 for a rate outside 0-100: %o', async (payload, field) => {
    const res = await api(owner.token, 'PUT', '/settings/tax-rates', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-8006');
    expect(Object.keys(res.json().error.details)).toEqual([field]);
    expect((await api(owner.token, 'GET', '/settings/tax-rates')).json().defaultVATRate).toBe(25);
  });

  it('answers 422 SVC-9003 for duplicate names, no rates or a non-number', async () => {
    for (const payload of [
      {
        defaultVATRate: 20,
        rates: [
          { name: 'A', rate: 20 },
          { name: 'a', rate: 10 },
        ],
      },
      { defaultVATRate: 20, rates: [] },
      { defaultVATRate: '20', rates: [{ name: 'A', rate: 20 }] },
    ]) {
      const res = await api(owner.token, 'PUT', '/settings/tax-rates', payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('SVC-9003');
    }
  });

  it('lets every role read and only owner/admin write', async () => {
    const viewer = await addMember(h.app, owner, 'viewer');
    expect((await api(viewer.token, 'GET', '/settings/tax-rates')).statusCode).toBe(200);
    expect(
      (await api(viewer.token, 'PUT', '/settings/tax-rates', { defaultVATRate: 20, rates: [{ name: 'A', rate: 20 }] }))
        .statusCode,
    ).toBe(403);
  });
});

import { dec, roundHalfUp, sum } from '@app/shared/money';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantScope } from '../src/db/tenant-scope.js';
import { createJournalEntry, createManualEntry } from '../src/modules/ledger/transactions.service.js';
import { addMember, authed, buildTestApp, foldLedger, registerOrg, type Session, type TestApp } from './helpers.js';

let h: TestApp;
let owner: Session;
let acc: Record<string, string>;
beforeAll(async () => {
  // Many entries per minute from one user: the per-route limits have their own suite.
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(h.app, { baseCurrency: 'RSD' });
  acc = await chart(owner);
});
afterAll(() => h?.close());

const api = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  h.app.inject(authed(token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) }));

async function chart(s: Session): Promise<Record<string, string>> {
  const res = await api(s.token, 'GET', '/accounts');
  return Object.fromEntries(res.json().data.map((a: { code: string; id: string }) => [a.code, a.id]));
}

const entry = (over: object = {}) => ({
  transactionDate: '2026-06-15',
  description: 'Owner deposit',
  debitAccountId: acc['1100'],
  creditAccountId: acc['3000'],
  amount: 1500.5,
  ...over,
});

describe('POST /transactions', () => {
  it('records a manual entry in the base currency: rate 1, manual, unlocked, with both accounts named', async () => {
    const res = await api(owner.token, 'POST', '/transactions', entry({ notes: 'bank slip 42' }));
    expect(res.statusCode).toBe(201);
    const t = res.json();
    expect(t).toMatchObject({
      transactionDate: '2026-06-15',
      description: 'Owner deposit',
      notes: 'bank slip 42',
      debitAccountId: acc['1100'],
      debitAccountCode: '1100',
      debitAccountName: 'Tekući račun',
      creditAccountId: acc['3000'],
      creditAccountCode: '3000',
      creditAccountName: 'Osnovni kapital',
      amount: '1500.50',
      currencyCode: 'RSD',
      exchangeRate: '1.000000',
      baseAmount: '1500.50',
      referenceType: 'manual',
      referenceId: null,
      locked: false,
      reconciled: false,
      reconciledAt: null,
      createdBy: owner.userId,
    });
    const audit = await h.t.db.system
      .selectFrom('logged_actions')
      .select(['table_name', 'user_id'])
      .where('record_id', '=', t.id)
      .execute();
    expect(audit).toEqual([{ table_name: 'ledger_transactions', user_id: owner.userId }]);
    expect((await api(owner.token, 'GET', `/transactions/${t.id}`)).json()).toEqual(t);
  });

  it('converts a foreign-currency entry at the rate in force on the transaction date (A5)', async () => {
    const recent = (
      await api(
        owner.token,
        'POST',
        '/transactions',
        entry({ currencyCode: 'EUR', amount: 10.5, transactionDate: '2026-11-21' }),
      )
    ).json();
    expect(recent).toMatchObject({
      amount: '10.50',
      currencyCode: 'EUR',
      exchangeRate: '117.200000',
      baseAmount: '1230.60',
    });
    const older = (
      await api(
        owner.token,
        'POST',
        '/transactions',
        entry({ currencyCode: 'EUR', amount: 10.5, transactionDate: '2025-06-01' }),
      )
    ).json();
    expect(older).toMatchObject({ exchangeRate: '117.000000', baseAmount: '1228.50' });
    // USD crosses through EUR: 117.2 / 1.16 = 101.034483 (rounded to 6 decimals before use).
    const usd = (
      await api(
        owner.token,
        'POST',
        '/transactions',
        entry({ currencyCode: 'USD', amount: 3.33, transactionDate: '2026-11-21' }),
      )
    ).json();
    expect(usd).toMatchObject({ exchangeRate: '101.034483', baseAmount: '336.44' });
  });

  it('answers 404 SVC-8001 for an unknown account or one of another organization', async () => {
    const other = await registerOrg(h.app);
    const foreign = await chart(other);
    for (const body of [entry({ debitAccountId: crypto.randomUUID() }), entry({ creditAccountId: foreign['3000'] })]) {
      const res = await api(owner.token, 'POST', '/transactions', body);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('SVC-8001');
    }
  });

  it.each([
    [{ creditAccountId: 'SAME' }, 'creditAccountId'],
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: '10' }, 'amount'],
    // biome-ignore lint/correctness/noPrecisionLoss: the test sends a literal JSON number outside the double range.
    [{ amount: 1e400 }, 'amount'],
    [{ amount: 10.123 }, 'amount'],
    [{ currencyCode: 'XYZ' }, 'currencyCode'],
    [{ currencyCode: 'USD', transactionDate: '1990-01-01' }, 'currencyCode'],
    [{ transactionDate: '2026-13-01' }, 'transactionDate'],
    [{ description: '' }, 'description'],
    [{ debitAccountId: 'not-a-uuid' }, 'debitAccountId'],
  ])('answers 422 SVC-9003 for %o (details.%s) and writes nothing', async (over, field) => {
    const o = over as Record<string, unknown>;
    const body = o.creditAccountId === 'SAME' ? entry({ creditAccountId: acc['1100'] }) : entry(o);
    const before = await h.t.db.system
      .selectFrom('ledger_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await api(
      owner.token,
      'POST',
      '/transactions',
      typeof o.amount === 'number' && !Number.isFinite(o.amount) ? undefined : body,
    );
    if (typeof o.amount === 'number' && !Number.isFinite(o.amount)) {
      // JSON.stringify cannot carry 1e400; send the literal text a client would.
      const raw = await h.app.inject(
        authed(owner.token, {
          method: 'POST',
          url: '/api/v1/transactions',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(entry()).replace('1500.5', '1e400'),
        }),
      );
      expect(raw.statusCode).toBe(422);
      expect(Object.keys(raw.json().error.details)).toContain(field);
      return;
    }
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details)).toContain(field);
    const after = await h.t.db.system
      .selectFrom('ledger_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 422 SVC-9003 for an inactive account', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    await api(s.token, 'PUT', `/accounts/${a['5400']}`, { isActive: false });
    const res = await api(s.token, 'POST', '/transactions', {
      transactionDate: '2026-06-01',
      description: 'Trip',
      debitAccountId: a['5400'],
      creditAccountId: a['1000'],
      amount: 5,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'SVC-9003', details: { debitAccountId: ['konto nije aktivan'] } });
  });

  it('is refused to viewers', async () => {
    const viewer = await addMember(h.app, owner, 'viewer');
    const res = await api(viewer.token, 'POST', '/transactions', entry());
    expect(res.statusCode).toBe(403);
    expect((await api(viewer.token, 'GET', '/transactions')).statusCode).toBe(200);
  });
});

describe('POST /transactions: what a refusal says, and what is stored (issue 34, manual-postings mutants)', () => {
  let s: Session;
  let a: Record<string, string>;
  const count = async () =>
    Number(
      (
        await h.t.db.system
          .selectFrom('ledger_transactions')
          .where('organization_id', '=', s.orgId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  beforeAll(async () => {
    // A Serbian organization: the details come in Serbian (detail-messages.ts).
    s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    a = await chart(s);
    await api(s.token, 'PUT', `/accounts/${a['5400']}`, { isActive: false });
    await api(s.token, 'PUT', `/accounts/${a['5300']}`, { isActive: false });
  });
  const body = (over: object = {}) => ({
    transactionDate: '2026-06-01',
    description: 'Entry',
    debitAccountId: a['1000'],
    creditAccountId: a['3000'],
    amount: 5,
    ...over,
  });
  const refused = async (over: object, status: number, code: string) => {
    const res = await api(s.token, 'POST', '/transactions', body(over));
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error.code).toBe(code);
    return res.json().error.details;
  };

  it('names the unknown account, debit side first, and writes nothing', async () => {
    const before = await count();
    expect(await refused({ debitAccountId: crypto.randomUUID() }, 404, 'SVC-8001')).toEqual({
      debitAccountId: ['konto nije pronađen'],
    });
    expect(await refused({ creditAccountId: crypto.randomUUID() }, 404, 'SVC-8001')).toEqual({
      creditAccountId: ['konto nije pronađen'],
    });
    expect(
      await refused({ debitAccountId: crypto.randomUUID(), creditAccountId: crypto.randomUUID() }, 404, 'SVC-8001'),
    ).toEqual({ debitAccountId: ['konto nije pronađen'] });
    expect(await count()).toBe(before);
  });

  it('names each inactive account: the credit side alone, and both', async () => {
    const before = await count();
    expect(await refused({ creditAccountId: a['5400'] }, 422, 'SVC-9003')).toEqual({
      creditAccountId: ['konto nije aktivan'],
    });
    expect(await refused({ debitAccountId: a['5300'], creditAccountId: a['5400'] }, 422, 'SVC-9003')).toEqual({
      debitAccountId: ['konto nije aktivan'],
      creditAccountId: ['konto nije aktivan'],
    });
    expect(await count()).toBe(before);
  });

  it('reports a missing or inactive account before a currency problem', async () => {
    expect(await refused({ debitAccountId: crypto.randomUUID(), currencyCode: 'XYZ' }, 404, 'SVC-8001')).toEqual({
      debitAccountId: ['konto nije pronađen'],
    });
    expect(await refused({ creditAccountId: a['5400'], amount: 10.123 }, 422, 'SVC-9003')).toEqual({
      creditAccountId: ['konto nije aktivan'],
    });
  });

  it('says what is wrong with the same account on both sides and with too many decimals', async () => {
    expect(await refused({ creditAccountId: a['1000'] }, 422, 'SVC-9003')).toEqual({
      creditAccountId: ['mora se razlikovati od debitAccountId'],
    });
    expect(await refused({ amount: 10.123 }, 422, 'SVC-9003')).toEqual({
      amount: ['sme imati najviše 2 decimala u RSD'],
    });
  });

  it('stores the description trimmed (and one of blanks only as it came)', async () => {
    const res = await api(s.token, 'POST', '/transactions', body({ description: '  Owner deposit \t' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().description).toBe('Owner deposit');
    expect((await api(s.token, 'GET', `/transactions/${res.json().id}`)).json().description).toBe('Owner deposit');
    const blank = await api(s.token, 'POST', '/transactions', body({ description: '   ' }));
    expect(blank.statusCode, blank.body).toBe(201);
    expect(blank.json().description).toBe('   ');
    const journal = await api(s.token, 'POST', '/transactions/entries', {
      transactionDate: '2026-06-01',
      description: ' Journal ',
      lines: [
        { accountId: a['1000'], debit: 3 },
        { accountId: a['3000'], credit: 3 },
      ],
    });
    expect(journal.statusCode, journal.body).toBe(201);
    expect(journal.json().data[0].description).toBe('Journal');
  });

  it('refuses to reverse a locked posting (a reversal is one) and says why; nothing is written', async () => {
    const t = (await api(s.token, 'POST', '/transactions', body({ description: 'To reverse' }))).json();
    const reversal = (await api(s.token, 'POST', `/transactions/${t.id}/reverse`, {})).json();
    expect(reversal.locked).toBe(true);
    const before = await count();
    const res = await api(s.token, 'POST', `/transactions/${reversal.id}/reverse`, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'SVC-9003',
      details: { id: ['zaključano knjiženje se stornira preko svog dokumenta'] },
    });
    expect(await count()).toBe(before);
  });

  it("posts in the base currency the statement finds when the caller's view of it is stale (retried)", async () => {
    const scope = tenantScope(h.t.db, s.orgId, s.userId);
    // The caller believes the base currency is EUR; the organization's is RSD.
    const posted = await createManualEntry(scope, s.userId, 'EUR', {
      transactionDate: '2026-06-01',
      description: 'Stale base',
      debitAccountId: a['1000'],
      creditAccountId: a['3000'],
      amount: 10.5,
    });
    expect(posted).toMatchObject({
      description: 'Stale base',
      amount: '10.50',
      currencyCode: 'RSD',
      exchangeRate: '1.000000',
      baseAmount: '10.50',
      debitAccountCode: '1000',
      creditAccountCode: '3000',
    });
    const journal = await createJournalEntry(scope, s.userId, 'EUR', {
      transactionDate: '2026-06-01',
      description: 'Stale base journal',
      lines: [
        { accountId: a['1000'], debit: 2.5 },
        { accountId: a['3000'], credit: 2.5 },
      ],
    });
    expect(journal.data).toEqual([
      expect.objectContaining({ amount: '2.50', currencyCode: 'RSD', exchangeRate: '1.000000', baseAmount: '2.50' }),
    ]);
  });
});

describe('GET /transactions', () => {
  let s: Session;
  let a: Record<string, string>;
  beforeAll(async () => {
    s = await registerOrg(h.app, { baseCurrency: 'EUR', country: 'HR', language: 'hr' });
    a = await chart(s);
    const rows: Array<[string, string, string, number]> = [
      ['2026-01-10', '1000', '3000', 100],
      ['2026-02-10', '5100', '1000', 30],
      ['2026-03-10', '1100', '4900', 70],
      ['2026-04-10', '5300', '1100', 5],
      ['2026-05-10', '1000', '1100', 20],
    ];
    for (const [transactionDate, d, c, amount] of rows) {
      const res = await api(s.token, 'POST', '/transactions', {
        transactionDate,
        description: `${d}/${c}`,
        debitAccountId: a[d],
        creditAccountId: a[c],
        amount,
      });
      expect(res.statusCode).toBe(201);
    }
  });
  const list = async (qs: string) => {
    const res = await api(s.token, 'GET', `/transactions${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: Array<{ transactionDate: string; amount: string; description: string }>;
      meta: object;
    };
  };

  it('lists newest first with the {data, meta} envelope', async () => {
    const body = await list('?perPage=2');
    expect(body.meta).toEqual({ total: 5, page: 1, perPage: 2, totalPages: 3 });
    expect(body.data.map((t) => t.transactionDate)).toEqual(['2026-05-10', '2026-04-10']);
    expect((await list('?perPage=2&page=3')).data.map((t) => t.transactionDate)).toEqual(['2026-01-10']);
  });

  it('filters by inclusive date range, by account on either side and by reference type', async () => {
    expect((await list('?fromDate=2026-02-10&toDate=2026-04-10')).data.map((t) => t.transactionDate)).toEqual([
      '2026-04-10',
      '2026-03-10',
      '2026-02-10',
    ]);
    expect((await list(`?accountId=${a['1100']}&order=asc`)).data.map((t) => t.description)).toEqual([
      '1100/4900',
      '5300/1100',
      '1000/1100',
    ]);
    expect((await list('?referenceType=manual')).meta).toMatchObject({ total: 5 });
    expect((await list('?referenceType=invoice')).meta).toMatchObject({ total: 0 });
    expect((await list(`?accountId=${crypto.randomUUID()}`)).data).toEqual([]);
  });

  it('sorts by amount', async () => {
    expect((await list('?sort=amount&order=asc')).data.map((t) => t.amount)).toEqual([
      '5.00',
      '20.00',
      '30.00',
      '70.00',
      '100.00',
    ]);
  });

  it.each([['page=0'], ['perPage=101'], ['perPage=2.5'], ['page=x'], ['sort=description'], ['order=sideways']])(
    'answers 400 SVC-9008 for %s',
    async (qs) => {
      const res = await api(s.token, 'GET', `/transactions?${qs}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('SVC-9008');
    },
  );

  it.each([
    ['fromDate=2026-05-01&toDate=2026-04-01'],
    ['referenceType=refund'],
    ['accountId=42'],
    ['fromDate=10.01.2026'],
  ])('answers 422 SVC-9003 for %s', async (qs) => {
    const res = await api(s.token, 'GET', `/transactions?${qs}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
  });

  it('shows nothing of another organization; its ids answer 404', async () => {
    const other = await registerOrg(h.app);
    expect((await api(other.token, 'GET', '/transactions')).json().meta.total).toBe(0);
    const mine = (await list('?perPage=1')).data[0] as unknown as { id: string };
    expect((await api(other.token, 'GET', `/transactions/${mine.id}`)).statusCode).toBe(404);
  });
});

describe('POST /transactions/entries (several lines, one database transaction)', () => {
  const count = async (orgId: string) =>
    Number(
      (
        await h.t.db.system
          .selectFrom('ledger_transactions')
          .where('organization_id', '=', orgId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lines = (a: Record<string, string>) => [
    { accountId: a['5100'], debit: 800 },
    { accountId: a['1300'], debit: 160 },
    { accountId: a['1000'], credit: 300 },
    { accountId: a['1100'], credit: 660 },
  ];

  it('posts a balanced entry as the postings that settle its debits against its credits, in line order', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    const a = await chart(s);
    const res = await api(s.token, 'POST', '/transactions/entries', {
      transactionDate: '2026-06-10',
      description: 'Rent and VAT, paid from the till and the bank',
      notes: 'slip 7',
      lines: lines(a),
    });
    expect(res.statusCode).toBe(201);
    const postings = res.json().data as Array<Record<string, unknown>>;
    expect(postings.map((p) => [p.debitAccountCode, p.creditAccountCode, p.amount])).toEqual([
      ['5100', '1000', '300.00'],
      ['5100', '1100', '500.00'],
      ['1300', '1100', '160.00'],
    ]);
    for (const p of postings)
      expect(p).toMatchObject({
        transactionDate: '2026-06-10',
        description: 'Rent and VAT, paid from the till and the bank',
        notes: 'slip 7',
        referenceType: 'manual',
        locked: false,
        currencyCode: 'RSD',
      });
    await foldLedger(h.t.db);
    const balances = Object.fromEntries(
      (await api(s.token, 'GET', '/accounts'))
        .json()
        .data.map((x: { code: string; currentBalance: string }) => [x.code, x.currentBalance]),
    );
    expect([balances['5100'], balances['1300'], balances['1000'], balances['1100']]).toEqual([
      '800.00',
      '160.00',
      '-300.00',
      '-660.00',
    ]);
  });

  it.each([
    [
      'unbalanced',
      (a: Record<string, string>) => [...lines(a).slice(0, 3), { accountId: a['1100'], credit: 659.99 }],
      'lines',
    ],
    [
      'a line on both sides',
      (a: Record<string, string>) => [
        { accountId: a['5100'], debit: 5, credit: 5 },
        { accountId: a['1000'], credit: 5 },
      ],
      'lines[0]',
    ],
    ['a line with no amount', (a: Record<string, string>) => [{ accountId: a['5100'] }, ...lines(a)], 'lines[0]'],
    [
      'too many decimals',
      (a: Record<string, string>) => [
        { accountId: a['5100'], debit: 1.005 },
        { accountId: a['1000'], credit: 1.005 },
      ],
      'lines[0].debit',
    ],
    [
      'an account on both sides',
      (a: Record<string, string>) => [
        { accountId: a['1000'], debit: 5 },
        { accountId: a['1000'], credit: 5 },
      ],
      'lines[1].accountId',
    ],
    [
      'only debits',
      (a: Record<string, string>) => [
        { accountId: a['5100'], debit: 5 },
        { accountId: a['5200'], debit: 5 },
      ],
      'lines',
    ],
  ])(
    "answers 422 SVC-9003 for %s (details %s, in the organization's language) and writes nothing",
    async (_name, make, field) => {
      const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
      const a = await chart(s);
      const res = await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Refused',
        lines: make(a),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('SVC-9003');
      expect(Object.keys(res.json().error.details)).toContain(field);
      // The organization is Serbian: no English detail.
      expect(JSON.stringify(res.json().error.details)).not.toMatch(/ must | needs | is on /);
      expect(await count(s.orgId)).toBe(0);
    },
  );

  it('says in each refusal which line is wrong and why (the details themselves, in Serbian)', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    const a = await chart(s);
    const details = async (ls: object[]) => {
      const res = await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Refused',
        lines: ls,
      });
      expect(res.statusCode, res.body).toBe(422);
      return res.json().error.details;
    };
    expect(await details([...lines(a).slice(0, 3), { accountId: a['1100'], credit: 659.99 }])).toEqual({
      lines: ['duguje (960) i potražuje (959.99) moraju biti jednaki i veći od nule'],
    });
    expect(
      await details([
        { accountId: a['5100'], debit: 5 },
        { accountId: a['5200'], debit: 5 },
      ]),
    ).toEqual({ lines: ['duguje (10) i potražuje (0) moraju biti jednaki i veći od nule'] });
    expect(
      await details([
        { accountId: a['5100'], debit: 5, credit: 5 },
        { accountId: a['1000'], credit: 5 },
        { accountId: a['1100'] },
      ]),
    ).toEqual({
      'lines[0]': ['treba iznos veći od nule na tačno jednoj strani, duguje ili potražuje'],
      'lines[2]': ['treba iznos veći od nule na tačno jednoj strani, duguje ili potražuje'],
    });
    expect(
      await details([
        { accountId: a['5100'], debit: 1.005 },
        { accountId: a['1000'], credit: 1.005 },
      ]),
    ).toEqual({
      'lines[0].debit': ['sme imati najviše 2 decimala u RSD'],
      'lines[1].credit': ['sme imati najviše 2 decimala u RSD'],
    });
    expect(
      await details([
        { accountId: a['1000'], debit: 5 },
        { accountId: a['5100'], debit: 5 },
        { accountId: a['1000'], credit: 10 },
      ]),
    ).toEqual({ 'lines[2].accountId': ['je i na dugovnoj i na potražnoj strani naloga'] });
  });

  it("saves nothing when a later line names an inactive account, an unknown one or another organization's", async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    const a = await chart(s);
    const other = await chart(await registerOrg(h.app));
    await api(s.token, 'PUT', `/accounts/${a['5400']}`, { isActive: false });
    for (const [accountId, status] of [
      [a['5400'], 422],
      [crypto.randomUUID(), 404],
      [other['1100'], 404],
    ] as const) {
      const res = await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Half an entry?',
        lines: [
          { accountId: a['5100'], debit: 10 },
          { accountId: a['1000'], credit: 5 },
          { accountId, credit: 5 },
        ],
      });
      expect(res.statusCode).toBe(status);
      // The detail itself, in the organization's language (Serbian).
      expect(res.json().error.details).toEqual({
        'lines[2].accountId': [status === 422 ? 'konto nije aktivan' : 'konto nije pronađen'],
      });
    }
    expect(await count(s.orgId)).toBe(0);
  });

  it("names each posting's debit and credit accounts as the lines do, whichever account's id sorts first", async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    const a = await chart(s);
    // The posting statement answers one row per account in no fixed order: both orders of the ids.
    for (const [debit, credit] of [
      ['1000', '3000'],
      ['3000', '1000'],
    ]) {
      const res = await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: `Journal ${debit}/${credit}`,
        lines: [
          { accountId: a[debit], debit: 7 },
          { accountId: a[credit], credit: 7 },
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toEqual([
        expect.objectContaining({
          debitAccountId: a[debit],
          debitAccountCode: debit,
          creditAccountId: a[credit],
          creditAccountCode: credit,
        }),
      ]);
    }
  });

  it('converts a foreign-currency entry at one rate for all its postings', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    const a = await chart(s);
    const res = await api(s.token, 'POST', '/transactions/entries', {
      transactionDate: '2026-11-21',
      description: 'EUR entry',
      currencyCode: 'EUR',
      lines: [
        { accountId: a['5400'], debit: 10.5 },
        { accountId: a['5300'], debit: 2 },
        { accountId: a['1100'], credit: 12.5 },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(
      res.json().data.map((p: { baseAmount: string; exchangeRate: string }) => [p.baseAmount, p.exchangeRate]),
    ).toEqual([
      ['1230.60', '117.200000'],
      ['234.40', '117.200000'],
    ]);
  });

  it('is refused to viewers and writes nothing', async () => {
    const viewer = await addMember(h.app, owner, 'viewer');
    const res = await api(viewer.token, 'POST', '/transactions/entries', {
      transactionDate: '2026-06-10',
      description: 'Viewer',
      lines: [
        { accountId: acc['5100'], debit: 1 },
        { accountId: acc['1000'], credit: 1 },
      ],
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /transactions/:id/reverse', () => {
  it('reverses a manual entry once, moving the balances back', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const t = (
      await api(s.token, 'POST', '/transactions', {
        transactionDate: '2026-06-01',
        description: 'Typo',
        debitAccountId: a['1000'],
        creditAccountId: a['4900'],
        amount: 99,
      })
    ).json();
    const res = await api(s.token, 'POST', `/transactions/${t.id}/reverse`, { transactionDate: '2026-06-02' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      description: 'Reversal: Typo',
      debitAccountId: a['4900'],
      creditAccountId: a['1000'],
      amount: '99.00',
      reversalOf: t.id,
      locked: true,
      transactionDate: '2026-06-02',
    });
    const balances = (await api(s.token, 'GET', '/accounts')).json().data;
    expect(balances.every((x: { currentBalance: string }) => x.currentBalance === '0.00')).toBe(true);
    expect((await api(s.token, 'POST', `/transactions/${t.id}/reverse`, {})).statusCode).toBe(422);
    expect((await api(s.token, 'POST', `/transactions/${crypto.randomUUID()}/reverse`)).statusCode).toBe(404);
  });
});

describe('journal entries read and reversed whole (GET /transactions/entries/:id, POST .../reverse)', () => {
  const lines = (a: Record<string, string>) => [
    { accountId: a['5100'], debit: 800 },
    { accountId: a['1300'], debit: 160 },
    { accountId: a['1000'], credit: 300 },
    { accountId: a['1100'], credit: 660 },
  ];
  const balances = async (s: Session) =>
    Object.fromEntries(
      (await api(s.token, 'GET', '/accounts'))
        .json()
        .data.map((x: { code: string; currentBalance: string }) => [x.code, x.currentBalance]),
    );

  it('gives every posting of a several-line entry the entry id, and reads the entry back', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const created = await api(s.token, 'POST', '/transactions/entries', {
      transactionDate: '2026-06-10',
      description: 'Rent and VAT',
      lines: lines(a),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { entryId, data } = created.json();
    expect(entryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.map((p: { entryId: string; referenceId: string }) => [p.entryId, p.referenceId])).toEqual(
      data.map(() => [entryId, entryId]),
    );
    // A second entry is an entry of its own.
    const other = (
      await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-11',
        description: 'Another',
        lines: [
          { accountId: a['1000'], debit: 5 },
          { accountId: a['4900'], credit: 5 },
        ],
      })
    ).json();
    expect(other.entryId).not.toBe(entryId);
    const read = await api(s.token, 'GET', `/transactions/entries/${entryId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().entryId).toBe(entryId);
    expect(
      read
        .json()
        .data.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual(data.map((p: { id: string }) => p.id).sort());
    // The list filters by entry too.
    const listed = (await api(s.token, 'GET', `/transactions?entryId=${entryId}`)).json();
    expect(listed.meta.total).toBe(3);
    expect((await api(s.token, 'GET', `/transactions/entries/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('reverses a whole entry once, in one transaction, moving every balance back', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const { entryId, data } = (
      await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Rent and VAT',
        lines: lines(a),
      })
    ).json();
    const res = await api(s.token, 'POST', `/transactions/entries/${entryId}/reverse`, {
      transactionDate: '2026-06-12',
    });
    expect(res.statusCode, res.body).toBe(201);
    const reversals = res.json().data as Array<Record<string, unknown>>;
    expect(res.json().entryId).toBe(entryId);
    expect(reversals.map((r) => r.reversalOf).sort()).toEqual(data.map((p: { id: string }) => p.id).sort());
    for (const r of reversals)
      expect(r).toMatchObject({
        entryId,
        locked: true,
        transactionDate: '2026-06-12',
        description: 'Reversal: Rent and VAT',
      });
    expect(Object.values(await balances(s)).every((b) => b === '0.00')).toBe(true);
    // The entry now reads as its postings and their reversals; a second reverse finds nothing left.
    expect((await api(s.token, 'GET', `/transactions/entries/${entryId}`)).json().data).toHaveLength(6);
    const again = await api(s.token, 'POST', `/transactions/entries/${entryId}/reverse`);
    expect([again.statusCode, again.json().error.code]).toEqual([422, 'SVC-9003']);
    expect((await api(s.token, 'GET', `/transactions/entries/${entryId}`)).json().data).toHaveLength(6);
  });

  it('refuses to reverse one posting of the entry alone; two reverses of the entry at once reverse once', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const { entryId, data } = (
      await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Rent and VAT',
        lines: lines(a),
      })
    ).json();
    const before = await balances(s);
    const alone = await api(s.token, 'POST', `/transactions/${data[0].id}/reverse`);
    expect([alone.statusCode, alone.json().error.code]).toEqual([422, 'SVC-9003']);
    // The organization is Serbian: the detail is in Serbian (detail-messages.ts).
    expect(alone.json().error.details).toEqual({ id: ['knjiženje naloga se stornira zajedno sa nalogom'] });
    expect(await balances(s)).toEqual(before);
    expect((await api(s.token, 'GET', `/transactions/entries/${entryId}`)).json().data).toHaveLength(3);
    const [one, two] = await Promise.all([
      api(s.token, 'POST', `/transactions/entries/${entryId}/reverse`),
      api(s.token, 'POST', `/transactions/entries/${entryId}/reverse`),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([201, 422]);
    const made = (one.statusCode === 201 ? one : two).json().data as Array<{ reversalOf: string }>;
    expect(made.map((r) => r.reversalOf).sort()).toEqual(data.map((p: { id: string }) => p.id).sort());
    expect(Object.values(await balances(s)).every((b) => b === '0.00')).toBe(true);
  });

  it('reverses alone the one posting of a two-line entry, and a posting entered alone', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const { data } = (
      await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Cash in',
        lines: [
          { accountId: a['1000'], debit: 5 },
          { accountId: a['4900'], credit: 5 },
        ],
      })
    ).json();
    expect(data).toHaveLength(1);
    expect((await api(s.token, 'POST', `/transactions/${data[0].id}/reverse`)).statusCode).toBe(201);
    const lone = (
      await api(s.token, 'POST', '/transactions', {
        transactionDate: '2026-06-11',
        description: 'Cash in',
        debitAccountId: a['1000'],
        creditAccountId: a['4900'],
        amount: 7,
      })
    ).json();
    expect((await api(s.token, 'POST', `/transactions/${lone.id}/reverse`)).statusCode).toBe(201);
    expect(Object.values(await balances(s)).every((b) => b === '0.00')).toBe(true);
  });

  it('treats a lone manual posting as an entry of its own, and has no entry for a document posting', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const lone = (
      await api(s.token, 'POST', '/transactions', {
        transactionDate: '2026-06-01',
        description: 'Typo',
        debitAccountId: a['1000'],
        creditAccountId: a['4900'],
        amount: 99,
      })
    ).json();
    expect(lone).toMatchObject({ referenceId: null, entryId: lone.id });
    const reversed = await api(s.token, 'POST', `/transactions/entries/${lone.id}/reverse`);
    expect(reversed.statusCode, reversed.body).toBe(201);
    expect(reversed.json().data).toEqual([
      expect.objectContaining({ reversalOf: lone.id, entryId: lone.id, referenceId: null }),
    ]);
    const read = (await api(s.token, 'GET', `/transactions/entries/${lone.id}`)).json().data;
    expect(read.map((p: { id: string }) => p.id)).toEqual([lone.id, reversed.json().data[0].id]);
    // A reversal's own id names no entry (its entry is the posting it reverses).
    const reversalId = reversed.json().data[0].id;
    expect((await api(s.token, 'GET', `/transactions/entries/${reversalId}`)).statusCode).toBe(404);
    expect((await api(s.token, 'POST', `/transactions/entries/${reversalId}/reverse`)).statusCode).toBe(404);
    // An expense's postings are reversed through the expense, not as an entry.
    const e = (
      await api(s.token, 'POST', '/expenses', { expenseDate: '2026-06-02', category: 'Rent', amount: 100 })
    ).json();
    await h.app.inject(authed(s.token, { method: 'PATCH', url: `/api/v1/expenses/${e.id}/approve` }));
    const posted = (await api(s.token, 'GET', '/transactions?referenceType=expense')).json().data;
    expect(posted.length).toBeGreaterThan(0);
    for (const p of posted) {
      expect(p.entryId).toBeNull();
      expect((await api(s.token, 'GET', `/transactions/entries/${p.id}`)).statusCode).toBe(404);
      expect((await api(s.token, 'POST', `/transactions/entries/${p.id}/reverse`)).statusCode).toBe(404);
    }
  });

  it('is reversed by writers only; a viewer reads it', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s);
    const { entryId } = (
      await api(s.token, 'POST', '/transactions/entries', {
        transactionDate: '2026-06-10',
        description: 'Rent and VAT',
        lines: lines(a),
      })
    ).json();
    const viewer = await addMember(h.app, s, 'viewer');
    expect((await api(viewer.token, 'GET', `/transactions/entries/${entryId}`)).statusCode).toBe(200);
    expect((await api(viewer.token, 'POST', `/transactions/entries/${entryId}/reverse`)).statusCode).toBe(403);
    const accountant = await addMember(h.app, s, 'accountant');
    expect((await api(accountant.token, 'POST', `/transactions/entries/${entryId}/reverse`)).statusCode).toBe(201);
  });
});

describe('PUT /organization baseCurrency (SVC-2004)', () => {
  it('is accepted before the first posting and refused with 400 SVC-2004 after it', async () => {
    const s = await registerOrg(h.app, { baseCurrency: 'RSD' });
    expect((await api(s.token, 'PUT', '/organization', { baseCurrency: 'EUR' })).statusCode).toBe(200);
    const a = await chart(s);
    expect(
      (
        await api(s.token, 'POST', '/transactions', {
          transactionDate: '2026-06-01',
          description: 'First',
          debitAccountId: a['1000'],
          creditAccountId: a['3000'],
          amount: 1,
        })
      ).statusCode,
    ).toBe(201);
    const res = await api(s.token, 'PUT', '/organization', { baseCurrency: 'RSD' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('SVC-2004');
    expect((await api(s.token, 'GET', '/organization')).json().baseCurrency).toBe('EUR');
    // Other fields stay editable.
    expect((await api(s.token, 'PUT', '/organization', { name: 'Renamed' })).statusCode).toBe(200);
  });
});

describe('ledger invariants (property-based)', () => {
  const CODES = ['1000', '1100', '1200', '2110', '3000', '4000', '5000', '5100'];
  const CURRENCIES = ['RSD', 'EUR', 'USD', 'CHF', 'GBP', 'BAM'];
  const anEntry = fc.record({
    debit: fc.constantFrom(...CODES),
    credit: fc.constantFrom(...CODES),
    cents: fc.integer({ min: 1, max: 50_000_000 }),
    currency: fc.constantFrom(...CURRENCIES),
    day: fc.integer({ min: 0, max: 700 }),
  });

  it('keeps debit totals equal to credit totals and every currentBalance equal to the balance recomputed from the postings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anEntry, { minLength: 1, maxLength: 10 }),
        fc.constantFrom('RSD', 'EUR', 'BAM'),
        async (entries, base) => {
          const s = await registerOrg(h.app, { baseCurrency: base });
          const a = await chart(s);
          const posted: Array<{ amount: string; exchangeRate: string; baseAmount: string }> = [];
          for (const e of entries) {
            const transactionDate = new Date(Date.UTC(2025, 0, 1) + e.day * 86_400_000).toISOString().slice(0, 10);
            const amount = e.cents / 100;
            const res = await api(s.token, 'POST', '/transactions', {
              transactionDate,
              description: 'prop',
              debitAccountId: a[e.debit],
              creditAccountId: a[e.credit],
              amount,
              currencyCode: e.currency,
            });
            if (e.debit === e.credit) {
              expect(res.statusCode).toBe(422);
              continue;
            }
            expect(res.statusCode, res.body).toBe(201);
            posted.push(res.json());
          }
          // Each posting's base amount is its amount at its rate, rounded half-up to 2 decimals.
          for (const t of posted)
            expect(t.baseAmount).toBe(roundHalfUp(dec(t.amount).mul(t.exchangeRate), 2).toFixed(2));

          await foldLedger(h.t.db);
          const totals = await h.t.db.system
            .selectFrom('account_balances')
            .select(['debit_total', 'credit_total'])
            .where('organization_id', '=', s.orgId)
            .execute();
          expect(sum(totals.map((t) => t.debit_total)).toFixed(4)).toBe(
            sum(totals.map((t) => t.credit_total)).toFixed(4),
          );

          const txs = (await api(s.token, 'GET', '/transactions?perPage=100')).json().data as Array<{
            debitAccountId: string;
            creditAccountId: string;
            baseAmount: string;
          }>;
          expect(txs).toHaveLength(posted.length);
          const accounts = (await api(s.token, 'GET', '/accounts')).json().data as Array<{
            id: string;
            normalBalance: string;
            currentBalance: string;
          }>;
          for (const account of accounts) {
            const debits = sum(txs.filter((t) => t.debitAccountId === account.id).map((t) => t.baseAmount));
            const credits = sum(txs.filter((t) => t.creditAccountId === account.id).map((t) => t.baseAmount));
            const expected = account.normalBalance === 'debit' ? debits.minus(credits) : credits.minus(debits);
            expect(account.currentBalance).toBe(expected.toFixed(2));
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('GET /transactions?referenceId', () => {
  it('lists the postings of one document', async () => {
    const s = await registerOrg(h.app);
    const approved = async (amount: number) => {
      const e = (
        await api(s.token, 'POST', '/expenses', { expenseDate: '2026-06-02', category: 'Rent', amount })
      ).json();
      const res = await h.app.inject(authed(s.token, { method: 'PATCH', url: `/api/v1/expenses/${e.id}/approve` }));
      expect(res.statusCode, res.body).toBe(200);
      return e.id as string;
    };
    const [first, second] = [await approved(40), await approved(60)];
    const of = async (id: string) => {
      const res = await api(s.token, 'GET', `/transactions?referenceType=expense&referenceId=${id}&perPage=100`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Array<{ referenceId: string }>;
    };
    const firstPostings = await of(first);
    expect(firstPostings.length).toBeGreaterThan(0);
    expect(new Set(firstPostings.map((p) => p.referenceId))).toEqual(new Set([first]));
    const secondPostings = await of(second);
    expect(secondPostings).toHaveLength(firstPostings.length);
    expect(secondPostings.every((p) => p.referenceId === second)).toBe(true);
    expect(await of(crypto.randomUUID())).toEqual([]);
    const bad = await api(s.token, 'GET', '/transactions?referenceId=42');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('SVC-9003');
  });
});

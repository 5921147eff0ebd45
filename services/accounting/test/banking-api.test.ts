import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, invoiceBody, patchStatus, postingsOf } from './invoices-fixtures.js';
import { form } from './multipart.js';

let t: TestApp;
let owner: Session;
let accountant: Session;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, { baseCurrency: 'RSD' });
  accountant = await addMember(t.app, owner, 'accountant');
});
afterAll(async () => t?.close());

const inject = (s: Session, method: string, url: string, payload?: unknown) =>
  t.app.inject(
    authed(s.token, { method: method as 'GET', url, ...(payload === undefined ? {} : { payload: payload as object }) }),
  );

async function accountIds(s: Session): Promise<Record<string, string>> {
  const res = await inject(s, 'GET', '/api/v1/accounts');
  return Object.fromEntries(res.json().data.map((a: { code: string; id: string }) => [a.code, a.id]));
}

/** A fresh Asset ledger account and a bank account on it. */
async function newBank(s: Session, opts: { code: string; balance?: number }) {
  const acc = await inject(s, 'POST', '/api/v1/accounts', {
    code: opts.code,
    name: `Bank ${opts.code}`,
    accountTypeId: 1,
  });
  if (acc.statusCode !== 201) throw new Error(`account: ${acc.body}`);
  const res = await inject(s, 'POST', '/api/v1/bank-accounts', {
    accountId: acc.json().id,
    bankName: 'Banka Intesa',
    iban: 'RS35 1050 0812 3123 1231',
    currencyCode: 'RSD',
    currentBalance: opts.balance ?? 0,
  });
  if (res.statusCode !== 201) throw new Error(`bank account: ${res.body}`);
  return res.json() as { id: string; accountId: string; accountCode: string; currentBalance: string };
}

const importCsv = (s: Session, bankId: string, csv: string | Buffer, filename = 'statement.csv') =>
  t.app.inject(
    authed(s.token, {
      method: 'POST',
      url: `/api/v1/bank-accounts/${bankId}/import`,
      ...form({}, { field: 'file', filename, type: 'text/csv', data: Buffer.isBuffer(csv) ? csv : Buffer.from(csv) }),
    }),
  );

const lines = async (s: Session, bankId: string, query = '') =>
  (await inject(s, 'GET', `/api/v1/bank-accounts/${bankId}/transactions?perPage=100&${query}`)).json();

describe('bank accounts', () => {
  it('creates a bank account on an Asset ledger account and lists it with its code and opening balance', async () => {
    const ids = await accountIds(owner);
    const res = await inject(owner, 'POST', '/api/v1/bank-accounts', {
      accountId: ids['1100'],
      bankName: 'Raiffeisen',
      accountNumber: '265-1234-56',
      currencyCode: 'RSD',
      currentBalance: 1500.5,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      accountId: ids['1100'],
      accountCode: '1100',
      bankName: 'Raiffeisen',
      accountNumber: '265-1234-56',
      iban: null,
      currencyCode: 'RSD',
      currentBalance: '1500.50',
      isActive: true,
    });
    const list = await inject(accountant, 'GET', '/api/v1/bank-accounts');
    expect(list.json().data.map((b: { id: string }) => b.id)).toContain(res.json().id);
  });

  it('answers 422 SVC-5002 for a ledger account that is not an Asset and 404 SVC-5003 for an unknown or foreign one', async () => {
    const ids = await accountIds(owner);
    const revenue = await inject(owner, 'POST', '/api/v1/bank-accounts', {
      accountId: ids['4000'],
      bankName: 'X',
      currencyCode: 'RSD',
    });
    expect([revenue.statusCode, revenue.json().error.code]).toEqual([422, 'SVC-5002']);
    const other = await registerOrg(t.app);
    const foreign = (await accountIds(other))['1100'];
    for (const accountId of [foreign, '00000000-0000-4000-8000-000000000000']) {
      const res = await inject(owner, 'POST', '/api/v1/bank-accounts', {
        accountId,
        bankName: 'X',
        currencyCode: 'RSD',
      });
      expect([res.statusCode, res.json().error.code]).toEqual([404, 'SVC-5003']);
    }
  });

  it('refuses a missing bank name, an unknown currency and a non-finite or over-precise balance', async () => {
    const ids = await accountIds(owner);
    for (const body of [
      { accountId: ids['1000'], currencyCode: 'RSD' },
      { accountId: ids['1000'], bankName: 'X', currencyCode: 'XXX' },
      { accountId: ids['1000'], bankName: 'X', currencyCode: 'RSD', currentBalance: 'Infinity' },
      { accountId: ids['1000'], bankName: 'X', currencyCode: 'RSD', currentBalance: 1.001 },
    ]) {
      const res = await inject(owner, 'POST', '/api/v1/bank-accounts', body);
      expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-9003']);
    }
  });

  it('answers 404 SVC-5001 for the transactions, import and reconcile of an unknown bank account', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await inject(owner, 'GET', `/api/v1/bank-accounts/${id}/transactions`)).json().error.code).toBe('SVC-5001');
    expect((await importCsv(owner, id, '2026-01-01,x,1\n')).json().error.code).toBe('SVC-5001');
    const rec = await inject(owner, 'POST', `/api/v1/bank-accounts/${id}/reconcile`, {
      bankTransactionId: id,
      transactionId: id,
    });
    expect(rec.json().error.code).toBe('SVC-5001');
  });
});

describe('statement import (A14)', () => {
  it('imports a file with a header; lines list newest first; currentBalance = opening + imported lines (A9)', async () => {
    const bank = await newBank(owner, { code: '1101', balance: 1000 });
    const res = await importCsv(
      owner,
      bank.id,
      'Date,Description,Amount,Reference\n2026-03-01,Uplata kupca,1500.00,INV-2026-0001\n2026-03-02,Kirija,-400.5,\n',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ imported: 2, duplicates: 0, errors: [] });
    const page = await lines(owner, bank.id);
    expect(page.data.map((l: any) => [l.transactionDate, l.amount, l.description, l.reference, l.reconciled])).toEqual([
      ['2026-03-02', '-400.50', 'Kirija', null, false],
      ['2026-03-01', '1500.00', 'Uplata kupca', 'INV-2026-0001', false],
    ]);
    const list = (await inject(owner, 'GET', '/api/v1/bank-accounts')).json().data;
    expect(list.find((b: any) => b.id === bank.id).currentBalance).toBe('2099.50');
    // A20: one audit row per imported line, with the caller and the line's values.
    const audit = await sql<{ record_id: string; user_id: string; org: string; amount: string }>`
      SELECT record_id, user_id, organization_id::text AS org, new_values ->> 'amount' AS amount FROM logged_actions
      WHERE table_name = 'bank_transactions' AND action = 'INSERT' AND new_values ->> 'bank_account_id' = ${bank.id} ORDER BY amount`.execute(
      t.t.db.system,
    );
    expect(audit.rows.map((r) => [r.user_id, r.org, Number(r.amount)])).toEqual([
      [owner.userId, owner.orgId, -400.5],
      [owner.userId, owner.orgId, 1500],
    ]);
    expect(audit.rows.map((r) => r.record_id).sort()).toEqual(page.data.map((l: any) => l.id).sort());
    // The statement's lines share their table's one shape, nulls stored in place (issue 31), and read
    // without them, as an insert always read: an open line has no matched_transaction_id.
    const stored = await sql<{ shape_id: number; raw: unknown[]; values: Record<string, unknown> }>`
      SELECT a.shape_id, a.new_values AS raw, l.new_values AS values FROM audit_rows a JOIN logged_actions l ON l.id = a.id
      WHERE a.record_id IN (${sql.join(audit.rows.map((r) => r.record_id))})`.execute(t.t.db.system);
    expect(new Set(stored.rows.map((r) => r.shape_id)).size).toBe(1);
    for (const r of stored.rows) {
      expect(r.raw).toContain(null);
      expect(r.values).not.toHaveProperty('matched_transaction_id');
      expect(Object.values(r.values)).not.toContain(null);
    }
    expect(stored.rows.find((r) => r.values.description === 'Uplata kupca')!.values).toMatchObject({
      reference: 'INV-2026-0001',
      reconciled: false,
    });
  });

  it('imports a file without a header and without the Reference column', async () => {
    const bank = await newBank(owner, { code: '1102' });
    const res = await importCsv(owner, bank.id, '2026-03-01,A,10\r\n2026-03-02,B,-5\r\n');
    expect(res.json()).toEqual({ imported: 2, duplicates: 0, errors: [] });
  });

  it('detects semicolons with a decimal comma, strips a BOM and keeps quoted delimiters and line breaks', async () => {
    const bank = await newBank(owner, { code: '1103' });
    const csv =
      '\uFEFFDate;Description;Amount;Reference\n2026-04-01;"Račun; Čačak";-1.234,56;R-1\n2026-04-02;"Dve\nlinije";1234,5;\n2026-04-03;Treća;7;\n';
    const res = await importCsv(owner, bank.id, csv);
    expect(res.json()).toEqual({ imported: 3, duplicates: 0, errors: [] });
    const page = await lines(owner, bank.id, 'sort=transactionDate&order=asc');
    expect(page.data.map((l: any) => [l.amount, l.description])).toEqual([
      ['-1234.56', 'Račun; Čačak'],
      ['1234.50', 'Dve\nlinije'],
      ['7.00', 'Treća'],
    ]);
  });

  it('keeps commas inside quoted fields of a comma file', async () => {
    const bank = await newBank(owner, { code: '1104' });
    const res = await importCsv(
      owner,
      bank.id,
      'Date,Description,Amount,Reference\n2026-04-01,"Kupac, d.o.o.",10.00,"R,1"\n',
    );
    expect(res.json().imported).toBe(1);
    expect((await lines(owner, bank.id)).data[0]).toMatchObject({ description: 'Kupac, d.o.o.', reference: 'R,1' });
  });

  it('stores descriptions and references exactly, whatever array-literal syntax they hold', async () => {
    // The batches reach PostgreSQL as array literals (statement-csv.ts ArrayLiteral): quotes, backslashes,
    // braces, commas, the word NULL, an empty reference and non-Latin text must come back as written.
    const bank = await newBank(owner, { code: '1112' });
    const texts: Array<[string, string]> = [
      ['Say "hi" \\ back\\', 'R\\"1'],
      ['{a,b}', '}{'],
      ['NULL', 'NULL'],
      ['Ćao 😀 日本', ''],
      ['\\\\', '"'],
    ];
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const csv = texts.map(([d, r], i) => `2026-06-0${i + 1},${quote(d)},${i + 1},${quote(r)}`).join('\n');
    expect((await importCsv(owner, bank.id, csv)).json()).toEqual({
      imported: texts.length,
      duplicates: 0,
      errors: [],
    });
    const page = await lines(owner, bank.id, 'sort=transactionDate&order=asc');
    expect(page.data.map((l: any) => [l.description, l.reference])).toEqual(
      texts.map(([d, r]) => [d, r === '' ? null : r]),
    );
    // The same file again: every row a duplicate (the fingerprints of what was stored match the file's).
    expect((await importCsv(owner, bank.id, csv)).json()).toEqual({
      imported: 0,
      duplicates: texts.length,
      errors: [],
    });
  });

  it('reports bad rows with their physical line numbers (also after a multi-line field) and imports the rest', async () => {
    const bank = await newBank(owner, { code: '1105' });
    const csv = [
      'Date,Description,Amount,Reference', // 1
      '2026-05-01,"first', // 2
      'second",10,', // 3
      '05/01/2026,bad date,10,', // 4 (dd.mm.yyyy is accepted since issue 25; a slashed date is not)
      '2026-05-02,bad amount,ten,', // 5
      '2026-05-03,too,many,columns,here', // 6
      '', // 7 (empty, skipped)
      '2026-02-30,impossible date,1,', // 8
      '2026-05-04,too precise,1.001,', // 9
      '2026-05-05,ok,-3,', // 10
    ].join('\n');
    const res = await importCsv(owner, bank.id, csv);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.imported).toBe(2);
    expect(body.errors.map((e: { line: number }) => e.line)).toEqual([4, 5, 6, 8, 9]);
    // In the organization's language (sr, issue 25): 'datum "05/01/2026" nije datum (...)'.
    expect(body.errors[0].error).toContain('nije datum');
  });

  it('counts an overlapping re-import as duplicates and imports only the new rows', async () => {
    const bank = await newBank(owner, { code: '1106' });
    await importCsv(owner, bank.id, '2026-06-01,A,10,R1\n2026-06-02,B,20,R2\n');
    const res = await importCsv(owner, bank.id, '2026-06-02,B,20.00,R2\n2026-06-03,C,30,R3\n');
    expect(res.json()).toEqual({ imported: 1, duplicates: 1, errors: [] });
    expect((await lines(owner, bank.id)).meta.total).toBe(3);
    const list = (await inject(owner, 'GET', '/api/v1/bank-accounts')).json().data;
    expect(list.find((b: any) => b.id === bank.id).currentBalance).toBe('60.00');
  });

  it('keeps two identical rows of one file as two, and a later file with three such rows adds one (n-th occurrence)', async () => {
    const bank = await newBank(owner, { code: '1107' });
    const row = '2026-06-10,Kafa,-150,\n';
    expect((await importCsv(owner, bank.id, row + row)).json()).toEqual({ imported: 2, duplicates: 0, errors: [] });
    expect((await importCsv(owner, bank.id, row + row + row)).json()).toEqual({
      imported: 1,
      duplicates: 2,
      errors: [],
    });
    expect((await lines(owner, bank.id)).meta.total).toBe(3);
  });

  it('answers 422 SVC-5008 when every row is refused and one of them for its date, and writes nothing', async () => {
    const bank = await newBank(owner, { code: '1108' });
    const res = await importCsv(owner, bank.id, 'Date,Description,Amount\n2026/01/01,A,1\n2026-01-02,B,x\n');
    expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-5008']);
    expect(res.json().error.details.errors).toEqual([
      expect.stringContaining('red 2'),
      expect.stringContaining('red 3'),
    ]);
    expect((await lines(owner, bank.id)).meta.total).toBe(0);
  });

  it('answers 422 SVC-5006 for an all-bad file without date errors, too few columns, no data rows, broken quoting or no file', async () => {
    const bank = await newBank(owner, { code: '1109' });
    for (const csv of [
      '2026-01-02,B,x\n',
      'Date,Amount\n2026-01-01,1\n',
      'Date,Description,Amount\n',
      '',
      '2026-01-01,"unclosed,1\n',
    ]) {
      const res = await importCsv(owner, bank.id, csv);
      expect([JSON.stringify(csv), res.statusCode, res.json().error.code]).toEqual([
        JSON.stringify(csv),
        422,
        'SVC-5006',
      ]);
    }
    const noFile = await t.app.inject(
      authed(owner.token, { method: 'POST', url: `/api/v1/bank-accounts/${bank.id}/import`, ...form({ note: 'x' }) }),
    );
    expect([noFile.statusCode, noFile.json().error.code]).toEqual([422, 'SVC-5006']);
    const json = await inject(owner, 'POST', `/api/v1/bank-accounts/${bank.id}/import`, { file: 'x' });
    expect(json.json().error.code).toBe('SVC-5006');
    expect((await lines(owner, bank.id)).meta.total).toBe(0);
  });

  it('answers 413 SVC-5007 for a file of 5 MB + 1 byte and writes nothing', async () => {
    const bank = await newBank(owner, { code: '1110' });
    const row = Buffer.from('2026-01-01,Payment,1.00,\n');
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    for (let i = 0; i + row.length <= big.length; i += row.length) row.copy(big, i);
    big.fill(0x0a, big.length - ((5 * 1024 * 1024 + 1) % row.length));
    const res = await importCsv(owner, bank.id, big);
    expect([res.statusCode, res.json().error.code]).toEqual([413, 'SVC-5007']);
    expect((await lines(owner, bank.id)).meta.total).toBe(0);
  });

  it('filters lines by date and reconciled flag and sorts by amount', async () => {
    const bank = await newBank(owner, { code: '1111' });
    await importCsv(owner, bank.id, '2026-07-01,A,10\n2026-07-05,B,-30\n2026-07-09,C,20\n');
    expect(
      (await lines(owner, bank.id, 'fromDate=2026-07-02&toDate=2026-07-09')).data.map((l: any) => l.description),
    ).toEqual(['C', 'B']);
    expect((await lines(owner, bank.id, 'sort=amount&order=asc')).data.map((l: any) => l.amount)).toEqual([
      '-30.00',
      '10.00',
      '20.00',
    ]);
    expect((await lines(owner, bank.id, 'reconciled=true')).meta.total).toBe(0);
    expect(
      (await inject(owner, 'GET', `/api/v1/bank-accounts/${bank.id}/transactions?reconciled=maybe`)).statusCode,
    ).toBe(422);
  });
});

describe('payments on bank accounts (A8)', () => {
  it('books invoice mark-paid and expense pay on the named bank account, else on the first active one', async () => {
    const s = await registerOrg(t.app);
    const first = await newBank(s, { code: '1120' });
    const second = await newBank(s, { code: '1121' });
    const customer = await createCustomer(t.app, s);
    const inv = await createInvoice(
      t.app,
      s,
      invoiceBody(customer.id, { invoiceDate: '2026-01-10', dueDate: '2099-01-01' }),
    );
    await patchStatus(t.app, s, inv.id, { action: 'send' });
    expect(
      (await patchStatus(t.app, s, inv.id, { action: 'mark-paid', paidAt: '2026-01-20', bankAccountId: second.id }))
        .statusCode,
    ).toBe(200);
    const invPay = (await postingsOf(t.t.db, s.orgId, inv.id)).filter((p) => p.reference_type === 'payment');
    expect(invPay.map((p) => [p.debit, p.credit])).toEqual([['1121', '1200']]);

    const e = (
      await inject(s, 'POST', '/api/v1/expenses', { expenseDate: '2026-01-10', category: 'Rent', amount: 100 })
    ).json();
    await inject(s, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    const paid = await inject(s, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2026-01-11' });
    expect(paid.json().paidBankAccountId).toBe(first.id);
    const expPay = (await postingsOf(t.t.db, s.orgId, e.id)).filter((p) => p.reference_type === 'payment');
    expect(expPay.map((p) => [p.debit, p.credit])).toEqual([['2110', '1120']]);
  });
});

describe('reconciliation (A15)', () => {
  let s: Session;
  let bank: Awaited<ReturnType<typeof newBank>>;
  let ids: Record<string, string>;
  beforeAll(async () => {
    s = await registerOrg(t.app);
    bank = await newBank(s, { code: '1130' });
    ids = await accountIds(s);
  });

  /** A manual posting on the bank's ledger account: money in debits it, money out credits it. */
  async function posting(date: string, amount: number, description = 'Manual', direction: 'in' | 'out' = 'in') {
    const [debit, credit] = direction === 'in' ? [bank.accountId, ids['4900']] : [ids['5000'], bank.accountId];
    const res = await inject(s, 'POST', '/api/v1/transactions', {
      transactionDate: date,
      description,
      debitAccountId: debit,
      creditAccountId: credit,
      amount,
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().id as string;
  }
  async function lineId(description: string) {
    return (await lines(s, bank.id)).data.find((l: any) => l.description === description).id as string;
  }

  it('suggests, best first, the postings that score 50 or more, each posting once, for unreconciled lines only', async () => {
    const exact = await posting('2026-08-10', 500, 'Uplata R-77');
    const nearby = await posting('2026-08-13', 500, 'Uplata'); // same amount, 3 days later
    await posting('2026-08-10', 999, 'Unrelated'); // same date, other amount, no reference: 30
    const out = await posting('2026-08-12', 80, 'Bank fee', 'out');
    await importCsv(s, bank.id, '2026-08-10,Incoming,500,R-77\n2026-08-10,Incoming twin,500,\n2026-08-12,Fee,-80,\n');
    const page = await lines(s, bank.id);
    const byLine = (d: string) =>
      page.suggestions.filter((x: any) => x.bankTxId === page.data.find((l: any) => l.description === d).id);
    // 50 amount + 30 same date + 20 the posting's description contains the reference R-77 = 100.
    expect(byLine('Incoming')).toEqual([{ bankTxId: expect.any(String), glTxId: exact, score: 100 }]);
    // The exact posting went to the line it fits best; the twin gets the other one (50 + 20).
    expect(byLine('Incoming twin')).toEqual([{ bankTxId: expect.any(String), glTxId: nearby, score: 70 }]);
    expect(byLine('Fee')).toEqual([{ bankTxId: expect.any(String), glTxId: out, score: 80 }]);
    const glIds = page.suggestions.map((x: any) => x.glTxId);
    expect(new Set(glIds).size).toBe(glIds.length);
  });

  it('reconciles a line with a posting: both flagged, confidence is the pair score, and both leave the suggestions', async () => {
    const line = await lineId('Fee');
    const page = await lines(s, bank.id);
    const suggestion = page.suggestions.find((x: any) => x.bankTxId === line);
    const ok = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: line,
      transactionId: suggestion.glTxId,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().confidence).toBe(80);
    expect(ok.json().bankTransaction).toMatchObject({
      id: line,
      reconciled: true,
      matchedTransactionId: suggestion.glTxId,
    });
    expect(ok.json().transaction).toMatchObject({ id: suggestion.glTxId, reconciled: true });
    expect(ok.json().transaction.reconciledAt).toEqual(expect.any(String));
    const after = await lines(s, bank.id);
    expect(after.suggestions.some((x: any) => x.bankTxId === line || x.glTxId === suggestion.glTxId)).toBe(false);
    expect((await lines(s, bank.id, 'reconciled=true')).data.map((l: any) => l.id)).toEqual([line]);
  });

  it('never suggests an already reconciled posting again, money in or out, to a new line of its amount and day', async () => {
    const own = await newBank(s, { code: '1139' });
    const post = async (amount: number, direction: 'in' | 'out', transactionDate = '2026-09-01') => {
      const [debit, credit] = direction === 'in' ? [own.accountId, ids['4900']] : [ids['5000'], own.accountId];
      const res = await inject(s, 'POST', '/api/v1/transactions', {
        transactionDate,
        description: 'Manual',
        debitAccountId: debit,
        creditAccountId: credit,
        amount,
      });
      return res.json().id as string;
    };
    const incoming = await post(300, 'in');
    const outgoing = await post(40, 'out');
    await importCsv(s, own.id, '2026-09-01,First in,300,\n2026-09-01,First out,-40,\n');
    const first = await lines(s, own.id);
    for (const [description, posting] of [
      ['First in', incoming],
      ['First out', outgoing],
    ]) {
      const line = first.data.find((l: any) => l.description === description).id;
      // 50 amount + 30 same day: the only candidate for its line.
      expect(first.suggestions).toContainEqual({ bankTxId: line, glTxId: posting, score: 80 });
      const ok = await inject(s, 'POST', `/api/v1/bank-accounts/${own.id}/reconcile`, {
        bankTransactionId: line,
        transactionId: posting,
      });
      expect(ok.statusCode).toBe(200);
    }
    // The same amounts on the same day again: the reconciled postings (80 if they were free) are taken;
    // a fresh posting a day off (50 + 20) is what each line gets.
    const freshIn = await post(300, 'in', '2026-09-02');
    const freshOut = await post(40, 'out', '2026-09-02');
    await importCsv(s, own.id, '2026-09-01,Second in,300,\n2026-09-01,Second out,-40,\n');
    const second = await lines(s, own.id);
    const id = (d: string) => second.data.find((l: any) => l.description === d).id;
    expect(second.suggestions).toHaveLength(2);
    expect(second.suggestions).toEqual(
      expect.arrayContaining([
        { bankTxId: id('Second in'), glTxId: freshIn, score: 70 },
        { bankTxId: id('Second out'), glTxId: freshOut, score: 70 },
      ]),
    );
  });

  it('answers 400 SVC-5005 when either side is already reconciled', async () => {
    const reconciledLine = (await lines(s, bank.id, 'reconciled=true')).data[0];
    const free = await posting('2026-08-20', 1);
    const res = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: reconciledLine.id,
      transactionId: free,
    });
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'SVC-5005']);
    const res2 = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: await lineId('Incoming'),
      transactionId: reconciledLine.matchedTransactionId,
    });
    expect([res2.statusCode, res2.json().error.code]).toEqual([400, 'SVC-5005']);
  });

  it('answers 404 SVC-5004 for an unknown line or a line of another bank account, 404 for an unknown posting, 422 for a posting off the ledger account', async () => {
    const other = await newBank(s, { code: '1131' });
    await importCsv(s, other.id, '2026-08-01,Elsewhere,5\n');
    const elsewhere = (await lines(s, other.id)).data[0].id;
    const p = await posting('2026-08-21', 2);
    for (const bankTransactionId of [elsewhere, '00000000-0000-4000-8000-000000000000']) {
      const res = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
        bankTransactionId,
        transactionId: p,
      });
      expect([res.statusCode, res.json().error.code]).toEqual([404, 'SVC-5004']);
    }
    const line = await lineId('Incoming twin');
    const missing = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: line,
      transactionId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    const offAccount = await inject(s, 'POST', '/api/v1/transactions', {
      transactionDate: '2026-08-10',
      description: 'x',
      debitAccountId: ids['5000'],
      creditAccountId: ids['2110'],
      amount: 500,
    });
    const res = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: line,
      transactionId: offAccount.json().id,
    });
    expect([res.statusCode, res.json().error.code]).toEqual([422, 'SVC-9003']);
  });

  it('lets only one of two concurrent reconciliations of the same posting through', async () => {
    const p = await posting('2026-08-25', 42);
    await importCsv(s, bank.id, '2026-08-25,Race A,42,\n2026-08-25,Race B,42,\n');
    const [a, b] = [await lineId('Race A'), await lineId('Race B')];
    const results = await Promise.all(
      [a, b].map((bankTransactionId) =>
        inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, { bankTransactionId, transactionId: p }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.json().error.code).toBe('SVC-5005');
    const matched = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM bank_transactions WHERE matched_transaction_id = ${p}`.execute(t.t.db.system);
    expect(matched.rows[0].n).toBe('1');
  });

  const unreconcile = (bankTransactionId: string, bankId = bank.id) =>
    inject(s, 'POST', `/api/v1/bank-accounts/${bankId}/unreconcile`, { bankTransactionId });

  it('undoes a match: the line and its posting are unmatched, suggested together again and can be matched again', async () => {
    const p = await posting('2026-09-03', 315, 'Undo me');
    await importCsv(s, bank.id, '2026-09-03,Wrong match,315,\n');
    const line = await lineId('Wrong match');
    const match = () =>
      inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, { bankTransactionId: line, transactionId: p });
    expect((await match()).statusCode).toBe(200);
    const res = await unreconcile(line);
    expect(res.statusCode).toBe(200);
    expect(res.json().bankTransaction).toMatchObject({ id: line, reconciled: false, matchedTransactionId: null });
    expect(res.json().transaction).toMatchObject({ id: p, reconciled: false, reconciledAt: null });
    // 50 the amount + 30 the same day: offered again as before the match.
    expect((await lines(s, bank.id)).suggestions).toContainEqual({ bankTxId: line, glTxId: p, score: 80 });
    expect((await lines(s, bank.id, 'reconciled=false')).data.map((l: any) => l.id)).toContain(line);
    const posted = (await inject(s, 'GET', `/api/v1/transactions/${p}`)).json();
    expect(posted).toMatchObject({ reconciled: false, reconciledAt: null });
    const again = await match();
    expect(again.statusCode).toBe(200);
    expect(again.json().bankTransaction.matchedTransactionId).toBe(p);
  });

  it('refuses to undo a line that is not matched (422) or is not on this bank account (404), and changes nothing', async () => {
    await importCsv(s, bank.id, '2026-09-04,Never matched,7,\n');
    const open = await unreconcile(await lineId('Never matched'));
    expect([open.statusCode, open.json().error.code]).toEqual([422, 'SVC-9003']);
    expect(Object.keys(open.json().error.details)).toEqual(['bankTransactionId']);
    const p = await posting('2026-09-04', 8);
    await importCsv(s, bank.id, '2026-09-04,Matched here,8,\n');
    const line = await lineId('Matched here');
    expect(
      (
        await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
          bankTransactionId: line,
          transactionId: p,
        })
      ).statusCode,
    ).toBe(200);
    const other = await newBank(s, { code: '1132' });
    for (const [id, bankId] of [
      [line, other.id],
      ['00000000-0000-4000-8000-000000000000', bank.id],
    ]) {
      const res = await unreconcile(id, bankId);
      expect([res.statusCode, res.json().error.code]).toEqual([404, 'SVC-5004']);
    }
    expect((await lines(s, bank.id, 'reconciled=true')).data.map((l: any) => l.id)).toContain(line);
    expect((await inject(s, 'GET', `/api/v1/transactions/${p}`)).json().reconciled).toBe(true);
  });

  it('lets one of two concurrent undos of the same match through; the other finds it undone (422)', async () => {
    const p = await posting('2026-09-05', 9);
    await importCsv(s, bank.id, '2026-09-05,Undo race,9,\n');
    const line = await lineId('Undo race');
    await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: line,
      transactionId: p,
    });
    const results = await Promise.all([unreconcile(line), unreconcile(line)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('suggests by the document number of an expense payment found in the bank reference', async () => {
    const e = (
      await inject(s, 'POST', '/api/v1/expenses', { expenseDate: '2026-09-01', category: 'Rent', amount: 321 })
    ).json();
    await inject(s, 'PATCH', `/api/v1/expenses/${e.id}/approve`);
    await inject(s, 'PATCH', `/api/v1/expenses/${e.id}/pay`, { paidAt: '2026-09-03', bankAccountId: bank.id });
    await importCsv(s, bank.id, `2026-09-06,Rent paid,-321,${e.expenseNumber}\n`);
    const page = await lines(s, bank.id);
    const line = page.data.find((l: any) => l.description === 'Rent paid').id;
    const payment = (await postingsOf(t.t.db, s.orgId, e.id)).length;
    expect(payment).toBe(2);
    // 50 amount + 20 (3 days) + 20 document number = 90.
    expect(page.suggestions.find((x: any) => x.bankTxId === line).score).toBe(90);
  });

  it('suggests an invoice payment a week off in date and amount when the line names its number and payment reference (10 + 20 + 20)', async () => {
    const customer = await createCustomer(t.app, s);
    const inv = await createInvoice(
      t.app,
      s,
      invoiceBody(customer.id, { invoiceDate: '2026-10-01', dueDate: '2099-01-01' }),
    );
    await patchStatus(t.app, s, inv.id, { action: 'send' });
    await patchStatus(t.app, s, inv.id, { action: 'mark-paid', paidAt: '2026-10-02', bankAccountId: bank.id });
    const {
      rows: [pay],
    } = await sql<{ id: string }>`SELECT id FROM ledger_transactions
      WHERE organization_id = ${s.orgId} AND reference_id = ${inv.id} AND reference_type = 'payment'`.execute(
      t.t.db.system,
    );
    const read = (await inject(s, 'GET', `/api/v1/invoices/${inv.id}`)).json();
    expect(read.paymentReference).toMatch(/^97 /);
    // 7 days later, 1.00 short (no amount match): only the date (10), number (20) and reference (20) count.
    const amount = (Number(inv.totalAmount) - 1).toFixed(2);
    await importCsv(s, bank.id, `2026-10-09,Uplata po ${inv.invoiceNumber},${amount},${read.paymentReference}\n`);
    const page = await lines(s, bank.id);
    const line = page.data.find((l: any) => l.description === `Uplata po ${inv.invoiceNumber}`).id;
    expect(page.suggestions.filter((x: any) => x.bankTxId === line)).toEqual([
      expect.objectContaining({ bankTxId: line, glTxId: pay.id, score: 50 }),
    ]);
  });

  it("suggests a manual posting of another amount only on the line's own day when its description contains the bank reference (30 + 20)", async () => {
    const sameDay = await posting('2026-11-05', 123, 'Transfer TRF-5521 received');
    await posting('2026-11-06', 456, 'Transfer TRF-5522 received'); // a day off: 20 + 20 = 40, below the threshold
    await importCsv(s, bank.id, '2026-11-05,Transfer A,777,TRF-5521\n2026-11-05,Transfer B,888,TRF-5522\n');
    const page = await lines(s, bank.id);
    const line = (d: string) => page.data.find((l: any) => l.description === d).id;
    expect(page.suggestions.filter((x: any) => x.bankTxId === line('Transfer A'))).toEqual([
      { bankTxId: line('Transfer A'), glTxId: sameDay, score: 50 },
    ]);
    expect(page.suggestions.filter((x: any) => x.bankTxId === line('Transfer B'))).toEqual([]);
  });
  it("answers another organization's bank account and lines as 404 and changes nothing", async () => {
    const intruder = await registerOrg(t.app);
    const line = await lineId('Incoming twin');
    const reconciled = async () =>
      (
        await sql<{
          n: string;
        }>`SELECT count(*)::text AS n FROM bank_transactions WHERE bank_account_id = ${bank.id} AND reconciled`.execute(
          t.t.db.system,
        )
      ).rows[0].n;
    const before = await reconciled();
    expect((await inject(intruder, 'GET', `/api/v1/bank-accounts/${bank.id}/transactions`)).statusCode).toBe(404);
    expect((await importCsv(intruder, bank.id, '2026-01-01,x,1\n')).statusCode).toBe(404);
    const rec = await inject(intruder, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, {
      bankTransactionId: line,
      transactionId: line,
    });
    expect(rec.statusCode).toBe(404);
    expect((await inject(intruder, 'GET', '/api/v1/bank-accounts')).json().data).toEqual([]);
    expect(await reconciled()).toBe(before);
  });
});

describe('pay and match: a bank line pays an invoice or an expense in one transaction', () => {
  let s: Session;
  let bank: Awaited<ReturnType<typeof newBank>>;
  let customerId: string;
  beforeAll(async () => {
    s = await registerOrg(t.app, { baseCurrency: 'RSD' });
    bank = await newBank(s, { code: '1140' });
    customerId = (await createCustomer(t.app, s)).id;
  });

  const reconcile = (who: Session, body: Record<string, unknown>) =>
    inject(who, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, body);
  async function sentInvoice(overrides: Record<string, unknown> = {}) {
    const inv = await createInvoice(
      t.app,
      s,
      invoiceBody(customerId, { invoiceDate: '2026-10-01', dueDate: '2099-01-01', ...overrides }),
    );
    expect((await patchStatus(t.app, s, inv.id, { action: 'send' })).statusCode).toBe(200);
    return inv as { id: string; invoiceNumber: string; totalAmount: string };
  }
  async function approvedExpense(amount: number) {
    const e = (
      await inject(s, 'POST', '/api/v1/expenses', { expenseDate: '2026-10-01', category: 'Rent', amount })
    ).json();
    expect((await inject(s, 'PATCH', `/api/v1/expenses/${e.id}/approve`)).statusCode).toBe(200);
    return e as { id: string; expenseNumber: string };
  }
  async function line(csvRow: string, description: string) {
    expect((await importCsv(s, bank.id, `${csvRow}\n`)).json().imported).toBe(1);
    return (await lines(s, bank.id)).data.find((l: any) => l.description === description).id as string;
  }
  const invoiceOf = async (id: string) => (await inject(s, 'GET', `/api/v1/invoices/${id}`)).json();
  const paymentsOf = async (id: string) =>
    (await postingsOf(t.t.db, s.orgId, id)).filter((p) => p.reference_type === 'payment');

  it("marks the invoice paid on the line's date from this bank account and matches its payment posting", async () => {
    const inv = await sentInvoice();
    const lineId = await line(`2026-10-05,Uplata kupca,${inv.totalAmount},${inv.invoiceNumber}`, 'Uplata kupca');
    const res = await reconcile(s, { bankTransactionId: lineId, invoiceId: inv.id });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.bankTransaction).toMatchObject({
      id: lineId,
      reconciled: true,
      matchedTransactionId: body.transaction.id,
    });
    expect(body.transaction).toMatchObject({
      referenceType: 'payment',
      referenceId: inv.id,
      transactionDate: '2026-10-05',
      amount: inv.totalAmount,
      debitAccountId: bank.accountId,
      reconciled: true,
    });
    // 50 amount + 30 same day + 20 the invoice number in the reference.
    expect(body.confidence).toBe(100);
    expect(await invoiceOf(inv.id)).toMatchObject({ status: 'paid', paidAt: expect.stringMatching(/^2026-10-05/) });
    expect((await paymentsOf(inv.id)).map((p) => [p.debit, p.credit, Number(p.amount)])).toEqual([
      ['1140', '1200', Number(inv.totalAmount)],
    ]);
  });

  it('pays an approved expense from a money-out line; an accountant may match but not pay one (403, nothing paid)', async () => {
    const e = await approvedExpense(250);
    const lineId = await line('2026-10-06,Zakup,-250,', 'Zakup');
    const clerk = await addMember(t.app, s, 'accountant');
    const forbidden = await reconcile(clerk, { bankTransactionId: lineId, expenseId: e.id });
    expect([forbidden.statusCode, forbidden.json().error.code]).toEqual([403, 'SVC-9001']);
    expect(await paymentsOf(e.id)).toEqual([]);
    const ok = await reconcile(s, { bankTransactionId: lineId, expenseId: e.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().transaction).toMatchObject({
      referenceId: e.id,
      creditAccountId: bank.accountId,
      amount: '250.00',
    });
    const expense = (await inject(s, 'GET', `/api/v1/expenses/${e.id}`)).json();
    expect(expense).toMatchObject({ status: 'paid', paidBankAccountId: bank.id });
  });

  it('refuses, and writes nothing, when the document cannot be paid from the line', async () => {
    const eur = await inject(s, 'POST', '/api/v1/exchange-rates', {
      baseCurrency: 'EUR',
      targetCurrency: 'RSD',
      rate: 117.2,
      effectiveDate: '2026-09-30',
    });
    expect(eur.statusCode).toBe(201);
    const foreign = await sentInvoice({ currencyCode: 'EUR' });
    const inv = await sentInvoice();
    const e = await approvedExpense(40);
    const moneyIn = await line('2026-10-07,Priliv,120,', 'Priliv');
    const moneyOut = await line('2026-10-07,Odliv,-40,', 'Odliv');
    const early = await line('2026-09-15,Rano,120,', 'Rano');
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      // The payment posting is written, then found in another currency: rolled back.
      [{ bankTransactionId: moneyIn, invoiceId: foreign.id }, 422, 'SVC-9003', 'invoiceId'],
      [{ bankTransactionId: moneyOut, invoiceId: inv.id }, 422, 'SVC-9003', 'invoiceId'],
      [{ bankTransactionId: moneyIn, expenseId: e.id }, 422, 'SVC-9003', 'expenseId'],
      [{ bankTransactionId: early, invoiceId: inv.id }, 422, 'SVC-9003', 'bankTransactionId'],
      [{ bankTransactionId: moneyIn, invoiceId: inv.id, transactionId: inv.id }, 422, 'SVC-9003', 'invoiceId'],
      [{ bankTransactionId: moneyIn }, 422, 'SVC-9003', 'transactionId'],
      [{ bankTransactionId: moneyIn, invoiceId: '00000000-0000-4000-8000-000000000000' }, 404, 'SVC-3001', ''],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await reconcile(s, body);
      expect([res.statusCode, res.json().error.code], JSON.stringify(body)).toEqual([status, code]);
      if (field) {
        // Told in the organization's language (sr), not in English.
        const [message] = res.json().error.details[field];
        expect(message).not.toMatch(/\b(the|is|an|of|give)\b/);
      }
    }
    for (const id of [foreign.id, inv.id]) {
      expect((await invoiceOf(id)).status).toBe('sent');
      expect(await paymentsOf(id)).toEqual([]);
    }
    expect((await inject(s, 'GET', `/api/v1/expenses/${e.id}`)).json().status).toBe('approved');
    const open = (await lines(s, bank.id, 'reconciled=false')).data.map((l: any) => l.id);
    expect(open).toEqual(expect.arrayContaining([moneyIn, moneyOut, early]));
  });

  it('an invoice already paid, or a line already matched, is refused and paid once', async () => {
    const inv = await sentInvoice();
    const first = await line(`2026-10-08,Prva uplata,${inv.totalAmount},`, 'Prva uplata');
    const second = await line(`2026-10-08,Druga uplata,${inv.totalAmount},`, 'Druga uplata');
    // Two lines race to pay the same invoice: one pays and matches, the other finds it paid.
    const results = await Promise.all(
      [first, second].map((bankTransactionId) => reconcile(s, { bankTransactionId, invoiceId: inv.id })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
    const matched = results.find((r) => r.statusCode === 200)!.json().bankTransaction.id;
    const other = await sentInvoice();
    const again = await reconcile(s, { bankTransactionId: matched, invoiceId: other.id });
    expect([again.statusCode, again.json().error.code]).toEqual([400, 'SVC-5005']);
    expect((await invoiceOf(other.id)).status).toBe('sent');
  });

  it('undoing the match of a paid invoice leaves it paid and its payment posting in the ledger, unmatched', async () => {
    const inv = await sentInvoice();
    const lineId = await line(`2026-10-09,Uplata za poništenje,${inv.totalAmount},`, 'Uplata za poništenje');
    const paid = (await reconcile(s, { bankTransactionId: lineId, invoiceId: inv.id })).json();
    const res = await inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/unreconcile`, { bankTransactionId: lineId });
    expect(res.statusCode).toBe(200);
    expect(res.json().transaction).toMatchObject({
      id: paid.transaction.id,
      referenceType: 'payment',
      reconciled: false,
    });
    expect((await invoiceOf(inv.id)).status).toBe('paid');
    expect(await paymentsOf(inv.id)).toHaveLength(1);
    // A viewer may not undo a match (the roles of reconcile).
    const viewer = await addMember(t.app, s, 'viewer');
    const refused = await inject(viewer, 'POST', `/api/v1/bank-accounts/${bank.id}/unreconcile`, {
      bankTransactionId: lineId,
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('post and match: a new posting for a bank line, matched in the same transaction', () => {
  let s: Session;
  let bank: Awaited<ReturnType<typeof newBank>>;
  let ids: Record<string, string>;
  beforeAll(async () => {
    s = await registerOrg(t.app, { baseCurrency: 'RSD' });
    bank = await newBank(s, { code: '1150' });
    ids = await accountIds(s);
  });
  const reconcile = (body: Record<string, unknown>) =>
    inject(s, 'POST', `/api/v1/bank-accounts/${bank.id}/reconcile`, body);
  async function line(csvRow: string, description: string) {
    expect((await importCsv(s, bank.id, `${csvRow}\n`)).json().imported).toBe(1);
    return (await lines(s, bank.id)).data.find((l: any) => l.description === description).id as string;
  }
  const postingCount = async () =>
    Number(
      (
        await sql<{
          n: string;
        }>`SELECT count(*)::text AS n FROM ledger_transactions WHERE organization_id = ${s.orgId}`.execute(
          t.t.db.system,
        )
      ).rows[0].n,
    );

  it('money out credits the bank and debits the account; money in the other way; both matched', async () => {
    const fee = await line('2026-10-10,Provizija,-150.5,', 'Provizija');
    const out = await reconcile({ bankTransactionId: fee, entry: { accountId: ids['5000'], description: 'Bank fee' } });
    expect(out.statusCode).toBe(200);
    expect(out.json().transaction).toMatchObject({
      transactionDate: '2026-10-10',
      description: 'Bank fee',
      debitAccountId: ids['5000'],
      creditAccountId: bank.accountId,
      amount: '150.50',
      currencyCode: 'RSD',
      referenceType: 'manual',
      reconciled: true,
    });
    expect(out.json().bankTransaction).toMatchObject({ id: fee, matchedTransactionId: out.json().transaction.id });
    const interest = await line('2026-10-11,Kamata,12,', 'Kamata');
    const inn = await reconcile({
      bankTransactionId: interest,
      entry: { accountId: ids['4900'], description: 'Interest' },
    });
    expect(inn.statusCode).toBe(200);
    expect(inn.json().transaction).toMatchObject({
      debitAccountId: bank.accountId,
      creditAccountId: ids['4900'],
      amount: '12.00',
    });
  });

  it('refuses, and leaves no posting, for an unknown or inactive account, the bank account itself, or a matched line', async () => {
    const open = await line('2026-10-12,Otvorena,-30,', 'Otvorena');
    const spare = await inject(s, 'POST', '/api/v1/accounts', { code: '5990', name: 'Spare', accountTypeId: 5 });
    expect(spare.statusCode).toBe(201);
    expect((await inject(s, 'PUT', `/api/v1/accounts/${spare.json().id}`, { isActive: false })).statusCode).toBe(200);
    const matched = (await lines(s, bank.id, 'reconciled=true')).data[0].id;
    const before = await postingCount();
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [
        { bankTransactionId: open, entry: { accountId: '00000000-0000-4000-8000-000000000000', description: 'X' } },
        404,
        'SVC-8001',
        'entry.accountId',
      ],
      [
        { bankTransactionId: open, entry: { accountId: spare.json().id, description: 'X' } },
        422,
        'SVC-9003',
        'entry.accountId',
      ],
      [
        { bankTransactionId: open, entry: { accountId: bank.accountId, description: 'X' } },
        422,
        'SVC-9003',
        'entry.accountId',
      ],
      [
        { bankTransactionId: matched, entry: { accountId: ids['5000'], description: 'X' } },
        400,
        'SVC-5005',
        'bankTransactionId',
      ],
      [
        { bankTransactionId: open, transactionId: open, entry: { accountId: ids['5000'], description: 'X' } },
        422,
        'SVC-9003',
        'entry',
      ],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await reconcile(body);
      expect([res.statusCode, res.json().error.code], JSON.stringify(body)).toEqual([status, code]);
      expect(Object.keys(res.json().error.details), JSON.stringify(body)).toContain(field);
    }
    expect(await postingCount()).toBe(before);
    expect((await lines(s, bank.id, 'reconciled=false')).data.map((l: any) => l.id)).toContain(open);
  });
});

describe('bank line to bank account integrity (the foreign key, checked once per statement)', () => {
  const code = async (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: { code?: string }) => e.code ?? String(e),
    );
  const insertLines = (org: string, banks: string[]) =>
    sql`
    INSERT INTO bank_transactions (organization_id, bank_account_id, transaction_date, amount, description)
    SELECT ${org}::uuid, b, DATE '2026-05-01', 1, 'integrity ' || ord FROM unnest(${banks}::uuid[]) WITH ORDINALITY AS x (b, ord)`.execute(
      t.t.db.system,
    );
  const count = async (bankId: string) =>
    Number(
      (
        await sql<{
          n: string;
        }>`SELECT count(*)::text AS n FROM bank_transactions WHERE bank_account_id = ${bankId}`.execute(t.t.db.system)
      ).rows[0].n,
    );

  it('refuses a line whose bank account does not exist or belongs to another organization, and moves no line to one', async () => {
    const bank = await newBank(owner, { code: '1160' });
    const other = await registerOrg(t.app);
    const unknown = '00000000-0000-4000-8000-0000000000ee';
    expect(await code(insertLines(owner.orgId, [bank.id, unknown]))).toBe('23503');
    expect(await code(insertLines(other.orgId, [bank.id]))).toBe('23503');
    expect(await count(bank.id)).toBe(0);
    expect(await code(insertLines(owner.orgId, [bank.id, bank.id]))).toBe('ok');
    expect(await count(bank.id)).toBe(2);
    expect(
      await code(
        sql`UPDATE bank_transactions SET bank_account_id = ${unknown} WHERE bank_account_id = ${bank.id}`.execute(
          t.t.db.system,
        ),
      ),
    ).toBe('23503');
    expect(
      await code(
        sql`UPDATE bank_transactions SET organization_id = ${other.orgId} WHERE bank_account_id = ${bank.id}`.execute(
          t.t.db.system,
        ),
      ),
    ).toBe('23503');
    expect(await count(bank.id)).toBe(2);
  });

  it('keeps a bank account that has lines from being deleted or re-keyed; one without lines can go', async () => {
    const used = await newBank(owner, { code: '1161' });
    const unused = await newBank(owner, { code: '1162' });
    expect((await importCsv(owner, used.id, '2026-05-02,A,10\n')).json().imported).toBe(1);
    expect(await code(sql`DELETE FROM bank_accounts WHERE id = ${used.id}`.execute(t.t.db.system))).toBe('23503');
    expect(
      await code(
        sql`UPDATE bank_accounts SET id = ${'00000000-0000-4000-8000-0000000000ef'} WHERE id = ${used.id}`.execute(
          t.t.db.system,
        ),
      ),
    ).toBe('23503');
    expect(
      await code(sql`UPDATE bank_accounts SET bank_name = 'Renamed' WHERE id = ${used.id}`.execute(t.t.db.system)),
    ).toBe('ok');
    expect(await code(sql`DELETE FROM bank_accounts WHERE id = ${unused.id}`.execute(t.t.db.system))).toBe('ok');
  });
});

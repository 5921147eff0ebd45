import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, patchStatus } from './invoices-fixtures.js';
import { form } from './multipart.js';
import { accountIds, manualEntry, pdfText, report } from './reports-fixtures.js';

/**
 * A known book in RSD, every figure worked out by hand (docs/accounting/reports.md "The known book"):
 *  - manual entries: 100,000.00 owner's capital and a 50,000.00 long-term loan into the bank,
 *    30,000.00 bank -> cash, 30,000.00 equipment, 12,000.00 rent and 25,000.00 salaries, and
 *    100.00 EUR of travel paid in cash (EUR-RSD 117 on 2026-03-15 -> 11,700.00);
 *  - INV-2026-0001 (RSD, 2026-03-10): 3,000.00 at 20% + 499.99 at 10% = 4,149.99, paid 2026-03-20;
 *  - INV-2026-0002 (EUR, 2026-03-12): 1,000.00 EUR at 20% = 1,200.00 EUR = 140,400.00 RSD, unpaid;
 *  - INV-2026-0003 (RSD, 2026-02-10): 10,000.00 at 20%, sent then cancelled (reversed today);
 *  - bank accounts Raiffeisen (ledger 1100) and Intesa (a new asset account 1250, outside
 *    1000-1199: cash only because a bank account is booked on it); 5,000.00 moved 1100 -> 1250;
 *  - EXP-2026-0001 (2026-02-20, Office Supplies): 1,200.00 with 200.00 VAT, approved, paid from
 *    Intesa on 2026-03-01; EXP-2026-0002 (2026-03-18, EUR): 60.00 EUR with 10.00 EUR VAT,
 *    approved, unpaid (5,850.00 + 1,170.00 RSD); EXP-2026-0003 rejected; EXP-2026-0004 pending;
 *  - a Raiffeisen statement: INV-2026-0001's payment (reconciled), a bank fee and an April line.
 * Q1 2026 and 2026-03-31 do not depend on the day the suite runs (the reversal is dated today).
 */
let t: TestApp;
let owner: Session;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, {
    baseCurrency: 'RSD',
    country: 'RS',
    language: 'sr',
    organizationName: 'Knjiga d.o.o.',
  });
  const ids = await accountIds(t.app, owner);
  await manualEntry(t.app, owner, ids, '2026-01-05', '1100', '3000', 100000);
  await manualEntry(t.app, owner, ids, '2026-01-10', '1100', '2500', 50000);
  await manualEntry(t.app, owner, ids, '2026-01-20', '1000', '1100', 30000);
  await manualEntry(t.app, owner, ids, '2026-02-01', '1500', '1100', 30000);
  await manualEntry(t.app, owner, ids, '2026-02-15', '5100', '1000', 12000);
  await manualEntry(t.app, owner, ids, '2026-03-15', '5400', '1000', 100, { currencyCode: 'EUR' });
  await manualEntry(t.app, owner, ids, '2026-03-31', '5200', '1100', 25000);

  const post = async (url: string, payload: object, status = 201) => {
    const res = await t.app.inject(
      authed(owner.token, {
        method: url.includes('/approve') || url.includes('/reject') || url.includes('/pay') ? 'PATCH' : 'POST',
        url: `/api/v1/${url}`,
        payload,
      }),
    );
    expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
    return res.json();
  };
  const intesaAccount = await post('accounts', { code: '1250', name: 'Intesa tekući račun', accountTypeId: 1 });
  ids['1250'] = intesaAccount.id;
  const raiffeisen = await post('bank-accounts', {
    accountId: ids['1100'],
    bankName: 'Raiffeisen',
    currencyCode: 'RSD',
  });
  const intesa = await post('bank-accounts', { accountId: ids['1250'], bankName: 'Intesa', currencyCode: 'RSD' });
  await manualEntry(t.app, owner, ids, '2026-02-25', '1250', '1100', 5000);
  const vendor = await createCustomer(t.app, owner, { type: 'vendor', name: 'Dobavljač Šipka d.o.o.' });
  const e1 = await post('expenses', {
    vendorId: vendor.id,
    expenseDate: '2026-02-20',
    category: 'Kancelarija',
    amount: 1200,
    taxAmount: 200,
    accountId: ids['5300'],
  });
  const e2 = await post('expenses', {
    expenseDate: '2026-03-18',
    category: 'Gorivo',
    amount: 60,
    taxAmount: 10,
    currencyCode: 'EUR',
  });
  const e3 = await post('expenses', {
    expenseDate: '2026-03-25',
    category: 'Reprezentacija',
    amount: 300,
    taxAmount: 50,
  });
  await post('expenses', { expenseDate: '2026-03-28', category: 'Gorivo', amount: 100 });
  await post(`expenses/${e1.id}/approve`, {}, 200);
  await post(`expenses/${e1.id}/pay`, { paidAt: '2026-03-01', bankAccountId: intesa.id }, 200);
  await post(`expenses/${e2.id}/approve`, {}, 200);
  await post(`expenses/${e3.id}/reject`, { reason: 'privatno' }, 200);

  const rsd = await createCustomer(t.app, owner, { name: 'Kupac Čačić d.o.o.' });
  const eur = await createCustomer(t.app, owner, { name: 'Müller GmbH', currencyCode: 'EUR', country: 'DE' });
  const a = await createInvoice(t.app, owner, {
    customerId: rsd.id,
    invoiceDate: '2026-03-10',
    dueDate: '2026-04-09',
    items: [
      { description: 'Usluge', quantity: 2, unitPrice: 1500, taxRate: 20 },
      { description: 'Održavanje', quantity: 1, unitPrice: 499.99, taxRate: 10 },
    ],
  });
  const b = await createInvoice(t.app, owner, {
    customerId: eur.id,
    invoiceDate: '2026-03-12',
    dueDate: '2026-04-11',
    items: [{ description: 'Consulting', quantity: 10, unitPrice: 100, taxRate: 20 }],
  });
  const c = await createInvoice(t.app, owner, {
    customerId: rsd.id,
    invoiceDate: '2026-02-10',
    dueDate: '2026-03-12',
    items: [{ description: 'Projekat', quantity: 1, unitPrice: 10000, taxRate: 20 }],
  });
  await createInvoice(t.app, owner, {
    customerId: rsd.id,
    invoiceDate: '2026-03-01',
    dueDate: '2026-03-02',
    items: [{ description: 'Nacrt', quantity: 1, unitPrice: 1, taxRate: 20 }],
  });
  for (const inv of [a, b, c])
    expect((await patchStatus(t.app, owner, inv.id, { action: 'send' })).statusCode).toBe(200);
  expect((await patchStatus(t.app, owner, a.id, { action: 'mark-paid', paidAt: '2026-03-20' })).statusCode).toBe(200);
  expect((await patchStatus(t.app, owner, c.id, { action: 'cancel' })).statusCode).toBe(200);

  const statement =
    'Date,Description,Amount,Reference\n2026-03-20,Uplata INV-2026-0001,4149.99,INV-2026-0001\n2026-03-31,Provizija banke,-150.00,\n2026-04-02,Uplata,10.00,\n';
  const imported = await t.app.inject(
    authed(owner.token, {
      method: 'POST',
      url: `/api/v1/bank-accounts/${raiffeisen.id}/import`,
      ...form({}, { field: 'file', filename: 'izvod.csv', type: 'text/csv', data: Buffer.from(statement) }),
    }),
  );
  expect(imported.json()).toMatchObject({ imported: 3, duplicates: 0 });
  const lines = (
    await t.app.inject(
      authed(owner.token, { method: 'GET', url: `/api/v1/bank-accounts/${raiffeisen.id}/transactions?perPage=100` }),
    )
  ).json().data;
  const payments = (
    await t.app.inject(
      authed(owner.token, { method: 'GET', url: '/api/v1/transactions?referenceType=payment&perPage=100' }),
    )
  ).json().data;
  const invoicePayment = payments.find(
    (p: { description: string }) => p.description === 'Naplata fakture INV-2026-0001',
  );
  await post(
    `bank-accounts/${raiffeisen.id}/reconcile`,
    {
      bankTransactionId: lines.find((l: { amount: string }) => l.amount === '4149.99').id,
      transactionId: invoicePayment.id,
    },
    200,
  );
});
afterAll(async () => t?.close());

describe('the known book', () => {
  it('profit and loss over Q1 2026: revenue and expense accounts with activity, net profit', async () => {
    expect(await report(t.app, owner, 'profit-loss?from=2026-01-01&to=2026-03-31')).toEqual({
      period: { from: '2026-01-01', to: '2026-03-31' },
      baseCurrency: 'RSD',
      revenue: {
        total: '130499.99',
        accounts: [{ accountCode: '4000', accountName: 'Prihodi od prodaje', amount: '130499.99' }],
      },
      expenses: {
        total: '55550.00',
        accounts: [
          { accountCode: '5000', accountName: 'Opšti troškovi', amount: '5850.00' },
          { accountCode: '5100', accountName: 'Zakup', amount: '12000.00' },
          { accountCode: '5200', accountName: 'Zarade', amount: '25000.00' },
          { accountCode: '5300', accountName: 'Kancelarijski materijal', amount: '1000.00' },
          { accountCode: '5400', accountName: 'Putni troškovi', amount: '11700.00' },
        ],
      },
      netProfit: '74949.99',
    });
  });

  it('profit and loss of February alone counts only February postings', async () => {
    const pl = await report(t.app, owner, 'profit-loss?from=2026-02-01&to=2026-02-28');
    expect(pl.revenue).toEqual({
      total: '10000.00',
      accounts: [{ accountCode: '4000', accountName: 'Prihodi od prodaje', amount: '10000.00' }],
    });
    expect(pl.expenses).toEqual({
      total: '13000.00',
      accounts: [
        { accountCode: '5100', accountName: 'Zakup', amount: '12000.00' },
        { accountCode: '5300', accountName: 'Kancelarijski materijal', amount: '1000.00' },
      ],
    });
    expect(pl.netProfit).toBe('-3000.00');
  });

  it('balance sheet on 2026-03-31: current and fixed assets, liabilities, equity with Current Year Earnings', async () => {
    expect(await report(t.app, owner, 'balance-sheet?date=2026-03-31')).toEqual({
      asOfDate: '2026-03-31',
      baseCurrency: 'RSD',
      assets: {
        total: '258019.99',
        current: {
          total: '228019.99',
          accounts: [
            { accountCode: '1000', accountName: 'Blagajna', balance: '6300.00' },
            { accountCode: '1100', accountName: 'Tekući račun', balance: '64149.99' },
            { accountCode: '1200', accountName: 'Potraživanja od kupaca', balance: '152400.00' },
            { accountCode: '1250', accountName: 'Intesa tekući račun', balance: '3800.00' },
            { accountCode: '1300', accountName: 'Prethodni PDV', balance: '1370.00' },
          ],
        },
        fixed: {
          total: '30000.00',
          accounts: [{ accountCode: '1500', accountName: 'Oprema', balance: '30000.00' }],
        },
      },
      liabilities: {
        total: '83070.00',
        current: {
          total: '33070.00',
          accounts: [
            { accountCode: '2110', accountName: 'Obaveze prema dobavljačima', balance: '7020.00' },
            { accountCode: '2300', accountName: 'Obaveze za PDV', balance: '26050.00' },
          ],
        },
        longTerm: {
          total: '50000.00',
          accounts: [{ accountCode: '2500', accountName: 'Dugoročni krediti', balance: '50000.00' }],
        },
      },
      equity: {
        total: '174949.99',
        accounts: [
          { accountCode: '3000', accountName: 'Osnovni kapital', balance: '100000.00' },
          { accountCode: null, accountName: 'Current Year Earnings', balance: '74949.99' },
        ],
      },
    });
  });

  it('balance sheet today: the cancelled invoice is reversed out of receivables, VAT and earnings', async () => {
    const bs = await report(t.app, owner, 'balance-sheet');
    expect(bs.assets.current.accounts.find((a: { accountCode: string }) => a.accountCode === '1200').balance).toBe(
      '140400.00',
    );
    expect(bs.liabilities.current.accounts[1]).toEqual({
      accountCode: '2300',
      accountName: 'Obaveze za PDV',
      balance: '24050.00',
    });
    expect(bs.equity.accounts[1]).toEqual({
      accountCode: null,
      accountName: 'Current Year Earnings',
      balance: '64949.99',
    });
    expect(bs.assets.total).toBe('246019.99');
    expect(bs.liabilities.total).toBe('81070.00');
    expect(bs.equity.total).toBe('164949.99');
  });

  it('cash flow over Q1: cash, bank and bank-account ledger movements by counter account, transfers between them left out', async () => {
    expect(await report(t.app, owner, 'cash-flow?from=2026-01-01&to=2026-03-31')).toEqual({
      period: { from: '2026-01-01', to: '2026-03-31' },
      baseCurrency: 'RSD',
      operating: {
        total: '-45750.01',
        items: [
          { description: 'Potraživanja od kupaca', accountCode: '1200', amount: '4149.99' },
          { description: 'Obaveze prema dobavljačima', accountCode: '2110', amount: '-1200.00' },
          { description: 'Zakup', accountCode: '5100', amount: '-12000.00' },
          { description: 'Zarade', accountCode: '5200', amount: '-25000.00' },
          { description: 'Putni troškovi', accountCode: '5400', amount: '-11700.00' },
        ],
      },
      investing: {
        total: '-30000.00',
        items: [{ description: 'Oprema', accountCode: '1500', amount: '-30000.00' }],
      },
      financing: {
        total: '150000.00',
        items: [
          { description: 'Dugoročni krediti', accountCode: '2500', amount: '50000.00' },
          { description: 'Osnovni kapital', accountCode: '3000', amount: '100000.00' },
        ],
      },
      netCashFlow: '74249.99',
      openingBalance: '0.00',
      closingBalance: '74249.99',
    });
  });

  it('cash flow of February opens with the balance at the end of January', async () => {
    const cf = await report(t.app, owner, 'cash-flow?from=2026-02-01&to=2026-02-28');
    expect(cf).toMatchObject({
      operating: { total: '-12000.00', items: [{ description: 'Zakup', accountCode: '5100', amount: '-12000.00' }] },
      investing: { total: '-30000.00' },
      financing: { total: '0.00', items: [] },
      netCashFlow: '-42000.00',
      openingBalance: '150000.00',
      closingBalance: '108000.00',
    });
  });

  it('trial balance on 2026-03-31: every account with postings, balanced totals', async () => {
    const row = (
      accountCode: string,
      accountName: string,
      accountType: string,
      debitTotal: string,
      creditTotal: string,
      balance: string,
    ) => ({ accountCode, accountName, accountType, debitTotal, creditTotal, balance });
    expect(await report(t.app, owner, 'trial-balance?date=2026-03-31')).toEqual({
      asOfDate: '2026-03-31',
      baseCurrency: 'RSD',
      accounts: [
        row('1000', 'Blagajna', 'Asset', '30000.00', '23700.00', '6300.00'),
        row('1100', 'Tekući račun', 'Asset', '154149.99', '90000.00', '64149.99'),
        row('1200', 'Potraživanja od kupaca', 'Asset', '156549.99', '4149.99', '152400.00'),
        row('1250', 'Intesa tekući račun', 'Asset', '5000.00', '1200.00', '3800.00'),
        row('1300', 'Prethodni PDV', 'Asset', '1370.00', '0.00', '1370.00'),
        row('1500', 'Oprema', 'Asset', '30000.00', '0.00', '30000.00'),
        row('2110', 'Obaveze prema dobavljačima', 'Liability', '1200.00', '8220.00', '7020.00'),
        row('2300', 'Obaveze za PDV', 'Liability', '0.00', '26050.00', '26050.00'),
        row('2500', 'Dugoročni krediti', 'Liability', '0.00', '50000.00', '50000.00'),
        row('3000', 'Osnovni kapital', 'Equity', '0.00', '100000.00', '100000.00'),
        row('4000', 'Prihodi od prodaje', 'Revenue', '0.00', '130499.99', '130499.99'),
        row('5000', 'Opšti troškovi', 'Expense', '5850.00', '0.00', '5850.00'),
        row('5100', 'Zakup', 'Expense', '12000.00', '0.00', '12000.00'),
        row('5200', 'Zarade', 'Expense', '25000.00', '0.00', '25000.00'),
        row('5300', 'Kancelarijski materijal', 'Expense', '1000.00', '0.00', '1000.00'),
        row('5400', 'Putni troškovi', 'Expense', '11700.00', '0.00', '11700.00'),
      ],
      totals: { debit: '433819.98', credit: '433819.98' },
      balanced: true,
    });
  });

  it('VAT over Q1: output per invoice and rate, input per approved or paid expense; cancelled, draft, rejected and pending left out', async () => {
    const vat = await report(t.app, owner, 'vat?from=2026-01-01&to=2026-03-31');
    expect(vat).toEqual({
      period: { from: '2026-01-01', to: '2026-03-31' },
      country: 'RS',
      outputVAT: {
        total: '24050.00',
        invoices: [
          {
            invoiceNumber: 'INV-2026-0001',
            customerName: 'Kupac Čačić d.o.o.',
            invoiceDate: '2026-03-10',
            baseAmount: '499.99',
            vatAmount: '50.00',
            vatRate: '10.00',
          },
          {
            invoiceNumber: 'INV-2026-0001',
            customerName: 'Kupac Čačić d.o.o.',
            invoiceDate: '2026-03-10',
            baseAmount: '3000.00',
            vatAmount: '600.00',
            vatRate: '20.00',
          },
          {
            invoiceNumber: 'INV-2026-0002',
            customerName: 'Müller GmbH',
            invoiceDate: '2026-03-12',
            baseAmount: '117000.00',
            vatAmount: '23400.00',
            vatRate: '20.00',
          },
        ],
      },
      inputVAT: {
        total: '1370.00',
        expenses: [
          {
            expenseNumber: 'EXP-2026-0001',
            vendorName: 'Dobavljač Šipka d.o.o.',
            expenseDate: '2026-02-20',
            baseAmount: '1000.00',
            vatAmount: '200.00',
            vatRate: '20.00',
          },
          {
            expenseNumber: 'EXP-2026-0002',
            vendorName: null,
            expenseDate: '2026-03-18',
            baseAmount: '5850.00',
            vatAmount: '1170.00',
            vatRate: '20.00',
          },
        ],
      },
      netVAT: '22680.00',
      baseCurrency: 'RSD',
      reconciliationStatus: { allInvoicesPaid: false, allExpensesApproved: false, unmatchedTransactions: 1 },
    });
  });

  it("VAT of a single day: only that day's invoice, and no pending expense or open bank line dated in it", async () => {
    const vat = await report(t.app, owner, 'vat?from=2026-03-10&to=2026-03-10');
    expect(vat.outputVAT.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual([
      'INV-2026-0001',
      'INV-2026-0001',
    ]);
    expect(vat.reconciliationStatus).toEqual({
      allInvoicesPaid: true,
      allExpensesApproved: true,
      unmatchedTransactions: 0,
    });
    expect(vat.inputVAT).toEqual({ total: '0.00', expenses: [] });
    expect(vat.netVAT).toBe('650.00');
  });

  it('dashboard: unpaid invoices in base currency, aged by days since the invoice date', async () => {
    const d = await report(t.app, owner, 'dashboard');
    expect(d.unpaidInvoices).toBe('140400.00');
    expect(d.receivablesAging).toEqual({ current: '0.00', days30: '0.00', days60: '0.00', days90plus: '140400.00' });
    expect(d.cashBalance).toBe('74249.99');
    expect(d.monthlyPL).toHaveLength(12);
  });
});

describe('report exports', () => {
  it("profit and loss as a PDF in the organization's language, as an attachment", async () => {
    const res = await t.app.inject(
      authed(owner.token, {
        method: 'GET',
        url: '/api/v1/reports/profit-loss?from=2026-01-01&to=2026-03-31&format=pdf',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="profit-loss-2026-01-01-2026-03-31.pdf"');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Bilans uspeha');
    expect(text).toContain('Knjiga d.o.o.');
    expect(text).toContain('130.499,99');
    expect(text).toContain('74.949,99');
    expect(text).toContain('01.01.2026.');
  });

  it('trial balance as CSV: one record per row with its section, amounts as in the JSON', async () => {
    const res = await t.app.inject(
      authed(owner.token, { method: 'GET', url: '/api/v1/reports/trial-balance?date=2026-03-31&format=csv' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="trial-balance-2026-03-31.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('section,Code,Account,Type,Debit,Credit,Balance');
    expect(lines[1]).toBe('Trial balance,1000,Blagajna,Asset,30000.00,23700.00,6300.00');
    expect(lines).toContain('Trial balance,3000,Osnovni kapital,Equity,0.00,100000.00,100000.00');
    expect(lines).toContain('Trial balance,,Total,,433819.98,433819.98,');
  });

  it('every report answers pdf and csv', async () => {
    for (const path of [
      'dashboard?',
      'profit-loss?from=2026-01-01&to=2026-03-31&',
      'balance-sheet?',
      'cash-flow?from=2026-01-01&to=2026-03-31&',
      'vat?from=2026-01-01&to=2026-03-31&',
      'trial-balance?',
    ]) {
      for (const format of ['pdf', 'csv']) {
        const res = await t.app.inject(
          authed(owner.token, { method: 'GET', url: `/api/v1/reports/${path}format=${format}` }),
        );
        expect(res.statusCode, `${path} ${format}`).toBe(200);
        expect(res.headers['content-disposition']).toMatch(
          new RegExp(`^attachment; filename="[a-z-]+[0-9-]*\\.${format}"$`),
        );
        if (format === 'pdf') expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      }
    }
  });
});

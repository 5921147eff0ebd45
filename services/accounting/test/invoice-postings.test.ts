import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TenantTx } from '../src/plugins/auth.js';

/**
 * The invoice's postings (A8) as invoice-postings.ts builds them, without a database: the chart's
 * system accounts, the organization's bank account and the journal are replaced by their answers
 * (what the account look-up finds, what the journal is given), so each amount, account, rate,
 * base amount, text and reference is checked on its own. invoices-api.test.ts checks the same
 * postings end to end on a database; this file is what the mutation module `postings` runs.
 */
const accounts = vi.hoisted(() => ({ found: new Map<string, string>(), bank: null as null | { accountId: string } }));
vi.mock('../src/modules/invoices/invoices.repository.js', () => ({
  accountIdsByCode: vi.fn(async (_db: unknown, _org: string, codes: string[]) => {
    return new Map(codes.filter((c) => accounts.found.has(c)).map((c) => [c, accounts.found.get(c)!]));
  }),
}));
vi.mock('../src/modules/banking/bank-ledger.js', () => ({
  paymentLedgerAccount: vi.fn(async (_db: unknown, _org: string, bankAccountId: string | null) =>
    accounts.bank ? { bankAccountId: bankAccountId ?? 'bank-row', accountId: accounts.bank.accountId } : null,
  ),
}));
vi.mock('../src/modules/ledger/ledger.service.js', () => ({
  postJournalEntries: vi.fn(async (_db: unknown, _org: string, postings: unknown[]) => postings),
  reverseReferences: vi.fn(async () => ['reversed']),
}));

const { buildSalePostings, postInvoicePayment, reverseInvoicePostings, writePostings } = await import(
  '../src/modules/invoices/invoice-postings.js'
);
const ledger = await import('../src/modules/ledger/ledger.service.js');
const repo = await import('../src/modules/invoices/invoices.repository.js');

const trx = {} as TenantTx;
const CHART = { '1200': 'acc-ar', '2300': 'acc-vat', '4000': 'acc-sales', '1100': 'acc-bank' };

beforeEach(() => {
  accounts.found = new Map(Object.entries(CHART));
  accounts.bank = null;
  vi.clearAllMocks();
});

const invoice = (over: Partial<Parameters<typeof buildSalePostings>[2]> = {}) => ({
  id: 'inv-1',
  invoice_number: 'INV-2026-0007',
  invoice_date: '2026-03-10',
  currency_code: 'RSD',
  exchange_rate: '1',
  tax_amount: '0.00',
  discount_amount: '0.00',
  total_amount: '0.00',
  ...over,
});

describe('buildSalePostings (send: Dr 1200 / Cr revenue per account, Dr 1200 / Cr 2300 for tax)', () => {
  it('one posting per revenue account, the discount taken from the largest, then the tax', async () => {
    const postings = await buildSalePostings(
      trx,
      'org-1',
      invoice({ tax_amount: '230.00', discount_amount: '50.00', total_amount: '1680.00' }),
      [
        { account_id: null, line_total: '1000.00', line_tax: '200.00' },
        { account_id: 'acc-4900', line_total: '300.00', line_tax: '30.00' },
        { account_id: null, line_total: '200.00', line_tax: '0.00' },
      ],
      'RSD',
      'user-1',
      'en',
    );
    const common = {
      transactionDate: '2026-03-10',
      debitAccountId: 'acc-ar',
      currencyCode: 'RSD',
      exchangeRate: '1',
      referenceType: 'invoice',
      referenceId: 'inv-1',
      locked: true,
      createdBy: 'user-1',
    };
    expect(postings).toEqual([
      {
        ...common,
        creditAccountId: 'acc-sales',
        amount: '1150.00',
        baseAmount: '1150.00',
        description: 'Invoice INV-2026-0007',
      },
      {
        ...common,
        creditAccountId: 'acc-4900',
        amount: '300.00',
        baseAmount: '300.00',
        description: 'Invoice INV-2026-0007',
      },
      {
        ...common,
        creditAccountId: 'acc-vat',
        amount: '230.00',
        baseAmount: '230.00',
        description: 'Invoice INV-2026-0007 VAT',
      },
    ]);
    expect(repo.accountIdsByCode).toHaveBeenCalledWith(trx, 'org-1', ['1200', '2300', '4000']);
    // Building reads only: nothing is written until writePostings.
    expect(ledger.postJournalEntries).not.toHaveBeenCalled();
  });

  it('a foreign-currency sale: the frozen rate and base amounts rounded half-up to the base currency', async () => {
    const postings = await buildSalePostings(
      trx,
      'org-1',
      invoice({ currency_code: 'EUR', exchange_rate: '117.234567', tax_amount: '20.05', total_amount: '120.36' }),
      [{ account_id: null, line_total: '100.31', line_tax: '20.05' }],
      'RSD',
      null,
      'sr',
    );
    // 100.31 x 117.234567 = 11759.7994... -> 11759.80; 20.05 x 117.234567 = 2350.5530... -> 2350.55
    expect(postings.map((p) => [p.creditAccountId, p.amount, p.currencyCode, p.exchangeRate, p.baseAmount])).toEqual([
      ['acc-sales', '100.31', 'EUR', '117.234567', '11759.80'],
      ['acc-vat', '20.05', 'EUR', '117.234567', '2350.55'],
    ]);
    expect(postings.map((p) => [p.description, p.createdBy])).toEqual([
      ['Faktura INV-2026-0007', null],
      ['PDV po fakturi INV-2026-0007', null],
    ]);
  });

  it('rounds the base amount half-up at the base currency’s cents (x.xx5 goes up)', async () => {
    const postings = await buildSalePostings(
      trx,
      'org-1',
      invoice({ currency_code: 'EUR', exchange_rate: '1.5', total_amount: '0.01' }),
      [{ account_id: null, line_total: '0.01', line_tax: '0.00' }],
      'RSD',
      null,
      'en',
    );
    expect(postings.map((p) => [p.amount, p.baseAmount])).toEqual([['0.01', '0.02']]);
  });

  it('no posting for an account the discount took to zero, and none for a tax of zero', async () => {
    const postings = await buildSalePostings(
      trx,
      'org-1',
      invoice({ tax_amount: '0.00', discount_amount: '100.00', total_amount: '50.00' }),
      [
        { account_id: 'acc-a', line_total: '100.00', line_tax: '0.00' },
        { account_id: 'acc-b', line_total: '50.00', line_tax: '0.00' },
      ],
      'RSD',
      null,
      'en',
    );
    expect(postings.map((p) => [p.creditAccountId, p.amount])).toEqual([['acc-b', '50.00']]);
  });

  it('a fully discounted invoice posts nothing', async () => {
    const postings = await buildSalePostings(
      trx,
      'org-1',
      invoice({ tax_amount: '20.00', discount_amount: '120.00', total_amount: '0.00' }),
      [{ account_id: null, line_total: '100.00', line_tax: '20.00' }],
      'RSD',
      null,
      'en',
    );
    expect(postings).toEqual([]);
  });

  it('a missing system account is a data error naming the code (SVC-8001)', async () => {
    accounts.found.delete('2300');
    await expect(
      buildSalePostings(
        trx,
        'org-1',
        invoice(),
        [{ account_id: null, line_total: '1.00', line_tax: '0.00' }],
        'RSD',
        null,
        'en',
      ),
    ).rejects.toMatchObject({ code: 'SVC-8001', details: { accountCode: ['2300'] } });
  });

  it('writePostings hands the postings to the journal of the organization', async () => {
    const postings = [{ amount: '1.00' }] as never;
    await writePostings(trx, 'org-1', postings);
    expect(ledger.postJournalEntries).toHaveBeenCalledWith(trx, 'org-1', postings);
  });
});

describe('postInvoicePayment (mark-paid: Dr bank / Cr 1200 for the total)', () => {
  it('on the organization’s bank account, dated the payment day, in the invoice’s currency and rate', async () => {
    accounts.bank = { accountId: 'acc-bank-ledger' };
    const written = await postInvoicePayment(
      trx,
      'org-1',
      invoice({ currency_code: 'EUR', exchange_rate: '117.5', total_amount: '120.005' }),
      '2026-04-02',
      'bank-7',
      'RSD',
      'user-2',
      'hr',
    );
    expect(written).toEqual([
      {
        transactionDate: '2026-04-02',
        description: 'Naplata računa INV-2026-0007',
        debitAccountId: 'acc-bank-ledger',
        creditAccountId: 'acc-ar',
        amount: '120.01',
        currencyCode: 'EUR',
        exchangeRate: '117.5',
        // 120.01 x 117.5 = 14101.175 -> 14101.18
        baseAmount: '14101.18',
        referenceType: 'payment',
        referenceId: 'inv-1',
        locked: true,
        createdBy: 'user-2',
      },
    ]);
    expect(repo.accountIdsByCode).toHaveBeenCalledWith(trx, 'org-1', ['1200', '1100']);
    expect(ledger.postJournalEntries).toHaveBeenCalledTimes(1);
  });

  it('on account 1100 when the organization has no bank account', async () => {
    const written = await postInvoicePayment(
      trx,
      'org-1',
      invoice({ total_amount: '10.00' }),
      '2026-04-02',
      null,
      'RSD',
      null,
      'en',
    );
    // The journal mock answers the postings it was given.
    const given = written as unknown as Array<{ debitAccountId: string; description: string }>;
    expect(given.map((p) => [p.debitAccountId, p.description])).toEqual([
      ['acc-bank', 'Payment of invoice INV-2026-0007'],
    ]);
  });

  it('posts nothing for an invoice of zero', async () => {
    expect(
      await postInvoicePayment(trx, 'org-1', invoice({ total_amount: '0.00' }), '2026-04-02', null, 'RSD', null, 'en'),
    ).toEqual([]);
    expect(ledger.postJournalEntries).not.toHaveBeenCalled();
  });

  it('a missing system account is a data error naming the code', async () => {
    accounts.found.delete('1200');
    await expect(
      postInvoicePayment(trx, 'org-1', invoice({ total_amount: '1.00' }), '2026-04-02', null, 'RSD', null, 'en'),
    ).rejects.toMatchObject({ code: 'SVC-8001', details: { accountCode: ['1200'] } });
  });
});

describe('reverseInvoicePostings (cancel)', () => {
  it('reverses the sale and the payment of the invoice in one call', async () => {
    expect(await reverseInvoicePostings(trx, 'org-1', 'inv-1', 'user-3')).toEqual(['reversed']);
    expect(ledger.reverseReferences).toHaveBeenCalledWith(
      trx,
      'org-1',
      [
        { referenceType: 'invoice', referenceId: 'inv-1' },
        { referenceType: 'payment', referenceId: 'inv-1' },
      ],
      'user-3',
    );
  });
});

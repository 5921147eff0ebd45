import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/types.js';
import {
  postJournalEntries,
  reversePosting,
  reverseReference,
  reverseReferences,
  trialBalance,
} from '../src/modules/ledger/ledger.service.js';
import type { Posting } from '../src/modules/ledger/ledger.types.js';
import { buildTestApp, foldLedger, registerOrg, type TestApp } from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

async function chart(orgId: string): Promise<Record<string, string>> {
  const rows = await h.t.db.system
    .selectFrom('accounts')
    .select(['id', 'code'])
    .where('organization_id', '=', orgId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.code, r.id]));
}

function asTenant<T>(orgId: string, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return h.t.db.withContext({ kind: 'tenant', orgId }, (db) => db.transaction().execute(fn));
}

async function balances(orgId: string) {
  await foldLedger(h.t.db);
  const rows = await h.t.db.system
    .selectFrom('account_balances')
    .selectAll()
    .where('organization_id', '=', orgId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.account_id, r]));
}

const base = (over: Partial<Posting>): Posting => ({
  transactionDate: '2026-03-01',
  description: 'Sale',
  debitAccountId: '',
  creditAccountId: '',
  amount: '100.00',
  currencyCode: 'RSD',
  exchangeRate: '1.000000',
  baseAmount: '100.00',
  referenceType: 'invoice',
  referenceId: null,
  locked: true,
  createdBy: null,
  ...over,
});

describe('postJournalEntries', () => {
  it('inserts the postings and moves both accounts’ running totals in the same transaction', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s.orgId);
    const ref = crypto.randomUUID();
    const rows = await asTenant(s.orgId, (trx) =>
      postJournalEntries(trx, s.orgId, [
        base({
          debitAccountId: a['1200'],
          creditAccountId: a['4000'],
          amount: '100.00',
          baseAmount: '100.00',
          referenceId: ref,
        }),
        base({
          debitAccountId: a['1200'],
          creditAccountId: a['2300'],
          amount: '20.00',
          baseAmount: '20.00',
          referenceId: ref,
        }),
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.amount)).toEqual(['100.0000', '20.0000']);
    const b = await balances(s.orgId);
    expect(b[a['1200']]).toMatchObject({ debit_total: '120.0000', credit_total: '0.0000', posting_count: 2 });
    expect(b[a['4000']]).toMatchObject({ debit_total: '0.0000', credit_total: '100.0000', posting_count: 1 });
    expect(b[a['2300']]).toMatchObject({ credit_total: '20.0000', posting_count: 1 });
  });

  it('refuses an account of another organization with 404 SVC-8001 and writes nothing', async () => {
    const s = await registerOrg(h.app);
    const other = await registerOrg(h.app);
    const a = await chart(s.orgId);
    const b = await chart(other.orgId);
    await expect(
      asTenant(s.orgId, (trx) =>
        postJournalEntries(trx, s.orgId, [base({ debitAccountId: a['1200'], creditAccountId: b['4000'] })]),
      ),
    ).rejects.toMatchObject({ code: 'SVC-8001' });
    expect(await balances(s.orgId)).toEqual({});
  });

  it('refuses a posting with the same account on both sides or a non-positive amount', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s.orgId);
    await expect(
      asTenant(s.orgId, (trx) =>
        postJournalEntries(trx, s.orgId, [base({ debitAccountId: a['1000'], creditAccountId: a['1000'] })]),
      ),
    ).rejects.toMatchObject({ code: 'SVC-9003' });
    await expect(
      asTenant(s.orgId, (trx) =>
        postJournalEntries(trx, s.orgId, [
          base({ debitAccountId: a['1000'], creditAccountId: a['1100'], amount: '0' }),
        ]),
      ),
    ).rejects.toMatchObject({ code: 'SVC-9003' });
  });
});

describe('reverseReference', () => {
  it('reverses every not-yet-reversed posting of a reference once: swapped sides, same amounts, locked, "Reversal: "', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s.orgId);
    const ref = crypto.randomUUID();
    const [sale, vat] = await asTenant(s.orgId, (trx) =>
      postJournalEntries(trx, s.orgId, [
        base({
          debitAccountId: a['1200'],
          creditAccountId: a['4000'],
          amount: '100.00',
          baseAmount: '100.00',
          referenceId: ref,
        }),
        base({
          debitAccountId: a['1200'],
          creditAccountId: a['2300'],
          amount: '20.00',
          baseAmount: '20.00',
          referenceId: ref,
        }),
      ]),
    );
    const reversals = await asTenant(s.orgId, (trx) =>
      reverseReference(trx, s.orgId, { referenceType: 'invoice', referenceId: ref }, s.userId, {
        transactionDate: '2026-03-05',
      }),
    );
    expect(reversals).toHaveLength(2);
    const r1 = reversals.find((r) => r.reversal_of === sale.id)!;
    expect(r1).toMatchObject({
      debit_account_id: a['4000'],
      credit_account_id: a['1200'],
      amount: '100.0000',
      base_amount: '100.0000',
      description: 'Reversal: Sale',
      locked: true,
      reference_type: 'invoice',
      reference_id: ref,
      transaction_date: '2026-03-05',
      created_by: s.userId,
    });
    expect(reversals.some((r) => r.reversal_of === vat.id)).toBe(true);
    const b = await balances(s.orgId);
    for (const code of ['1200', '4000', '2300']) expect(b[a[code]].debit_total).toBe(b[a[code]].credit_total);
    // A second cancellation finds nothing left to reverse.
    const again = await asTenant(s.orgId, (trx) =>
      reverseReference(trx, s.orgId, { referenceType: 'invoice', referenceId: ref }, s.userId),
    );
    expect(again).toEqual([]);
  });

  it('reverses several references in one statement (an invoice’s sale and payment)', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s.orgId);
    const invoice = crypto.randomUUID();
    const other = crypto.randomUUID();
    await asTenant(s.orgId, (trx) =>
      postJournalEntries(trx, s.orgId, [
        base({ debitAccountId: a['1200'], creditAccountId: a['4000'], referenceId: invoice }),
        base({ debitAccountId: a['1100'], creditAccountId: a['1200'], referenceType: 'payment', referenceId: invoice }),
        base({ debitAccountId: a['1200'], creditAccountId: a['4000'], referenceId: other }),
      ]),
    );
    const reversals = await asTenant(s.orgId, (trx) =>
      reverseReferences(
        trx,
        s.orgId,
        [
          { referenceType: 'invoice', referenceId: invoice },
          { referenceType: 'payment', referenceId: invoice },
        ],
        null,
      ),
    );
    expect(reversals.map((r) => r.reference_type).sort()).toEqual(['invoice', 'payment']);
    expect(reversals.every((r) => r.reference_id === invoice)).toBe(true);
  });

  it('reverses a single posting by id, and not twice', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s.orgId);
    const [p] = await asTenant(s.orgId, (trx) =>
      postJournalEntries(trx, s.orgId, [
        base({ debitAccountId: a['1000'], creditAccountId: a['3000'], referenceType: 'manual', locked: false }),
      ]),
    );
    const r = await asTenant(s.orgId, (trx) => reversePosting(trx, s.orgId, p.id, s.userId));
    expect(r).toMatchObject({
      reversal_of: p.id,
      debit_account_id: a['3000'],
      credit_account_id: a['1000'],
      locked: true,
    });
    await expect(asTenant(s.orgId, (trx) => reversePosting(trx, s.orgId, p.id, s.userId))).rejects.toMatchObject({
      code: 'SVC-9003',
    });
    await expect(asTenant(s.orgId, (trx) => reversePosting(trx, s.orgId, r.id, s.userId))).rejects.toMatchObject({
      code: 'SVC-9003',
    });
    await expect(
      asTenant(s.orgId, (trx) => reversePosting(trx, s.orgId, crypto.randomUUID(), s.userId)),
    ).rejects.toMatchObject({ code: 'SVC-9002' });
  });
});

describe('trialBalance', () => {
  it('gives each account with postings up to the date its totals and normal-side balance, and balances', async () => {
    const s = await registerOrg(h.app);
    const a = await chart(s.orgId);
    await asTenant(s.orgId, (trx) =>
      postJournalEntries(trx, s.orgId, [
        base({
          transactionDate: '2026-01-10',
          debitAccountId: a['1000'],
          creditAccountId: a['3000'],
          amount: '500.00',
          baseAmount: '500.00',
          referenceType: 'manual',
        }),
        base({
          transactionDate: '2026-02-10',
          debitAccountId: a['5100'],
          creditAccountId: a['1000'],
          amount: '120.50',
          baseAmount: '120.50',
          referenceType: 'manual',
        }),
        base({
          transactionDate: '2026-03-10',
          debitAccountId: a['1200'],
          creditAccountId: a['4000'],
          amount: '80.00',
          baseAmount: '80.00',
        }),
      ]),
    );
    const read = (date: string) =>
      h.t.db.withContext({ kind: 'tenant', orgId: s.orgId }, (db) => trialBalance(db, s.orgId, date));
    const all = await read('2026-12-31');
    expect(all.accounts.map((r) => [r.accountCode, r.debitTotal, r.creditTotal, r.balance])).toEqual([
      ['1000', '500.00', '120.50', '379.50'],
      ['1200', '80.00', '0.00', '80.00'],
      ['3000', '0.00', '500.00', '500.00'],
      ['4000', '0.00', '80.00', '80.00'],
      ['5100', '120.50', '0.00', '120.50'],
    ]);
    expect(all).toMatchObject({ totals: { debit: '700.50', credit: '700.50' }, balanced: true });
    const feb = await read('2026-02-10');
    expect(feb.accounts.map((r) => [r.accountCode, r.balance])).toEqual([
      ['1000', '379.50'],
      ['3000', '500.00'],
      ['5100', '120.50'],
    ]);
    expect((await read('2025-12-31')).accounts).toEqual([]);
  });
});

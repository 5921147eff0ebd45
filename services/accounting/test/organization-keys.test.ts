import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice } from './invoices-fixtures.js';

// Issue 31 (migration 20261205000200): postings, invoices and invoice lines no longer carry a key of
// their own to organizations; the composite keys they keep must still refuse a row whose organization
// does not exist or is not the one of its accounts, customer or invoice.

let t: TestApp;
let owner: Session;
let other: Session;
let accounts: Record<string, string>;
let invoice: { id: string; items: Array<{ id: string }> };
let postingId: string;
const NO_ORGANIZATION = '00000000-0000-4000-8000-0000000000aa';

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app);
  other = await registerOrg(t.app);
  const res = await t.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/accounts' }));
  accounts = Object.fromEntries(res.json().data.map((x: { code: string; id: string }) => [x.code, x.id]));
  const customer = await createCustomer(t.app, owner);
  invoice = await createInvoice(t.app, owner, {
    customerId: customer.id,
    invoiceDate: '2026-03-10',
    dueDate: '2026-04-09',
    items: [{ description: 'Usluga', quantity: 1, unitPrice: 100, taxRate: 20 }],
  });
  const posted = await t.app.inject(
    authed(owner.token, {
      method: 'POST',
      url: '/api/v1/transactions',
      payload: {
        transactionDate: '2026-03-10',
        description: 'Polog',
        debitAccountId: accounts['1000'],
        creditAccountId: accounts['3000'],
        amount: 10,
      },
    }),
  );
  expect(posted.statusCode).toBe(201);
  postingId = posted.json().id;
});
afterAll(async () => t?.close());

const failure = (statement: { execute: (db: TestApp['t']['db']['system']) => Promise<unknown> }) =>
  statement.execute(t.t.db.system).then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

async function organizationOf(table: 'ledger_transactions' | 'invoices' | 'invoice_items', id: string) {
  const { rows } = await sql<{
    organization_id: string;
  }>`SELECT organization_id FROM ${sql.table(table)} WHERE id = ${id}`.execute(t.t.db.system);
  return rows[0]?.organization_id;
}

describe('the organization of postings, invoices and lines (composite keys only)', () => {
  it('has dropped the single-column keys and kept the composite ones', async () => {
    const { rows } = await sql<{ name: string }>`
      SELECT conname AS name FROM pg_constraint
       WHERE contype = 'f' AND conrelid IN ('ledger_transactions'::regclass, 'invoices'::regclass, 'invoice_items'::regclass)
       ORDER BY 1`.execute(t.t.db.system);
    const names = rows.map((r) => r.name);
    for (const dropped of [
      'ledger_transactions_organization_id_fkey',
      'invoices_organization_id_fkey',
      'invoice_items_organization_id_fkey',
    ])
      expect(names).not.toContain(dropped);
    for (const kept of [
      'ledger_transactions_organization_id_debit_account_id_fkey',
      'ledger_transactions_organization_id_credit_account_id_fkey',
      'invoices_organization_id_customer_id_fkey',
      'invoice_items_organization_id_invoice_id_fkey',
    ])
      expect(names).toContain(kept);
  });

  it('refuses to move a posting to an organization that does not exist or does not own its accounts', async () => {
    for (const org of [NO_ORGANIZATION, other.orgId]) {
      expect(await failure(sql`UPDATE ledger_transactions SET organization_id = ${org} WHERE id = ${postingId}`)).toBe(
        '23503',
      );
    }
    expect(await organizationOf('ledger_transactions', postingId)).toBe(owner.orgId);
  });

  it('refuses to move an invoice or one of its lines away from its customer or invoice', async () => {
    for (const org of [NO_ORGANIZATION, other.orgId]) {
      expect(await failure(sql`UPDATE invoices SET organization_id = ${org} WHERE id = ${invoice.id}`)).toBe('23503');
      expect(
        await failure(sql`UPDATE invoice_items SET organization_id = ${org} WHERE id = ${invoice.items[0].id}`),
      ).toBe('23503');
    }
    expect(await organizationOf('invoices', invoice.id)).toBe(owner.orgId);
    expect(await organizationOf('invoice_items', invoice.items[0].id)).toBe(owner.orgId);
  });

  it('refuses a new line whose organization is not the one of its invoice', async () => {
    const insert = (org: string) => sql`
      INSERT INTO invoice_items (id, organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate,
                                 line_total, line_tax, unit_code)
      VALUES (gen_random_uuid(), ${org}, ${invoice.id}, 9, 'x', 1, 1, 0, 1, 0, 'H87')`;
    expect(await failure(insert(NO_ORGANIZATION))).toBe('23503');
    expect(await failure(insert(other.orgId))).toBe('23503');
  });
});

// Issue 31 (migration 20261207000100): the public link's token index holds the tokens there are, not every
// draft's NULL; two invoices still cannot share a token.
describe('the public view token of invoices', () => {
  it('is unique over the tokens set, and a draft has no entry', async () => {
    const { rows } = await sql<{ def: string }>`
      SELECT indexdef AS def FROM pg_indexes WHERE tablename = 'invoices' AND indexdef LIKE '%(token_hash)%'`.execute(
      t.t.db.system,
    );
    expect(rows.map((r) => r.def)).toEqual([
      expect.stringMatching(
        /^CREATE UNIQUE INDEX invoices_token_hash ON .*\(token_hash\) WHERE \(token_hash IS NOT NULL\)$/,
      ),
    ]);
    const customer = await createCustomer(t.app, owner);
    const second = await createInvoice(t.app, owner, {
      customerId: customer.id,
      invoiceDate: '2026-03-11',
      dueDate: '2026-04-10',
      items: [{ description: 'Usluga', quantity: 1, unitPrice: 50, taxRate: 20 }],
    });
    const setToken = (id: string) =>
      failure(
        t.t.db.system
          .updateTable('invoices')
          .set({ token_hash: 'f'.repeat(64) })
          .where('id', '=', id),
      );
    expect(await setToken(invoice.id)).toBe('ok');
    expect(await setToken(second.id)).toBe('23505');
  });
});

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.js';
import { buyer, seller, sentInvoice } from './einvoice-fixtures.js';
import { authed, type Session } from './helpers.js';
import { invoiceBody } from './invoices-fixtures.js';
import { form } from './multipart.js';

/**
 * Another organization's record per route with an id (issue 34, item 4), and a valid body where one
 * is needed, so the answer is about ownership and not about validation. The security suite fails for
 * a route with an id that has no entry here: features add their routes here.
 *
 * Organization A is `world.owner`'s (a Serbian seller with everything its e-invoices need, so the
 * documents of a sent invoice answer 200 to their owner); its users are the security suite's.
 */
export interface CrossOrgFixture {
  /** The record of organization A that the route's `:id` names. */
  id: string;
  /** A JSON body that would be accepted for A's own record. */
  payload?: object;
  /** A multipart body (payload and content-type header) instead of JSON. */
  multipart?: { payload: Buffer; headers: Record<string, string> };
  /** The contract's answer to another organization; 404 unless said otherwise. */
  status?: number;
}

export interface World {
  app: FastifyInstance;
  /** Owner of organization A. */
  owner: Session;
  /** The security suite's sessions (its own organization), for the user routes. */
  sessions: Record<string, Session>;
  customerId: string;
  draftInvoiceId: string;
  sentInvoiceId: string;
  creditedInvoiceId: string;
  accountId: string;
  manualTransactionId: string;
  pendingExpenseId: string;
  approvedExpenseId: string;
  receiptExpenseId: string;
  bankAccountId: string;
  bankTransactionId: string;
  /** A purchase invoice received through SEF (written as SEF intake would, D4). */
  purchaseInvoiceId: string;
  accountIds: Record<string, string>;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const ITEM = { description: 'Usluge', quantity: 1, unitPrice: 1000, taxRate: 20 };

/** Creates organization A's records, one of each kind a route with an id names. */
export async function buildWorld(
  app: FastifyInstance,
  sessions: Record<string, Session>,
  system: Kysely<DB>,
): Promise<World> {
  const owner = await seller(app, 'RS');
  const call = async (method: string, url: string, payload?: object, expected = [200, 201]) => {
    const res = await app.inject(
      authed(owner.token, { method: method as 'GET', url, ...(payload === undefined ? {} : { payload }) }),
    );
    if (!expected.includes(res.statusCode)) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const accountIds: Record<string, string> = Object.fromEntries(
    (await call('GET', '/api/v1/accounts')).data.map((a: { code: string; id: string }) => [a.code, a.id]),
  );
  const customerId = (await buyer(app, owner, 'RS')).id;
  const invoice = { ...invoiceBody(customerId), items: [ITEM] };
  const draftInvoiceId = (await call('POST', '/api/v1/invoices', invoice)).id;
  const sentInvoiceId = (await sentInvoice(app, owner, invoice)).id;
  const creditedInvoiceId = (await sentInvoice(app, owner, invoice)).id;
  await call('PATCH', `/api/v1/invoices/${creditedInvoiceId}/status`, { action: 'cancel' });
  const manualTransactionId = (
    await call('POST', '/api/v1/transactions', {
      transactionDate: '2026-03-10',
      description: 'Uplata osnivača',
      debitAccountId: accountIds['1100'],
      creditAccountId: accountIds['3000'],
      amount: 250,
    })
  ).id;
  const expense = { expenseDate: '2026-03-10', category: 'Office', amount: 120, taxAmount: 20, description: 'Papir' };
  const pendingExpenseId = (await call('POST', '/api/v1/expenses', expense)).id;
  const approvedExpenseId = (await call('POST', '/api/v1/expenses', expense)).id;
  await call('PATCH', `/api/v1/expenses/${approvedExpenseId}/approve`);
  const receipt = await app.inject(
    authed(owner.token, {
      method: 'POST',
      url: '/api/v1/expenses',
      ...form(
        { expenseDate: '2026-03-11', category: 'Travel', amount: '118.80', taxAmount: '19.80' },
        { filename: 'r.png', type: 'image/png', data: PNG },
      ),
    }),
  );
  if (receipt.statusCode !== 201) throw new Error(`receipt: ${receipt.body}`);
  const bankAccountId = (
    await call('POST', '/api/v1/bank-accounts', {
      accountId: accountIds['1100'],
      bankName: 'Banka Intesa',
      currencyCode: 'RSD',
    })
  ).id;
  const imported = await app.inject(
    authed(owner.token, {
      method: 'POST',
      url: `/api/v1/bank-accounts/${bankAccountId}/import`,
      ...form({}, { field: 'file', filename: 's.csv', type: 'text/csv', data: Buffer.from(statementCsv) }),
    }),
  );
  if (imported.statusCode !== 200 || imported.json().imported !== 1) throw new Error(`import: ${imported.body}`);
  const lines = await call('GET', `/api/v1/bank-accounts/${bankAccountId}/transactions`);
  // SEF intake needs SEF (a mock in sef.test.ts): the row it writes, written here directly.
  const purchase = await system
    .insertInto('purchase_invoices')
    .values({
      organization_id: owner.orgId,
      external_id: 'sef-12345',
      status: 'Seen',
      invoice_number: 'UF-1/2026',
      issue_date: '2026-03-09',
      supplier_name: 'Dobavljač d.o.o.',
      supplier_vat_number: '101134702',
      currency_code: 'RSD',
      net_amount: '100',
      tax_amount: '20',
      total_amount: '120',
      ubl: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    purchaseInvoiceId: purchase.id,
    app,
    owner,
    sessions,
    customerId,
    draftInvoiceId,
    sentInvoiceId,
    creditedInvoiceId,
    accountId: accountIds['5300'],
    manualTransactionId,
    pendingExpenseId,
    approvedExpenseId,
    receiptExpenseId: receipt.json().id,
    bankAccountId,
    bankTransactionId: lines.data[0].id,
    accountIds,
  };
}

const statementCsv = 'Date,Description,Amount,Reference\n2026-03-10,Uplata osnivača,250.00,\n';

type Make = (w: World) => CrossOrgFixture;

const invoiceUpdate: Make = (w) => ({
  id: w.draftInvoiceId,
  payload: { ...invoiceBody(w.customerId), items: [ITEM], notes: 'changed' },
});

export const crossOrgFixtures: Record<string, Make> = {
  'DELETE /api/v1/users/:id': (w) => ({ id: w.sessions.viewer.userId }),
  'PUT /api/v1/users/:id/role': (w) => ({ id: w.sessions.viewer.userId, payload: { role: 'admin' } }),

  'GET /api/v1/contacts/:id': (w) => ({ id: w.customerId }),
  'PUT /api/v1/contacts/:id': (w) => ({ id: w.customerId, payload: { name: 'Taken over d.o.o.' } }),
  'DELETE /api/v1/contacts/:id': (w) => ({ id: w.customerId }),

  'GET /api/v1/accounts/:id': (w) => ({ id: w.accountId }),
  'PUT /api/v1/accounts/:id': (w) => ({ id: w.accountId, payload: { name: 'Renamed', isActive: false } }),
  'DELETE /api/v1/accounts/:id': (w) => ({ id: w.accountId }),

  'GET /api/v1/transactions/:id': (w) => ({ id: w.manualTransactionId }),
  'POST /api/v1/transactions/:id/reverse': (w) => ({ id: w.manualTransactionId, payload: {} }),
  // A lone manual posting is a journal entry of its own (its id the entry's).
  'GET /api/v1/transactions/entries/:id': (w) => ({ id: w.manualTransactionId }),
  'POST /api/v1/transactions/entries/:id/reverse': (w) => ({ id: w.manualTransactionId, payload: {} }),

  'GET /api/v1/invoices/:id': (w) => ({ id: w.draftInvoiceId }),
  'PUT /api/v1/invoices/:id': invoiceUpdate,
  'PATCH /api/v1/invoices/:id/status': (w) => ({ id: w.draftInvoiceId, payload: { action: 'cancel' } }),
  'POST /api/v1/invoices/:id/send': (w) => ({ id: w.draftInvoiceId, payload: { to: 'intruder@example.test' } }),
  'GET /api/v1/invoices/:id/pdf': (w) => ({ id: w.sentInvoiceId }),
  'GET /api/v1/invoices/:id/ubl': (w) => ({ id: w.sentInvoiceId }),
  'GET /api/v1/invoices/:id/credit-note/ubl': (w) => ({ id: w.creditedInvoiceId }),
  'GET /api/v1/invoices/:id/payment-code': (w) => ({ id: w.sentInvoiceId }),
  'GET /api/v1/invoices/:id/sef': (w) => ({ id: w.sentInvoiceId }),
  'POST /api/v1/invoices/:id/sef': (w) => ({ id: w.sentInvoiceId }),
  'POST /api/v1/invoices/:id/credit-note/sef': (w) => ({ id: w.creditedInvoiceId }),
  'POST /api/v1/invoices/:id/sef/cancel': (w) => ({ id: w.sentInvoiceId, payload: { reason: 'Greška u ceni' } }),
  'POST /api/v1/invoices/:id/sef/storno': (w) => ({
    id: w.sentInvoiceId,
    payload: { reason: 'Storno', stornoNumber: 'ST-1' },
  }),
  'GET /api/v1/invoices/:id/fiscalization': (w) => ({ id: w.sentInvoiceId }),
  'POST /api/v1/invoices/:id/fiscalization': (w) => ({ id: w.sentInvoiceId }),
  'GET /api/v1/invoices/:id/intermediary': (w) => ({ id: w.sentInvoiceId }),
  'POST /api/v1/invoices/:id/intermediary': (w) => ({ id: w.sentInvoiceId }),
  'POST /api/v1/invoices/:id/credit-note/intermediary': (w) => ({ id: w.creditedInvoiceId }),

  'GET /api/v1/purchase-invoices/:id': (w) => ({ id: w.purchaseInvoiceId }),
  'GET /api/v1/purchase-invoices/:id/ubl': (w) => ({ id: w.purchaseInvoiceId }),
  'POST /api/v1/purchase-invoices/:id/accept': (w) => ({ id: w.purchaseInvoiceId, payload: { comment: 'U redu' } }),
  'POST /api/v1/purchase-invoices/:id/reject': (w) => ({ id: w.purchaseInvoiceId, payload: { comment: 'Pogrešno' } }),
  'POST /api/v1/purchase-invoices/:id/expense': (w) => ({ id: w.purchaseInvoiceId, payload: { category: 'Office' } }),

  'GET /api/v1/expenses/:id': (w) => ({ id: w.pendingExpenseId }),
  'PUT /api/v1/expenses/:id': (w) => ({
    id: w.pendingExpenseId,
    payload: { expenseDate: '2026-03-12', category: 'Office', amount: 999 },
  }),
  'DELETE /api/v1/expenses/:id': (w) => ({ id: w.pendingExpenseId }),
  'PATCH /api/v1/expenses/:id/approve': (w) => ({ id: w.pendingExpenseId }),
  'PATCH /api/v1/expenses/:id/reject': (w) => ({ id: w.pendingExpenseId, payload: { reason: 'no' } }),
  'PATCH /api/v1/expenses/:id/pay': (w) => ({ id: w.approvedExpenseId, payload: { paidAt: '2026-03-15' } }),
  'GET /api/v1/expenses/:id/receipt': (w) => ({ id: w.receiptExpenseId }),

  'GET /api/v1/bank-accounts/:id/transactions': (w) => ({ id: w.bankAccountId }),
  'POST /api/v1/bank-accounts/:id/import': (w) => ({
    id: w.bankAccountId,
    multipart: form(
      {},
      {
        field: 'file',
        filename: 's.csv',
        type: 'text/csv',
        data: Buffer.from('Date,Description,Amount,Reference\n2026-03-11,Intruder,1.00,\n'),
      },
    ),
  }),
  'POST /api/v1/bank-accounts/:id/reconcile': (w) => ({
    id: w.bankAccountId,
    payload: { bankTransactionId: w.bankTransactionId, transactionId: w.manualTransactionId },
  }),
  'POST /api/v1/bank-accounts/:id/unreconcile': (w) => ({
    id: w.bankAccountId,
    payload: { bankTransactionId: w.bankTransactionId },
  }),
};

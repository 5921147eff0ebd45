import type { Database } from '@app/shared/db/database';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../src/db/types.js';
import { authed, foldLedger, type Session } from './helpers.js';

/** Small factories for the invoice suites. */
export async function createCustomer(app: FastifyInstance, s: Session, overrides: Record<string, unknown> = {}) {
  const res = await app.inject(
    authed(s.token, {
      method: 'POST',
      url: '/api/v1/contacts',
      payload: {
        type: 'customer',
        name: 'Kupac Čačić d.o.o.',
        email: 'kupac@example.test',
        addressLine1: 'Njegoševa 5',
        city: 'Šabac',
        postalCode: '15000',
        country: 'RS',
        ...overrides,
      },
    }),
  );
  if (res.statusCode !== 201) throw new Error(`contact: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; currencyCode: string };
}

export const ITEMS = [
  { description: 'Konsultantske usluge — razvoj', quantity: 2, unitPrice: 1500, taxRate: 20 },
  { description: 'Održavanje', quantity: 1, unitPrice: 499.99, taxRate: 10 },
];

/** Lines at a Croatian or Bosnian organization's own rates (ITEMS carry the Serbian 20 and 10 %). */
export const HR_ITEMS = [
  { description: 'Savjetovanje', quantity: 2, unitPrice: 1500, taxRate: 25 },
  { description: 'Knjige', quantity: 1, unitPrice: 499.99, taxRate: 5 },
];
export const BA_ITEMS = [
  { description: 'Konsultantske usluge', quantity: 2, unitPrice: 1500, taxRate: 17 },
  { description: 'Održavanje', quantity: 1, unitPrice: 499.99, taxRate: 17 },
];

export function invoiceBody(customerId: string, overrides: Record<string, unknown> = {}) {
  return {
    customerId,
    invoiceDate: '2026-03-10',
    dueDate: '2026-04-09',
    items: ITEMS,
    notes: 'Hvala!',
    terms: '30 dana',
    ...overrides,
  };
}

export async function createInvoice(app: FastifyInstance, s: Session, body: Record<string, unknown>) {
  const res = await app.inject(authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body }));
  if (res.statusCode !== 201) throw new Error(`invoice: ${res.statusCode} ${res.body}`);
  return res.json();
}

export function patchStatus(app: FastifyInstance, s: Session, id: string, payload: Record<string, unknown>) {
  return app.inject(authed(s.token, { method: 'PATCH', url: `/api/v1/invoices/${id}/status`, payload }));
}

/** Trial balance over ledger_transactions: total debits and credits (base currency) and the posting count. */
export async function trialBalance(db: Database<DB>, orgId: string) {
  const { rows } = await sql<{ n: string; debit: string | null; credit: string | null }>`
    SELECT count(*)::text AS n,
      (SELECT sum(t.base_amount) FROM ledger_transactions t WHERE t.organization_id = ${orgId})::text AS debit,
      (SELECT sum(t.base_amount) FROM ledger_transactions t WHERE t.organization_id = ${orgId})::text AS credit
    FROM ledger_transactions WHERE organization_id = ${orgId}`.execute(db.system);
  await foldLedger(db);
  const balances = await sql<{ debit: string | null; credit: string | null }>`
    SELECT sum(debit_total)::text AS debit, sum(credit_total)::text AS credit FROM account_balances WHERE organization_id = ${orgId}`.execute(
    db.system,
  );
  return {
    postings: Number(rows[0].n),
    ledgerDebit: rows[0].debit ?? '0',
    ledgerCredit: rows[0].credit ?? '0',
    balanceDebit: balances.rows[0].debit ?? '0',
    balanceCredit: balances.rows[0].credit ?? '0',
  };
}

export async function postingsOf(db: Database<DB>, orgId: string, invoiceId: string) {
  const { rows } = await sql<{
    debit: string;
    credit: string;
    amount: string;
    base_amount: string;
    reference_type: string;
    description: string;
    locked: boolean;
    exchange_rate: string;
  }>`
    SELECT d.code AS debit, c.code AS credit, t.amount::text, t.base_amount::text, t.reference_type, t.description, t.locked, t.exchange_rate::text
    FROM ledger_transactions t JOIN accounts d ON d.id = t.debit_account_id JOIN accounts c ON c.id = t.credit_account_id
    WHERE t.organization_id = ${orgId} AND t.reference_id = ${invoiceId}
    ORDER BY t.created_at, t.description`.execute(db.system);
  return rows;
}

/** Per account code: debits - credits in base currency, from the postings themselves. */
export async function accountNets(db: Database<DB>, orgId: string): Promise<Record<string, string>> {
  const { rows } = await sql<{ code: string; net: string }>`
    SELECT a.code, (COALESCE(sum(t.base_amount) FILTER (WHERE t.debit_account_id = a.id), 0)
                  - COALESCE(sum(t.base_amount) FILTER (WHERE t.credit_account_id = a.id), 0))::text AS net
    FROM accounts a JOIN ledger_transactions t ON a.id IN (t.debit_account_id, t.credit_account_id)
    WHERE a.organization_id = ${orgId}
    GROUP BY a.code ORDER BY a.code`.execute(db.system);
  return Object.fromEntries(rows.map((r) => [r.code, r.net]));
}

/**
 * Adds rates to the organization's tax-rate settings (issue 32: an invoice line carries 0 or one of
 * them), for suites whose invoices need a rate the country's defaults lack.
 */
export async function addTaxRates(app: FastifyInstance, s: Session, rates: number[]) {
  const current = (await app.inject(authed(s.token, { method: 'GET', url: '/api/v1/settings/tax-rates' }))).json();
  const res = await app.inject(
    authed(s.token, {
      method: 'PUT',
      url: '/api/v1/settings/tax-rates',
      payload: {
        defaultVATRate: current.defaultVATRate,
        rates: [...current.rates, ...rates.map((rate) => ({ name: `Added ${rate}`, rate }))],
      },
    }),
  );
  if (res.statusCode !== 200) throw new Error(`tax rates: ${res.statusCode} ${res.body}`);
}

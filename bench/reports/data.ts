import type pg from 'pg';
import { rebuildLedgerTotals } from '../ledger-totals.js';

/**
 * The issue 12 data set, generated with set-based SQL as the table owner: one organization with
 * 200 accounts (the default chart plus 183 created ones) and `postings` postings spread evenly over
 * the 1,096 days ending on `today`, of which the sales and payments of invoices and the approvals
 * and payments of expenses are real documents (so the VAT report has rows to list); the rest are
 * manual postings over 600 account pairs. Around it, other organizations with `perOther` postings
 * each, written between the chunks of the big one so the heap interleaves them.
 * session_replication_role = replica skips the audit rows and per-row foreign-key checks of a bulk
 * load; the running totals and day and month sums are rebuilt afterwards (bench/ledger-totals.ts),
 * and the VAT report's rows and days, which triggers keep, computed.
 */
export interface DataSet {
  orgId: string;
  otherOrgIds: string[];
  postings: number;
  perOther: number;
  from: string;
  today: string;
}

export interface LoadedData {
  accounts: number;
  invoices: number;
  expenses: number;
  documentPostings: number;
  manualPostings: number;
  otherPostings: number;
  periodSumRows: number;
}

const DAYS = 1096;
const INVOICES = 18_000;
const EXPENSES = 9_000;
const CHUNK = 125_000;

/** Created accounts: [type, first code, step, how many]; codes ending in 5 never meet the default chart's. */
const CREATED: Array<[type: number, first: number, step: number, count: number]> = [
  [1, 1015, 10, 9], // cash and bank (1000-1199)
  [1, 1205, 10, 15], // other current assets
  [1, 1505, 20, 16], // fixed assets (1500-1999)
  [2, 2005, 20, 20], // current liabilities
  [2, 2505, 40, 10], // long-term liabilities (2500-2999)
  [3, 3005, 100, 8], // equity
  [4, 4005, 20, 35], // revenue
  [5, 5005, 40, 70], // expenses
];

async function createAccounts(admin: pg.Client, orgId: string): Promise<void> {
  const codes: string[] = [];
  const types: number[] = [];
  for (const [type, first, step, count] of CREATED) {
    for (let i = 0; i < count; i++) {
      codes.push(String(first + i * step));
      types.push(type);
    }
  }
  await admin.query(
    `INSERT INTO accounts (organization_id, code, name, account_type_id, currency_code)
     SELECT $1, c, 'Konto ' || c, t, 'RSD' FROM unnest($2::text[], $3::smallint[]) AS x (c, t)`,
    [orgId, codes, types],
  );
}

async function idsByCode(admin: pg.Client, orgId: string): Promise<Map<string, string>> {
  const { rows } = await admin.query<{ id: string; code: string }>(
    'SELECT id, code FROM accounts WHERE organization_id = $1 ORDER BY code',
    [orgId],
  );
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Invoices with two lines (20% and 10%), every tenth in EUR; their sale postings and, when paid, the payment. */
async function createInvoices(
  admin: pg.Client,
  orgId: string,
  from: string,
  today: string,
  ids: Map<string, string>,
): Promise<void> {
  const { rows } = await admin.query<{ id: string }>(
    `INSERT INTO contacts (organization_id, type, name, currency_code) VALUES ($1, 'customer', 'Bench kupac d.o.o.', 'RSD') RETURNING id`,
    [orgId],
  );
  await admin.query(
    `INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code,
       exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount, status, paid_at)
     SELECT $1, 'INV-' || lpad(i::text, 6, '0'), $2, 'Bench kupac d.o.o.', d, d + 30, cur, rate, p1 + p2, t1 + t2, 0,
            p1 + p2 + t1 + t2, round((p1 + p2 + t1 + t2) * rate, 2), status,
            CASE WHEN status = 'paid' THEN least(d + 15, $4::date) END
     FROM generate_series(0, $5::int - 1) AS i,
       LATERAL (SELECT $3::date + (i::bigint * ${DAYS} / $5::int)::int AS d,
                       CASE WHEN i % 10 = 3 THEN 'EUR' ELSE 'RSD' END AS cur,
                       CASE WHEN i % 10 = 3 THEN 117.1734 ELSE 1 END AS rate,
                       ((i::bigint * 7919) % 200000 + 100) / 100.0 AS p1,
                       ((i::bigint * 104729) % 50000 + 100) / 100.0 AS p2) AS a,
       LATERAL (SELECT round(p1 * 0.20, 2) AS t1, round(p2 * 0.10, 2) AS t2,
                       CASE WHEN i % 50 = 0 THEN 'draft'
                            WHEN d > $4::date - 45 THEN (ARRAY['sent', 'viewed', 'paid'])[1 + i % 3]
                            WHEN i % 9 = 0 THEN 'overdue' ELSE 'paid' END AS status) AS b`,
    [orgId, rows[0].id, from, today, INVOICES],
  );
  await admin.query(
    `INSERT INTO invoice_items (organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax)
     SELECT v.organization_id, v.id, l.n, 'Usluga ' || l.n, 1, l.price, l.rate, l.price, round(l.price * l.rate / 100, 2)
     FROM invoices v, LATERAL (SELECT substring(v.invoice_number FROM 5)::bigint AS i) AS x,
       LATERAL (VALUES (1, ((x.i * 7919) % 200000 + 100) / 100.0, 20), (2, ((x.i * 104729) % 50000 + 100) / 100.0, 10)) AS l (n, price, rate)
     WHERE v.organization_id = $1`,
    [orgId],
  );
  // Sale (A8): Dr 1200 / Cr 4000 net and Dr 1200 / Cr 2300 tax; payment: Dr 1100 / Cr 1200 total.
  await admin.query(
    `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
       amount, currency_code, exchange_rate, base_amount, reference_type, reference_id, locked)
     SELECT v.organization_id, p.d, 'Invoice ' || v.invoice_number || p.suffix, p.debit, p.credit, p.amount, v.currency_code,
            v.exchange_rate, round(p.amount * v.exchange_rate, 2), p.ref, v.id, true
     FROM invoices v,
       LATERAL (VALUES (v.invoice_date, '', $2::uuid, $3::uuid, v.subtotal, 'invoice', true),
                       (v.invoice_date, ' VAT', $2::uuid, $4::uuid, v.tax_amount, 'invoice', true),
                       (v.paid_at, ' payment', $5::uuid, $2::uuid, v.total_amount, 'payment', v.status = 'paid')) AS p (d, suffix, debit, credit, amount, ref, wanted)
     WHERE v.organization_id = $1 AND v.status <> 'draft' AND p.wanted
     ORDER BY p.d`,
    [orgId, ids.get('1200'), ids.get('4000'), ids.get('2300'), ids.get('1100')],
  );
}

/** Expenses (every fifth without VAT, every tenth in EUR): approvals Dr expense / Cr 2110 and Dr 1300 / Cr 2110, payments Dr 2110 / Cr 1100. */
async function createExpenses(
  admin: pg.Client,
  orgId: string,
  from: string,
  today: string,
  ids: Map<string, string>,
): Promise<void> {
  const expenseAccounts = [...ids.entries()].filter(([code]) => code >= '5000' && code < '8000').map(([, id]) => id);
  await admin.query(
    `INSERT INTO expenses (organization_id, expense_number, vendor_name, expense_date, category, amount, tax_amount, currency_code,
       exchange_rate, base_amount, account_id, status, paid_at)
     SELECT $1, 'EXP-' || lpad(j::text, 6, '0'), 'Dobavljac ' || (j % 40), d,
            (ARRAY['office', 'travel', 'rent', 'utilities', 'software', 'fuel'])[1 + j % 6], amt,
            CASE WHEN j % 5 = 0 THEN 0 ELSE round(amt / 6, 2) END, cur, rate, round(amt * rate, 2),
            ($3::uuid[])[1 + j % cardinality($3::uuid[])], status, CASE WHEN status = 'paid' THEN least(d + 10, $4::date) END
     FROM generate_series(0, $5::int - 1) AS j,
       LATERAL (SELECT $2::date + (j::bigint * ${DAYS} / $5::int)::int AS d, ((j::bigint * 7919) % 300000 + 500) / 100.0 AS amt,
                       CASE WHEN j % 10 = 7 THEN 'EUR' ELSE 'RSD' END AS cur, CASE WHEN j % 10 = 7 THEN 117.1734 ELSE 1 END AS rate) AS a,
       LATERAL (SELECT CASE WHEN j % 23 = 0 THEN 'pending' WHEN d > $4::date - 30 THEN 'approved' ELSE 'paid' END AS status) AS b`,
    [orgId, from, expenseAccounts, today, EXPENSES],
  );
  await admin.query(
    `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
       amount, currency_code, exchange_rate, base_amount, reference_type, reference_id, locked)
     SELECT e.organization_id, p.d, 'Expense ' || e.expense_number || p.suffix, p.debit, p.credit, p.amount, e.currency_code,
            e.exchange_rate, round(p.amount * e.exchange_rate, 2), p.ref, e.id, true
     FROM expenses e,
       LATERAL (VALUES (e.expense_date, '', e.account_id, $2::uuid, e.amount - e.tax_amount, 'expense'),
                       (e.expense_date, ' VAT', $3::uuid, $2::uuid, e.tax_amount, 'expense'),
                       (e.paid_at, ' payment', $2::uuid, $4::uuid, CASE WHEN e.status = 'paid' THEN e.amount ELSE 0 END, 'payment')) AS p (d, suffix, debit, credit, amount, ref)
     WHERE e.organization_id = $1 AND e.status IN ('approved', 'paid') AND p.amount > 0
     ORDER BY p.d`,
    [orgId, ids.get('2110'), ids.get('1300'), ids.get('1100')],
  );
}

/**
 * Manual postings g in [first, last] of `total`, dated in order over the days from `from`; pairs:
 * account k with k+1, k+7 and k+61 (of the code-ordered accounts), so 600 pairs in all.
 */
function insertManual(
  admin: pg.Client,
  orgId: string,
  accountIds: string[],
  from: string,
  first: number,
  last: number,
  total: number,
) {
  return admin.query(
    `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
       amount, currency_code, exchange_rate, base_amount, reference_type, locked)
     SELECT $1, $3::date + (g::bigint * ${DAYS} / $6::int)::int, 'Knjizenje ' || g, ($2::uuid[])[1 + k], ($2::uuid[])[1 + (k + o) % n],
            amt, 'RSD', 1, amt, 'manual', false
     FROM generate_series($4::int, $5::int) AS g,
       LATERAL (SELECT cardinality($2::uuid[]) AS n, (g::bigint * 7919) % cardinality($2::uuid[]) AS k,
                       (ARRAY[1, 7, 61])[1 + (g / cardinality($2::uuid[])) % 3] AS o,
                       ((g::bigint * 104729) % 500000 + 1) / 100.0 AS amt) AS a`,
    [orgId, accountIds, from, first, last, total],
  );
}

export async function generate(admin: pg.Client, set: DataSet): Promise<LoadedData> {
  await createAccounts(admin, set.orgId);
  const ids = await idsByCode(admin, set.orgId);
  if (ids.size !== 200) throw new Error(`expected 200 accounts, found ${ids.size}`);
  await admin.query('SET session_replication_role = replica');
  await createInvoices(admin, set.orgId, set.from, set.today, ids);
  await createExpenses(admin, set.orgId, set.from, set.today, ids);
  const count = async (orgIds: string[]) =>
    Number(
      (await admin.query('SELECT count(*) FROM ledger_transactions WHERE organization_id = ANY($1::uuid[])', [orgIds]))
        .rows[0].count,
    );
  const documentPostings = await count([set.orgId]);
  const manual = Math.max(0, set.postings - documentPostings);
  const accountIds = [...ids.values()];
  const chunks = Math.max(1, Math.ceil(manual / CHUNK));
  const otherAccounts = new Map<string, string[]>();
  for (const org of set.otherOrgIds) otherAccounts.set(org, [...(await idsByCode(admin, org)).values()]);
  for (let c = 0; c < chunks; c++) {
    if (manual > 0)
      await insertManual(
        admin,
        set.orgId,
        accountIds,
        set.from,
        c * CHUNK,
        Math.min(manual, (c + 1) * CHUNK) - 1,
        manual,
      );
    for (const org of set.otherOrgIds.filter((_, i) => i % chunks === c)) {
      await insertManual(admin, org, otherAccounts.get(org)!, set.from, 0, set.perOther - 1, set.perOther);
    }
  }
  await admin.query('SET session_replication_role = origin');
  for (const org of [set.orgId, ...set.otherOrgIds]) await rebuildLedgerTotals(admin, org);
  // The VAT report's rows and days are kept by triggers, which replica mode skipped: computed here
  // by the functions those triggers run (migration 20261123007000), as its backfill does.
  await admin.query(
    'SELECT vat_report_rows_refresh_invoices(ARRAY(SELECT id FROM invoices WHERE organization_id = $1))',
    [set.orgId],
  );
  await admin.query(
    'SELECT vat_report_rows_refresh_expenses(ARRAY(SELECT id FROM expenses WHERE organization_id = $1))',
    [set.orgId],
  );
  await admin.query('VACUUM ANALYZE');
  return describeData(admin, set.orgId, set.otherOrgIds);
}

/** What a loaded data set holds (also for a kept database reused with BENCH_DB_URL). */
export async function describeData(admin: pg.Client, orgId: string, otherOrgIds: string[]): Promise<LoadedData> {
  const one = async (q: string, params: unknown[] = [orgId]) => Number((await admin.query(q, params)).rows[0].count);
  const documentPostings = await one(
    "SELECT count(*) FROM ledger_transactions WHERE organization_id = $1 AND reference_type IS DISTINCT FROM 'manual'",
  );
  return {
    accounts: await one('SELECT count(*) FROM accounts WHERE organization_id = $1'),
    invoices: await one('SELECT count(*) FROM invoices WHERE organization_id = $1'),
    expenses: await one('SELECT count(*) FROM expenses WHERE organization_id = $1'),
    documentPostings,
    manualPostings:
      (await one('SELECT count(*) FROM ledger_transactions WHERE organization_id = $1')) - documentPostings,
    otherPostings: await one('SELECT count(*) FROM ledger_transactions WHERE organization_id = ANY($1::uuid[])', [
      otherOrgIds,
    ]),
    periodSumRows: await one('SELECT count(*) FROM account_period_sums WHERE organization_id = $1'),
  };
}

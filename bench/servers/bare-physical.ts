import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * The physical baseline of issue 9: bare Fastify and one pg pool (10 connections, like the
 * services) doing the minimal statements of each job on plain tables: no triggers, no
 * row-level security, no foreign keys beyond the primary keys, no auth, no validation.
 * The caller names the organization (or user) in the request. Tables are made by setup().
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pg.types.setTypeParser(1700, (v) => v);
pg.types.setTypeParser(1082, (v) => v);
const app = Fastify({ logger: false });

const ME = 'SELECT id, organization_id, email, full_name, role, is_active, last_login_at FROM p_users WHERE id = $1';
const PAGE = `SELECT id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code, total_amount, status,
  created_at, count(*) OVER () AS total_count
  FROM p_invoices WHERE organization_id = $1 ORDER BY invoice_date DESC, invoice_number DESC LIMIT 20`;
const POSTING = `INSERT INTO p_postings (organization_id, transaction_date, description, debit_account_id, credit_account_id, amount)
  VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`;
const BALANCE = `INSERT INTO p_balances AS b (account_id, debit_total, credit_total) VALUES ($1, $2, $3)
  ON CONFLICT (account_id) DO UPDATE SET debit_total = b.debit_total + EXCLUDED.debit_total, credit_total = b.credit_total + EXCLUDED.credit_total`;
const COUNTER = `INSERT INTO p_counters (organization_id, year, last_number) VALUES ($1, $2, 1)
  ON CONFLICT (organization_id, year) DO UPDATE SET last_number = p_counters.last_number + 1 RETURNING last_number`;
const INVOICE = `INSERT INTO p_invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code, total_amount, status)
  VALUES ($1, $2, $3, 'Bench customer', $4, $5, 'RSD', 0, 'draft') RETURNING *`;
const ITEMS = `INSERT INTO p_items (invoice_id, line_number, description, quantity, unit_price, tax_rate)
  SELECT $1, n, $2, 1, 10, 20 FROM generate_series(1, 3) AS n`;

app.get('/hello', async () => ({ hello: 'world' }));

app.get('/me', async (request) => {
  const { user } = request.query as { user: string };
  return (await pool.query({ name: 'me', text: ME, values: [user] })).rows[0];
});

app.get('/invoices', async (request) => {
  const { org } = request.query as { org: string };
  const { rows } = await pool.query({ name: 'page', text: PAGE, values: [org] });
  return { data: rows, total: rows[0]?.total_count ?? 0 };
});

// The remittance history page (issue 31): the newest 20 of a user's payments with the total, one round trip.
const HISTORY = `SELECT id, type, status, send_amount, send_currency, recipient_name, created_at, count(*) OVER () AS total
  FROM p_remit_tx WHERE user_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 20`;
app.get('/history', async (request) => {
  const { user } = request.query as { user: string };
  const { rows } = await pool.query({ name: 'history', text: HISTORY, values: [user] });
  return {
    data: rows.map((r) => ({
      id: r.id,
      type: r.type,
      status: r.status,
      amount: -Number(r.send_amount),
      currency: r.send_currency,
      recipientName: r.recipient_name,
      createdAt: r.created_at.toISOString(),
    })),
    pagination: { page: 1, limit: 20, total: Number(rows[0]?.total ?? 0) },
  };
});

app.post('/transactions', async (request, reply) => {
  const b = request.body as {
    org: string;
    transactionDate: string;
    description: string;
    debitAccountId: string;
    creditAccountId: string;
    amount: number;
  };
  const amount = String(b.amount);
  const row = await transaction(pool, async (client) => {
    const { rows } = await client.query({
      name: 'posting',
      text: POSTING,
      values: [b.org, b.transactionDate, b.description, b.debitAccountId, b.creditAccountId, amount],
    });
    for (const id of [b.debitAccountId, b.creditAccountId].sort()) {
      await client.query({
        name: 'balance',
        text: BALANCE,
        values: [id, id === b.debitAccountId ? amount : '0', id === b.creditAccountId ? amount : '0'],
      });
    }
    return rows[0];
  });
  return reply.status(201).send(row);
});

app.post('/invoices', async (request, reply) => {
  const b = request.body as {
    org: string;
    customerId: string;
    invoiceDate: string;
    dueDate: string;
    items: Array<{ description: string }>;
  };
  const year = Number(b.invoiceDate.slice(0, 4));
  const row = await transaction(pool, async (client) => {
    const n = (await client.query({ name: 'counter', text: COUNTER, values: [b.org, year] })).rows[0]
      .last_number as number;
    const number = `INV-${year}-${String(n).padStart(4, '0')}`;
    const { rows } = await client.query({
      name: 'invoice',
      text: INVOICE,
      values: [b.org, number, b.customerId, b.invoiceDate, b.dueDate],
    });
    await client.query({ name: 'items', text: ITEMS, values: [rows[0].id, b.items[0].description] });
    return rows[0];
  });
  return reply.status(201).send(row);
});

await serve(app, pool);

import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * Baseline for POST /invoices: bare Fastify and one pg pool running one transaction of three
 * INSERTs (its items in one statement, the number counter upsert, the invoice), as the table
 * owner: no auth, no validation, no RLS, no customer or rate look-up, no decimal arithmetic.
 * Same database, same tables, same triggers. In the service's order since ddf5397: the items
 * first, under an invoice id made here (their key to the invoice is checked at COMMIT), so the
 * counter row is locked last and its lock does not cover the items' triggers.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

const COUNTER = `INSERT INTO invoice_counters (organization_id, year, last_number) VALUES ($1, $2, 1)
  ON CONFLICT (organization_id, year) DO UPDATE SET last_number = invoice_counters.last_number + 1 RETURNING last_number`;
const INVOICE = `INSERT INTO invoices (id, organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code,
  exchange_rate, subtotal, tax_amount, discount_amount, total_amount, base_amount)
  VALUES ($6, $1, $2, $3, 'Bench customer', $4, $5, 'RSD', 1, 0, 0, 0, 0, 0) RETURNING *`;
const ITEMS = `INSERT INTO invoice_items (organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax)
  SELECT $1, $2, n, $3, 1, 10, 20, 10, 2 FROM generate_series(1, 3) AS n`;

app.post('/invoices', async (request, reply) => {
  const b = request.body as {
    org: string;
    customerId: string;
    invoiceDate: string;
    dueDate: string;
    items: Array<{ description: string }>;
  };
  const year = Number(b.invoiceDate.slice(0, 4));
  const id = randomUUID();
  const row = await transaction(pool, async (client) => {
    await client.query(ITEMS, [b.org, id, b.items[0].description]);
    const n = (await client.query(COUNTER, [b.org, year])).rows[0].last_number as number;
    const { rows } = await client.query(INVOICE, [
      b.org,
      `INV-${year}-${String(n).padStart(4, '0')}`,
      b.customerId,
      b.invoiceDate,
      b.dueDate,
      id,
    ]);
    return rows[0];
  });
  return reply.status(201).send(row);
});

await serve(app, pool);

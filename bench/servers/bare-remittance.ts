import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * Baseline for POST /transactions/remittance: bare Fastify and one pg pool running one
 * transaction of three statements on plain tables (no triggers, no RLS): the conditional debit
 * UPDATE and two INSERTs (the transaction and its payment initiation). No auth, no validation,
 * no recipient/rate/consent look-up, no bank adapter, no decimal arithmetic.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

await pool.query(`
  CREATE TABLE IF NOT EXISTS bare_accounts (id text PRIMARY KEY, balance numeric(16, 2) NOT NULL);
  CREATE TABLE IF NOT EXISTS bare_transactions (id bigserial PRIMARY KEY, account_id text NOT NULL, amount numeric(16, 2) NOT NULL,
    fee numeric(16, 2) NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS bare_payments (transaction_id bigint PRIMARY KEY, amount numeric(16, 2) NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  INSERT INTO bare_accounts SELECT 'acc' || n, 1000000000 FROM generate_series(0, 99) AS n ON CONFLICT DO NOTHING;`);

const DEBIT = 'UPDATE bare_accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2';
const INSERT_TX =
  'INSERT INTO bare_transactions (account_id, amount, fee) VALUES ($1, $2, $3) RETURNING id, created_at';
const INSERT_PAYMENT = 'INSERT INTO bare_payments (transaction_id, amount) VALUES ($1, $2)';

app.post('/remit', async (request, reply) => {
  const b = request.body as { account: string; amount: string; fee: string; total: string };
  const row = await transaction(pool, async (client) => {
    const debited = await client.query(DEBIT, [b.account, b.total]);
    if (debited.rowCount !== 1) throw new Error('insufficient');
    const { rows } = await client.query(INSERT_TX, [b.account, b.amount, b.fee]);
    await client.query(INSERT_PAYMENT, [rows[0].id, b.total]);
    return rows[0];
  });
  return reply.status(201).send(row);
});

await serve(app, pool);

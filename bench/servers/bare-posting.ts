import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * Baseline for POST /transactions: bare Fastify and one pg pool running one transaction with the
 * posting's INSERT, as the table owner: no auth, no validation, no RLS, no account check, no rate
 * lookup. Same database, same tables, same triggers (audit, foreign keys, and the moves that the
 * service's fold job adds to the running totals: migration 20261127000200).
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

const INSERT_POSTING = `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id,
  credit_account_id, amount, currency_code, exchange_rate, base_amount, reference_type, locked)
  VALUES ($1, $2, $3, $4, $5, $6, 'RSD', 1, $6, 'manual', false) RETURNING *`;

app.post('/post', async (request, reply) => {
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
    const { rows } = await client.query(INSERT_POSTING, [
      b.org,
      b.transactionDate,
      b.description,
      b.debitAccountId,
      b.creditAccountId,
      amount,
    ]);
    return rows[0];
  });
  return reply.status(201).send(row);
});

await serve(app, pool);

import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * Baseline for POST /transactions: bare Fastify and one pg pool running one transaction of three
 * INSERTs (the posting and the two running-total upserts), as the table owner: no auth, no
 * validation, no RLS, no rate lookup. Same database, same tables, same triggers.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

const INSERT_POSTING = `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id,
  credit_account_id, amount, currency_code, exchange_rate, base_amount, reference_type, locked)
  VALUES ($1, $2, $3, $4, $5, $6, 'RSD', 1, $6, 'manual', false) RETURNING *`;
const UPSERT_BALANCE = `INSERT INTO account_balances AS b (account_id, organization_id, debit_total, credit_total, posting_count)
  VALUES ($1, $2, $3, $4, 1)
  ON CONFLICT (account_id) DO UPDATE SET debit_total = b.debit_total + EXCLUDED.debit_total,
    credit_total = b.credit_total + EXCLUDED.credit_total, posting_count = b.posting_count + 1`;

app.post('/post', async (request, reply) => {
  const b = request.body as { org: string; transactionDate: string; description: string; debitAccountId: string; creditAccountId: string; amount: number };
  const amount = String(b.amount);
  const [first, second] = [b.debitAccountId, b.creditAccountId].sort();
  const row = await transaction(pool, async (client) => {
    const { rows } = await client.query(INSERT_POSTING, [b.org, b.transactionDate, b.description, b.debitAccountId, b.creditAccountId, amount]);
    for (const id of [first, second]) {
      await client.query(UPSERT_BALANCE, [id, b.org, id === b.debitAccountId ? amount : '0', id === b.creditAccountId ? amount : '0']);
    }
    return rows[0];
  });
  return reply.status(201).send(row);
});

await serve(app, pool);

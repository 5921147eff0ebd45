import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * Baselines for issue 10, bare Fastify and one pg pool as the table owner (no auth, no RLS, no
 * validation beyond splitting lines):
 *  POST /import?table=plain|app&account=<id>&org=<id>  the CSV body split on newlines and commas,
 *    inserted in batches of 5000 with unnest ... ON CONFLICT DO NOTHING in one transaction, into
 *    `bench_plain_lines` (same columns and unique key, no triggers, no RLS) or into the app's own
 *    `bank_transactions` (same schema: its triggers run);
 *  GET /lines?account=<id>&ledger=<id>  20 unreconciled lines and, per line, the postings of the
 *    ledger account with the same amount on the matching side (the +50 candidates).
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false, bodyLimit: 6 * 1024 * 1024 });
app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_req, body, done) => done(null, body));

await pool.query(`CREATE TABLE IF NOT EXISTS bench_plain_lines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(), organization_id uuid NOT NULL, bank_account_id uuid NOT NULL,
  transaction_date date NOT NULL, amount numeric(20, 4) NOT NULL, description text NOT NULL DEFAULT '', reference text NOT NULL DEFAULT '',
  occurrence integer NOT NULL DEFAULT 1, reconciled boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now())`);
await pool.query(`CREATE UNIQUE INDEX IF NOT EXISTS bench_plain_lines_key
  ON bench_plain_lines (bank_account_id, transaction_date, amount, description, reference, occurrence)`);

app.post('/import', async (request) => {
  const q = request.query as { table: 'plain' | 'app'; account: string; org: string };
  const table = q.table === 'app' ? 'bank_transactions' : 'bench_plain_lines';
  const rows = (request.body as string)
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(','));
  let inserted = 0;
  await transaction(pool, async (client) => {
    for (let i = 0; i < rows.length; i += 5000) {
      const b = rows.slice(i, i + 5000);
      const r = await client.query(
        `INSERT INTO ${table} (organization_id, bank_account_id, transaction_date, amount, description, reference, occurrence)
         SELECT $1, $2, x.d, x.a, x.t, x.r, 1 FROM unnest($3::date[], $4::numeric[], $5::text[], $6::text[]) AS x (d, a, t, r)
         ON CONFLICT DO NOTHING`,
        [q.org, q.account, b.map((r) => r[0]), b.map((r) => r[2]), b.map((r) => r[1]), b.map((r) => r[3] ?? '')],
      );
      inserted += r.rowCount ?? 0;
    }
  });
  return { imported: inserted };
});

app.get('/lines', async (request) => {
  const q = request.query as { account: string; ledger: string };
  const client = await pool.connect();
  try {
    const lines = await client.query(
      `SELECT * FROM bank_transactions WHERE bank_account_id = $1 AND NOT reconciled ORDER BY transaction_date DESC, created_at DESC, id DESC LIMIT 20`,
      [q.account],
    );
    const candidates = await client.query(
      // amount_key (amount as text, scale 4) is what the partial indexes cover since 20261123001100.
      `SELECT b.id AS bank_id, t.id, t.amount FROM unnest($1::uuid[], $2::numeric[]) AS b (id, amount)
       CROSS JOIN LATERAL (
         (SELECT id, amount FROM ledger_transactions t
          WHERE b.amount > 0 AND t.debit_account_id = $3 AND t.amount_key = abs(b.amount)::text AND NOT t.reconciled LIMIT 10)
         UNION ALL
         (SELECT id, amount FROM ledger_transactions t
          WHERE b.amount < 0 AND t.credit_account_id = $3 AND t.amount_key = abs(b.amount)::text AND NOT t.reconciled LIMIT 10)) t`,
      [lines.rows.map((l) => l.id), lines.rows.map((l) => l.amount), q.ledger],
    );
    return { data: lines.rows, suggestions: candidates.rows };
  } finally {
    client.release();
  }
});

await serve(app, pool);

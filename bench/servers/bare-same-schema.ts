import Fastify from 'fastify';
import pg from 'pg';
import { serve } from './serve.js';

/**
 * Same-schema baselines of issue 9 that bare-me, bare-posting and bare-invoice do not cover:
 * the invoice list page (newest 20 with `count(*) OVER ()`, the service's tables and indexes)
 * and the remittance GET /v1/auth/me (session by token hash, user, accounts with consents in one
 * query). Table owner, no row-level security, no auth work.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const remit = new pg.Pool({ connectionString: process.env.REMITTANCE_DATABASE_URL, max: 10 });
pg.types.setTypeParser(1700, (v) => v);
pg.types.setTypeParser(1082, (v) => v);
const app = Fastify({ logger: false });

const PAGE = `SELECT id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code, total_amount, created_at,
  status, count(*) OVER () AS total_count
  FROM invoices WHERE organization_id = $1 ORDER BY invoice_date DESC, invoice_number DESC LIMIT 20 OFFSET 0`;
const REMIT_ME = `SELECT u.id, u.email, u.first_name, u.last_name, u.role,
  (SELECT coalesce(json_agg(json_build_object('id', a.id, 'bankName', a.bank_name, 'accountNumber', a.account_number,
     'balance', a.balance::text, 'currency', a.currency, 'isPrimary', a.is_primary) ORDER BY a.is_primary DESC, a.created_at), '[]')
   FROM bank_accounts a JOIN ob_consents c ON c.id = a.consent_id WHERE a.user_id = u.id) AS accounts
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = $1 AND s.surface = 'api' AND s.revoked = 0 AND s.expires_at > now() AND u.deleted_at IS NULL`;

app.get('/invoices', async (request) => {
  const { org } = request.query as { org: string };
  const { rows } = await pool.query({ name: 'page', text: PAGE, values: [org] });
  return { data: rows, total: rows[0]?.total_count ?? 0 };
});

app.get('/remit-me', async (request) => {
  const { hash } = request.query as { hash: string };
  return (await remit.query({ name: 'me', text: REMIT_ME, values: [hash] })).rows[0];
});

await serve(app, pool);
process.on('SIGTERM', () => void remit.end());

import Fastify from 'fastify';
import pg from 'pg';
import { serve, transaction } from './serve.js';

/**
 * Baseline for GET /auth/me: bare Fastify, one pg pool, the same indexed SELECT the service runs
 * (user joined with organization and login session by primary keys), without RLS or auth work.
 * /naive-rls wraps it in BEGIN, set_config, SELECT, COMMIT: the textbook way to set RLS context.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const QUERY = `SELECT u.id, u.email, u.full_name, u.role, u.is_active, u.two_factor_enabled, u.last_login_at,
  o.name, o.country, o.base_currency, o.language, s.revoked_at
  FROM users u JOIN organizations o ON o.id = u.organization_id JOIN sessions s ON s.id = $2 AND s.user_id = u.id
  WHERE u.id = $1`;

app.get('/me', async (request) => {
  const { user, session } = request.query as { user: string; session: string };
  const { rows } = await pool.query(QUERY, [user, session]);
  return rows[0];
});

app.get('/naive-rls', async (request) => {
  const { user, session, org } = request.query as { user: string; session: string; org: string };
  return transaction(pool, async (client) => {
    await client.query(`SELECT set_config('app.org_id', $1, true)`, [org]);
    await client.query('SET LOCAL ROLE accounting_app');
    const { rows } = await client.query(QUERY, [user, session]);
    return rows[0];
  });
});

await serve(app, pool);

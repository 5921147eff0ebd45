import pg from 'pg';

/**
 * Plain tables for the physical baseline (bench/servers/bare-physical.ts) in their own database,
 * filled like the service's: `orgs` organizations with one user each and `invoices` invoices.
 * Returns the ids the load generator names in its requests.
 */
export async function setupPhysical(url: string, orgs: number, invoices: number) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`
      CREATE TABLE p_users (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), organization_id uuid NOT NULL, email text NOT NULL,
        full_name text NOT NULL, role text NOT NULL, is_active boolean NOT NULL DEFAULT true, last_login_at timestamptz);
      CREATE TABLE p_invoices (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), organization_id uuid NOT NULL, invoice_number text NOT NULL,
        customer_id uuid NOT NULL, customer_name text NOT NULL, invoice_date date NOT NULL, due_date date NOT NULL,
        currency_code text NOT NULL, total_amount numeric(20, 4) NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, invoice_number));
      CREATE INDEX p_invoices_org_date ON p_invoices (organization_id, invoice_date DESC, invoice_number DESC);
      CREATE TABLE p_items (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), invoice_id uuid NOT NULL, line_number int NOT NULL,
        description text NOT NULL, quantity numeric NOT NULL, unit_price numeric NOT NULL, tax_rate numeric NOT NULL);
      CREATE TABLE p_counters (organization_id uuid NOT NULL, year int NOT NULL, last_number int NOT NULL, PRIMARY KEY (organization_id, year));
      CREATE TABLE p_postings (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), organization_id uuid NOT NULL, transaction_date date NOT NULL,
        description text NOT NULL, debit_account_id uuid NOT NULL, credit_account_id uuid NOT NULL, amount numeric(20, 4) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE p_balances (account_id uuid PRIMARY KEY, debit_total numeric(20, 4) NOT NULL, credit_total numeric(20, 4) NOT NULL);`);
    const ids: Array<{ org: string; user: string; customer: string; debit: string; credit: string }> = [];
    for (let i = 0; i < orgs; i++) {
      const { rows } = await c.query(
        `WITH o AS (SELECT gen_random_uuid() AS org)
         INSERT INTO p_users (organization_id, email, full_name, role) SELECT org, 'owner' || $1 || '@example.test', 'Bench', 'owner' FROM o
         RETURNING organization_id AS org, id AS user, gen_random_uuid() AS customer, gen_random_uuid() AS debit, gen_random_uuid() AS credit`,
        [i],
      );
      const r = rows[0];
      await c.query(
        `INSERT INTO p_invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code, total_amount, status)
         SELECT $1, 'INV-2025-' || lpad(g::text, 4, '0'), $2, 'Kupac ' || g, DATE '2025-01-01' + g, DATE '2025-02-01' + g, 'RSD', 1000 + g, 'sent'
         FROM generate_series(1, $3) AS g`,
        [r.org, r.customer, invoices],
      );
      ids.push(r);
    }
    await c.query('ANALYZE');
    return ids;
  } finally {
    await c.end();
  }
}

/**
 * The remittance history's physical baseline (issue 31): a plain table of `rows` payments for each of
 * `users` users, with the index the page reads. Returns the user ids.
 */
export async function setupPhysicalHistory(url: string, users: number, rows: number): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`
      CREATE TABLE p_remit_tx (id text PRIMARY KEY, user_id text NOT NULL, type text NOT NULL, status text NOT NULL,
        send_amount numeric(16, 2) NOT NULL, send_currency text NOT NULL, recipient_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(), seq bigint GENERATED ALWAYS AS IDENTITY);
      CREATE INDEX p_remit_tx_user ON p_remit_tx (user_id, created_at DESC, seq DESC);`);
    const ids: string[] = [];
    for (let u = 0; u < users; u++) {
      const user = `pu_${u}`;
      await c.query(
        `INSERT INTO p_remit_tx (id, user_id, type, status, send_amount, send_currency, recipient_name, created_at)
         SELECT $1 || '_' || g, $1, 'remittance', 'completed', 100 + g, 'NOK', 'Marko Marković', now() - g * interval '1 hour'
         FROM generate_series(1, $2) AS g`,
        [user, rows],
      );
      ids.push(user);
    }
    await c.query('ANALYZE');
    return ids;
  } finally {
    await c.end();
  }
}

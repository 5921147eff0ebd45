import { sql } from 'kysely';
import pgLib from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOverdueJob } from '../src/modules/invoices/overdue-job.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, invoiceBody, patchStatus, postingsOf } from './invoices-fixtures.js';

const pg = !!process.env.TEST_DATABASE_URL;
if (!pg)
  console.warn(
    'invoices-concurrency: TEST_DATABASE_URL is not set; the concurrency suite needs real PostgreSQL and is skipped',
  );

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!pg)('invoice concurrency on PostgreSQL (A4, G12)', () => {
  let t: TestApp;
  let owner: Session;
  let customerId: string;

  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMITS: 'off' });
    owner = await registerOrg(t.app);
    customerId = (await createCustomer(t.app, owner)).id;
  });
  afterAll(async () => t?.close());

  it('gives 50 concurrent creations 50 distinct consecutive numbers', async () => {
    const body = invoiceBody(customerId, { invoiceDate: '2040-03-01', dueDate: '2040-04-01' });
    const results = await Promise.all(Array.from({ length: 50 }, () => createInvoice(t.app, owner, body)));
    const numbers = results.map((r) => r.invoiceNumber).sort();
    expect(new Set(numbers).size).toBe(50);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INV-2040-${String(i + 1).padStart(4, '0')}`));
  });

  it('leaves no gap and no duplicate when a creation is killed after taking its number, before its commit', async () => {
    // Creation A takes number 2 and inserts its invoice, then waits at COMMIT for the list-version
    // row (deferred trigger) that `blocker` holds; B and C wait for the counter row A holds. A's
    // server process is killed (pg_terminate_backend: its transaction is lost as in a crash), then
    // the blocker lets go: B and C get 2 and 3, and nothing of A is left.
    const year = 2041;
    const body = invoiceBody(customerId, { invoiceDate: `${year}-02-01`, dueDate: `${year}-03-01` });
    expect((await createInvoice(t.app, owner, body)).invoiceNumber).toBe(`INV-${year}-0001`);
    const blocker = new pgLib.Client({ connectionString: t.t.url });
    const watcher = new pgLib.Client({ connectionString: t.t.url });
    await blocker.connect();
    await watcher.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM invoice_list_versions WHERE organization_id = $1 FOR UPDATE', [owner.orgId]);
      const blockerPid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const send = () => t.app.inject(authed(owner.token, { method: 'POST', url: '/api/v1/invoices', payload: body }));
      const a = send();
      // A holds the counter once it waits for the blocker.
      const aPid = await waitFor(watcher, 'SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [
        blockerPid,
      ]);
      const others = [send(), send()];
      await waitFor(
        watcher,
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid)) HAVING count(*) = 2',
        [aPid],
      );
      await watcher.query('SELECT pg_terminate_backend($1)', [aPid]);
      expect((await a).statusCode).not.toBe(201);
      await blocker.query('COMMIT');
      const done = await Promise.all(others);
      expect(done.map((r) => r.statusCode)).toEqual([201, 201]);
      expect((await createInvoice(t.app, owner, body)).invoiceNumber).toBe(`INV-${year}-0004`);
      const { rows } = await watcher.query(
        `SELECT invoice_number FROM invoices WHERE organization_id = $1 AND invoice_number LIKE $2 ORDER BY invoice_number`,
        [owner.orgId, `INV-${year}-%`],
      );
      expect(rows.map((r) => r.invoice_number)).toEqual([1, 2, 3, 4].map((n) => `INV-${year}-000${n}`));
      // Nothing of the killed creation: every item and audit row belongs to one of the four invoices.
      const orphans = await watcher.query(
        `SELECT (SELECT count(*)::int FROM invoice_items i WHERE NOT EXISTS (SELECT 1 FROM invoices v WHERE v.id = i.invoice_id)) AS items,
                (SELECT count(*)::int FROM logged_actions l WHERE l.table_name = 'invoices' AND l.organization_id = $1
                   AND NOT EXISTS (SELECT 1 FROM invoices v WHERE v.id::text = l.record_id)) AS audit,
                (SELECT last_number FROM invoice_counters WHERE organization_id = $1 AND year = $2) AS last`,
        [owner.orgId, year],
      );
      expect(orphans.rows[0]).toEqual({ items: 0, audit: 0, last: 4 });
    } finally {
      await blocker.end();
      await watcher.end();
    }
  });

  it('waits for a locked customer before taking a number: other creations keep numbering meanwhile', async () => {
    // The customer's row is held (FOR UPDATE, as a change of the contact holds it). Creation A for
    // that customer waits for it before the numbered insert, so it holds no counter row: creation B
    // for another customer is numbered and committed while A waits, and A takes the next number.
    const year = 2042;
    const held = (await createCustomer(t.app, owner, { name: 'Zaključan kupac' })).id;
    const blocker = new pgLib.Client({ connectionString: t.t.url });
    const watcher = new pgLib.Client({ connectionString: t.t.url });
    await blocker.connect();
    await watcher.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM contacts WHERE id = $1 FOR UPDATE', [held]);
      const blockerPid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const dates = { invoiceDate: `${year}-05-01`, dueDate: `${year}-06-01` };
      const a = createInvoice(t.app, owner, invoiceBody(held, dates));
      const aPid = await waitFor(watcher, 'SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [
        blockerPid,
      ]);
      // B either commits, or is seen waiting for A (the counter row A would hold): the first that happens.
      let finished = false;
      const b = createInvoice(t.app, owner, invoiceBody(customerId, dates)).finally(() => {
        finished = true;
      });
      for (let i = 0; i < 500 && !finished; i++) {
        const waiting = await watcher.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [
          aPid,
        ]);
        expect(waiting.rows).toEqual([]);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await b).invoiceNumber).toBe(`INV-${year}-0001`);
      await blocker.query('COMMIT');
      expect((await a).invoiceNumber).toBe(`INV-${year}-0002`);
    } finally {
      await blocker.end();
      await watcher.end();
    }
  });

  it("writes the items (their triggers) before taking a number: a creation held in the items' trigger holds no counter", async () => {
    // A probe trigger on the items (added here, dropped after) waits for an advisory lock the
    // blocker holds when an item's description is 'hold'. Creation A waits there, at the end of its
    // items statement. Were the items written with or after the numbered invoice, A would hold the
    // counter row while it waits and B would queue behind it; B is numbered and committed instead.
    const year = 2043;
    const dates = { invoiceDate: `${year}-05-01`, dueDate: `${year}-06-01` };
    const blocker = new pgLib.Client({ connectionString: t.t.url });
    const watcher = new pgLib.Client({ connectionString: t.t.url });
    await blocker.connect();
    await watcher.connect();
    await watcher.query(`CREATE FUNCTION probe_hold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM probe_rows WHERE description = 'hold') THEN PERFORM pg_advisory_xact_lock(4243); END IF;
        RETURN NULL;
      END $$`);
    await watcher.query(`CREATE TRIGGER probe_hold AFTER INSERT ON invoice_items REFERENCING NEW TABLE AS probe_rows
      FOR EACH STATEMENT EXECUTE FUNCTION probe_hold()`);
    try {
      await blocker.query('SELECT pg_advisory_lock(4243)');
      const blockerPid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const held = invoiceBody(customerId, {
        ...dates,
        items: [{ description: 'hold', quantity: 1, unitPrice: 10, taxRate: 20 }],
      });
      const a = createInvoice(t.app, owner, held);
      const aPid = await waitFor(watcher, 'SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [
        blockerPid,
      ]);
      const b = await Promise.race([
        createInvoice(t.app, owner, invoiceBody(customerId, dates)),
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error('B waited 10 s: A held the counter row while its items were written')),
            10_000,
          ),
        ),
      ]);
      expect(b.invoiceNumber).toBe(`INV-${year}-0001`);
      // A is still waiting in its items' trigger, and holds nothing B needed.
      const still = await watcher.query(
        'SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND $2 = ANY (pg_blocking_pids(pid))',
        [aPid, blockerPid],
      );
      expect(still.rows).toHaveLength(1);
      await blocker.query('SELECT pg_advisory_unlock(4243)');
      const created = await a;
      expect(created.invoiceNumber).toBe(`INV-${year}-0002`);
      expect(created.items.map((i: { description: string }) => i.description)).toEqual(['hold']);
    } finally {
      await blocker.end(); // lets A go, if a failure left it waiting
      await watcher.query('DROP TRIGGER probe_hold ON invoice_items; DROP FUNCTION probe_hold()');
      await watcher.end();
    }
  });

  it('lets only one of two concurrent mark-paid requests through, with one payment posting', async () => {
    const inv = await createInvoice(t.app, owner, invoiceBody(customerId, { invoiceDate: day(0), dueDate: day(30) }));
    await patchStatus(t.app, owner, inv.id, { action: 'send' });
    const [a, b] = await Promise.all(
      [0, 1].map(() => patchStatus(t.app, owner, inv.id, { action: 'mark-paid', paidAt: day(0) })),
    );
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const payments = (await postingsOf(t.t.db, owner.orgId, inv.id)).filter((p) => p.reference_type === 'payment');
    expect(payments).toHaveLength(1);
  });

  it('marks each overdue invoice once when several instances run the job at the same time', async () => {
    const invs = await Promise.all(
      Array.from({ length: 5 }, () =>
        createInvoice(t.app, owner, invoiceBody(customerId, { invoiceDate: day(-30), dueDate: day(-1) })),
      ),
    );
    for (const inv of invs) await patchStatus(t.app, owner, inv.id, { action: 'send' });
    const counts = await Promise.all([runOverdueJob(t.t.db), runOverdueJob(t.t.db), runOverdueJob(t.t.db)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    const audit = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM logged_actions
      WHERE table_name = 'invoices' AND action = 'UPDATE' AND new_values ->> 'status' = 'overdue'`.execute(
      t.t.db.system,
    );
    expect(Number(audit.rows[0].n)).toBe(5);
  });
});

/** Polls `query` until it answers a row; its first column. */
async function waitFor(c: pgLib.Client, query: string, params: unknown[]): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await c.query(query, params);
    if (rows.length) return Object.values(rows[0])[0] as number;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never answered: ${query}`);
}

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOverdueJob } from '../src/modules/invoices/overdue-job.js';
import { buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
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

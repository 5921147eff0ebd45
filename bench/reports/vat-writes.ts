import type pg from 'pg';
import { percentile } from '../lib.js';

/**
 * Write cost of the VAT report's precomputed rows (migration 20261123007000): what the triggers add
 * to the statement that makes a document reportable or changes its status (and to the lines'
 * statement of a draft), on the loaded book (days of about 30 invoice rows and 6 expense rows). For
 * each case the application's statement (the one the trigger fires on) is timed with the trigger
 * and without it, in
 * alternating batches over the same documents: the trigger is switched (ALTER TABLE ... ENABLE /
 * DISABLE TRIGGER, committed) before each batch, whose first RUN_WARMUP runs are not counted (the
 * switch invalidates cached plans, the trigger functions' included); each run is one transaction as
 * the table owner: the statement and SET CONSTRAINTS ALL IMMEDIATE (which runs now the deferred
 * recomputation of the days that COMMIT would run), timed together, then ROLLBACK, so the book is
 * left as it was. The trigger is enabled again at the end, whatever happens. The rest of the request
 * (lock, postings, COMMIT, the PDF and mail of a send) is the same with and without the trigger and
 * is not in these figures.
 */
export interface VatWriteCase {
  name: string;
  documents: number;
  without: { p50: number; mean: number };
  with: { p50: number; mean: number };
}

export interface VatWriteCost {
  runs: number;
  cases: VatWriteCase[];
}

const CASES = [
  {
    // What creating or editing an invoice (always a draft) pays: the lines' statement trigger,
    // which finds the invoice not reportable.
    name: 'write the lines of a draft invoice (2 lines)',
    table: 'invoice_items',
    trigger: 'vat_report_rows_insert',
    documents: `SELECT i.id FROM invoices i WHERE i.organization_id = $1 AND i.status = 'draft' ORDER BY i.invoice_date DESC LIMIT 50`,
    update: `INSERT INTO invoice_items (organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax)
             SELECT organization_id, id, 100 + n, 'bench', 1, 10, 20, 10, 2 FROM invoices, generate_series(1, 2) AS n WHERE id = $1`,
    rows: 2,
  },
  {
    name: 'send an invoice (draft -> sent)',
    table: 'invoices',
    trigger: 'vat_report_rows_update',
    rows: 1,
    documents: `SELECT i.id FROM invoices i WHERE i.organization_id = $1 AND i.status = 'draft'
                AND EXISTS (SELECT 1 FROM invoice_items it WHERE it.invoice_id = i.id) ORDER BY i.invoice_date DESC LIMIT 50`,
    update: `UPDATE invoices SET status = 'sent', sent_at = now(), updated_at = now() WHERE id = $1`,
  },
  {
    name: 'mark an invoice paid (sent -> paid)',
    table: 'invoices',
    trigger: 'vat_report_rows_update',
    rows: 1,
    documents: `SELECT id FROM invoices WHERE organization_id = $1 AND status IN ('sent', 'viewed', 'overdue') ORDER BY invoice_date DESC LIMIT 50`,
    update: `UPDATE invoices SET status = 'paid', paid_at = invoice_date, updated_at = now() WHERE id = $1`,
  },
  {
    name: 'cancel a paid invoice (paid -> cancelled)',
    table: 'invoices',
    trigger: 'vat_report_rows_update',
    rows: 1,
    documents: `SELECT id FROM invoices WHERE organization_id = $1 AND status = 'paid' ORDER BY invoice_date DESC LIMIT 50`,
    update: `UPDATE invoices SET status = 'cancelled', cancelled_at = now(), updated_at = now() WHERE id = $1`,
  },
  {
    name: 'approve an expense with VAT (pending -> approved)',
    table: 'expenses',
    trigger: 'vat_report_rows_update',
    rows: 1,
    documents: `SELECT id FROM expenses WHERE organization_id = $1 AND status = 'pending' AND tax_amount > 0 ORDER BY expense_date DESC LIMIT 50`,
    update: `UPDATE expenses SET status = 'approved', approved_at = now(), updated_at = now() WHERE id = $1`,
  },
] as const;

const BATCH = 10;
const RUN_WARMUP = 2;

export async function measureVatWriteCost(admin: pg.Client, orgId: string, runs: number): Promise<VatWriteCost> {
  const cases: VatWriteCase[] = [];
  try {
    for (const c of CASES) {
      const ids = (await admin.query<{ id: string }>(c.documents, [orgId])).rows.map((r) => r.id);
      if (ids.length === 0) throw new Error(`${c.name}: no documents`);
      const times = { with: [] as number[], without: [] as number[] };
      let n = 0;
      for (let batch = 0; times.with.length < runs || times.without.length < runs; batch++) {
        const variant = batch % 2 === 0 ? 'with' : 'without';
        await admin.query(`ALTER TABLE ${c.table} ${variant === 'with' ? 'ENABLE' : 'DISABLE'} TRIGGER ${c.trigger}`);
        for (let i = 0; i < RUN_WARMUP + BATCH; i++) {
          await admin.query('BEGIN');
          try {
            const t0 = performance.now();
            const r = await admin.query(c.update, [ids[n++ % ids.length]]);
            await admin.query('SET CONSTRAINTS ALL IMMEDIATE');
            if (i >= RUN_WARMUP) times[variant].push(performance.now() - t0);
            if (r.rowCount !== c.rows) throw new Error(`${c.name}: wrote ${r.rowCount} rows`);
          } finally {
            await admin.query('ROLLBACK');
          }
        }
      }
      const stats = (ts: number[]) => ({ p50: percentile(ts, 50), mean: ts.reduce((a, b) => a + b, 0) / ts.length });
      cases.push({ name: c.name, documents: ids.length, without: stats(times.without), with: stats(times.with) });
    }
  } finally {
    for (const c of CASES) await admin.query(`ALTER TABLE ${c.table} ENABLE TRIGGER ${c.trigger}`);
  }
  return { runs, cases };
}

import { formatAmount } from '@app/shared/money';
import fastJson from 'fast-json-stringify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyDecimals } from '../src/modules/currencies/currencies.js';
import { todayIso } from '../src/modules/invoices/invoice-status.js';
import { INVOICE_SORTS, InvoiceList } from '../src/modules/invoices/invoices.schemas.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, invoiceBody, patchStatus } from './invoices-fixtures.js';

// The list page's JSON text is built by PostgreSQL (invoices.repository listInvoicesJson) and sent
// as it is. These tests hold it to what the response schema's serializer makes of the rows the
// old way (objects mapped in Node, amounts through formatAmount), byte for byte.

let t: TestApp;
let owner: Session;
let customerA: string;
let customerB: string;
const serialize = fastJson(InvoiceList as object);
const TODAY = todayIso();

// Names the JSON text must escape exactly as JSON.stringify does.
const HOSTILE = [
  'Kupac "Navodnik" \\ kosa crta / i </script>',
  'Tab\tnewline\ncarriage\rbackspace\bform\ffeed',
  'Kontrola \u0001 \u001f \u007f kraj',
  'Đurđević 😀 𝔘 \u2028 \u2029 ǅ',
];

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  owner = await registerOrg(t.app, { baseCurrency: 'RSD', language: 'sr' });
  customerA = (await createCustomer(t.app, owner, { name: 'Kupac A' })).id;
  customerB = (await createCustomer(t.app, owner, { name: 'Kupac B' })).id;
  const made: string[] = [];
  for (let i = 0; i < 9; i++) {
    const month = String((i % 9) + 1).padStart(2, '0');
    const inv = await createInvoice(
      t.app,
      owner,
      invoiceBody(i % 2 ? customerA : customerB, {
        invoiceDate: `2024-${month}-1${i % 3}`,
        dueDate: `2024-${month}-2${i % 3}`,
      }),
    );
    made.push(inv.id);
  }
  // Sent and past due: the list shows them overdue; one stays sent (not due yet).
  for (const id of made.slice(0, 3))
    expect((await patchStatus(t.app, owner, id, { action: 'send' })).statusCode).toBe(200);
  const future = await createInvoice(
    t.app,
    owner,
    invoiceBody(customerA, { invoiceDate: TODAY, dueDate: '2099-01-01' }),
  );
  expect((await patchStatus(t.app, owner, future.id, { action: 'send' })).statusCode).toBe(200);
  // Rounding boundaries of A3, another currency and hostile names, written past the API.
  const db = t.t.db.system;
  const totals = ['10.0050', '10.0049', '0.0000', '999999999.9950'];
  for (const [i, id] of made.slice(3, 7).entries()) {
    await sql`UPDATE invoices SET total_amount = ${totals[i]}::numeric, customer_name = ${HOSTILE[i]}, currency_code = ${i % 2 ? 'EUR' : 'RSD'} WHERE id = ${id}`.execute(
      db,
    );
  }
  // Issue 28: an SEF document (with a status that needs escaping: SEF's own text) and a Croatian
  // fiscalization record on some invoices, and a credit note's document that the list leaves out.
  const sefDoc = (invoiceId: string, kind: string, status: string) =>
    sql`INSERT INTO sef_documents (organization_id, invoice_id, kind, request_id, status)
      VALUES (${owner.orgId}, ${invoiceId}, ${kind}, gen_random_uuid(), ${status})`.execute(db);
  await sefDoc(made[0], 'invoice', 'Sent');
  await sefDoc(made[1], 'invoice', 'Odbijeno "x" \\ \n');
  await sefDoc(made[1], 'credit-note', 'Pending');
  await sefDoc(made[2], 'credit-note', 'Sent');
  for (const [id, status] of [
    [made[2], 'Fiscalized'],
    [made[4], 'Failed'],
  ])
    await sql`INSERT INTO fiscal_records (organization_id, invoice_id, message, request_id, status)
      VALUES (${owner.orgId}, ${id}, 'eracun', gen_random_uuid(), ${status})`.execute(db);
  await sql`INSERT INTO fiscal_records (organization_id, invoice_id, message, request_id, status)
      VALUES (${owner.orgId}, ${made[4]}, 'payment', gen_random_uuid(), 'Pending')`.execute(db);
  // The delivery through the HR intermediary, and a credit note's that the list leaves out.
  const viaIntermediary = (invoiceId: string, kind: string, status: string) =>
    sql`INSERT INTO intermediary_documents (organization_id, invoice_id, kind, idempotency_key, document_number, send_year, status)
      VALUES (${owner.orgId}, ${invoiceId}, ${kind}, gen_random_uuid(), 'R-1', 2026, ${status})`.execute(db);
  await viaIntermediary(made[2], 'invoice', 'Delivered');
  await viaIntermediary(made[3], 'credit-note', 'Sent');
});
afterAll(async () => t?.close());

interface Row {
  id: string;
  invoice_number: string;
  customer_id: string;
  customer_name: string;
  invoice_date: string;
  due_date: string;
  currency_code: string;
  total_amount: string;
  status: string;
  created_at: Date;
  sef_status: string | null;
  fiscal_status: string | null;
  intermediary_status: string | null;
}

const SORT_KEY: Record<(typeof INVOICE_SORTS)[number], (r: ReturnType<typeof present>) => string | number> = {
  invoiceDate: (r) => r.invoiceDate,
  dueDate: (r) => r.dueDate,
  invoiceNumber: (r) => r.invoiceNumber,
  totalAmount: (r) => Number(r.totalAmountRaw),
  createdAt: (r) => r.createdAt,
  status: (r) => r.status,
};

function present(r: Row) {
  const overdue = (r.status === 'sent' || r.status === 'viewed') && r.due_date < TODAY;
  return {
    id: r.id,
    invoiceNumber: r.invoice_number,
    customerId: r.customer_id,
    customerName: r.customer_name,
    invoiceDate: r.invoice_date,
    dueDate: r.due_date,
    currencyCode: r.currency_code,
    totalAmount: formatAmount(r.total_amount, currencyDecimals(r.currency_code)),
    totalAmountRaw: r.total_amount,
    status: overdue ? 'overdue' : r.status,
    createdAt: r.created_at.toISOString(),
    sef: r.sef_status === null ? null : { status: r.sef_status },
    fiscalization: r.fiscal_status === null ? null : { status: r.fiscal_status },
    intermediary: r.intermediary_status === null ? null : { status: r.intermediary_status },
  };
}

/** What the list answered before its text came from PostgreSQL: rows mapped in Node, serialised by the schema. */
async function expectedText(query: {
  sort: (typeof INVOICE_SORTS)[number];
  order: 'asc' | 'desc';
  perPage: number;
  page: number;
  customerId?: string;
  status?: string;
  search?: string;
}) {
  const { rows } =
    await sql<Row>`SELECT id, invoice_number, customer_id, customer_name, invoice_date, due_date, currency_code, total_amount, status, created_at,
      (SELECT status FROM sef_documents s WHERE s.invoice_id = i.id AND s.kind = 'invoice') AS sef_status,
      (SELECT status FROM fiscal_records f WHERE f.invoice_id = i.id AND f.message = 'eracun') AS fiscal_status,
      (SELECT status FROM intermediary_documents x WHERE x.invoice_id = i.id AND x.kind = 'invoice') AS intermediary_status
    FROM invoices i WHERE organization_id = ${owner.orgId}`.execute(t.t.db.system);
  const key = SORT_KEY[query.sort];
  const dir = query.order === 'asc' ? 1 : -1;
  const all = rows
    .map(present)
    .filter(
      (r) =>
        (!query.customerId || r.customerId === query.customerId) &&
        (!query.status || r.status === query.status) &&
        (!query.search ||
          [r.invoiceNumber, r.customerName].some((v) => v.toLowerCase().includes(query.search!.toLowerCase()))),
    )
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) return (ka < kb ? -1 : 1) * dir;
      return (a.invoiceNumber < b.invoiceNumber ? -1 : 1) * dir;
    });
  const data = all
    .slice((query.page - 1) * query.perPage, query.page * query.perPage)
    .map(({ totalAmountRaw: _, ...item }) => item);
  return serialize({
    data,
    meta: {
      total: all.length,
      page: query.page,
      perPage: query.perPage,
      totalPages: Math.ceil(all.length / query.perPage),
    },
  });
}

async function listText(qs: string) {
  const res = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices?${qs}` }));
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.body;
}

describe('the invoice list as JSON text', () => {
  it('is byte for byte what the schema serializer makes of the rows, for every sort and order', async () => {
    for (const sort of INVOICE_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const body = await listText(`sort=${sort}&order=${order}&perPage=4&page=2`);
        expect(body, `${sort} ${order}`).toBe(await expectedText({ sort, order, perPage: 4, page: 2 }));
      }
    }
  });

  it('escapes names as JSON.stringify does and rounds totals half-up to the currency decimals', async () => {
    const body = await listText('perPage=100');
    expect(body).toBe(await expectedText({ sort: 'invoiceDate', order: 'desc', perPage: 100, page: 1 }));
    const names = (JSON.parse(body).data as Array<{ customerName: string }>).map((i) => i.customerName);
    for (const name of HOSTILE) expect(names).toContain(name);
    const totals = (JSON.parse(body).data as Array<{ totalAmount: string }>).map((i) => i.totalAmount);
    expect(totals).toEqual(expect.arrayContaining(['10.01', '10.00', '0.00', '1000000000.00']));
    const states = (JSON.parse(body).data as Array<{ sef: unknown; fiscalization: unknown }>).map((i) => [
      i.sef,
      i.fiscalization,
    ]);
    expect(states).toEqual(
      expect.arrayContaining([
        [{ status: 'Sent' }, null],
        [{ status: 'Odbijeno "x" \\ \n' }, null],
        [null, { status: 'Fiscalized' }],
        [null, { status: 'Failed' }],
        [null, null],
      ]),
    );
  });

  it('answers filters, the effective overdue status and a page past the end with its total', async () => {
    expect(await listText(`customerId=${customerA}&sort=dueDate&order=asc`)).toBe(
      await expectedText({ sort: 'dueDate', order: 'asc', perPage: 20, page: 1, customerId: customerA }),
    );
    const overdue = await listText('status=overdue');
    expect(overdue).toBe(
      await expectedText({ sort: 'invoiceDate', order: 'desc', perPage: 20, page: 1, status: 'overdue' }),
    );
    expect(JSON.parse(overdue).meta.total).toBe(3);
    const sent = JSON.parse(await listText('status=sent'));
    expect(sent.data.map((i: { dueDate: string }) => i.dueDate)).toEqual(['2099-01-01']);
    expect(JSON.parse(await listText('perPage=5&page=9'))).toEqual({
      data: [],
      meta: { total: 10, page: 9, perPage: 5, totalPages: 2 },
    });
  });

  it('finds part of the number or of the customer name in any case; %, _ and \\ are only characters', async () => {
    const text = (search: string, more = '') => listText(`search=${encodeURIComponent(search)}&perPage=100${more}`);
    const expected = (search: string, extra: { customerId?: string } = {}) =>
      expectedText({ sort: 'invoiceDate', order: 'desc', perPage: 100, page: 1, search, ...extra });
    const byName = await text('kUPAC a');
    expect(byName).toBe(await expected('kUPAC a'));
    expect(JSON.parse(byName).meta.total).toBeGreaterThan(0);
    const numbers = (JSON.parse(await listText('perPage=100')).data as Array<{ invoiceNumber: string }>).map(
      (i) => i.invoiceNumber,
    );
    const one = numbers[3]!;
    const byNumber = JSON.parse(await text(one.slice(-6).toLowerCase()));
    expect(byNumber.data.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual([one]);
    // Characters LIKE would take as wildcards or escapes match only themselves.
    expect(
      JSON.parse(await text('"Navodnik" \\ kosa')).data.map((i: { customerName: string }) => i.customerName),
    ).toEqual([HOSTILE[0]]);
    for (const wild of ['%', '_', '\\', 'INV%2024', 'Kupac_A']) expect(await text(wild)).toBe(await expected(wild));
    expect(JSON.parse(await text('%')).meta.total).toBe(0);
    // Blank is no filter; with another filter both apply.
    expect(await text('   ')).toBe(await listText('perPage=100'));
    expect(await text('kupac', `&customerId=${customerB}`)).toBe(await expected('kupac', { customerId: customerB }));
    expect(JSON.parse(await text('nothing like it')).meta.total).toBe(0);
  });

  it('lists nothing of another organization', async () => {
    const other = await registerOrg(t.app);
    const res = await t.app.inject(authed(other.token, { method: 'GET', url: '/api/v1/invoices' }));
    expect(res.body).toBe('{"data":[],"meta":{"total":0,"page":1,"perPage":20,"totalPages":0}}');
  });
});

describe('kept list pages (InvoiceListCache; version counter of migration 20261125000100)', () => {
  const db = () => t.t.db.system;
  const versionOf = async (orgId: string) =>
    Number(
      (
        await sql<{
          v: string;
        }>`SELECT version::text AS v FROM invoice_list_versions WHERE organization_id = ${orgId}`.execute(db())
      ).rows[0]?.v ?? 0,
    );
  const QUERY = { sort: 'invoiceDate', order: 'desc', perPage: 3, page: 1 } as const;

  it('sends the kept page while the version is unchanged, and computes it again once the version moves', async () => {
    const first = await listText('perPage=3');
    expect(first).toBe(await expectedText(QUERY));
    const newest = JSON.parse(first).data[0].id as string;
    // A change the counter does not hear of (its trigger off): the kept page is what is sent.
    await sql`ALTER TABLE invoices DISABLE TRIGGER invoice_list_version`.execute(db());
    await sql`UPDATE invoices SET customer_name = 'Promijenjeno mimo brojača' WHERE id = ${newest}`.execute(db());
    await sql`ALTER TABLE invoices ENABLE TRIGGER invoice_list_version`.execute(db());
    expect(await listText('perPage=3')).toBe(first);
    // The counter moves: the next request computes the page again.
    await sql`INSERT INTO invoice_list_versions AS v (organization_id, version) VALUES (${owner.orgId}, 1)
      ON CONFLICT (organization_id) DO UPDATE SET version = v.version + 1`.execute(db());
    const again = await listText('perPage=3');
    expect(again).toBe(await expectedText(QUERY));
    expect(JSON.parse(again).data[0].customerName).toBe('Promijenjeno mimo brojača');
  });

  it('sees every write at once, through the API or by another client, and a rolled-back one moves nothing', async () => {
    await listText('perPage=3'); // kept
    const before = await versionOf(owner.orgId);
    const made = await createInvoice(
      t.app,
      owner,
      invoiceBody(customerB, { invoiceDate: '2099-02-01', dueDate: '2099-03-01' }),
    );
    expect(await versionOf(owner.orgId)).toBeGreaterThan(before);
    const afterCreate = await listText('perPage=3');
    expect(JSON.parse(afterCreate).data[0].id).toBe(made.id);
    expect(afterCreate).toBe(await expectedText(QUERY));

    expect((await patchStatus(t.app, owner, made.id, { action: 'send' })).statusCode).toBe(200);
    expect(JSON.parse(await listText('perPage=3')).data[0].status).toBe('sent');

    // Another instance (or a job) writing: the trigger moves the counter at its commit.
    await sql`UPDATE invoices SET customer_name = 'Drugi klijent' WHERE id = ${made.id}`.execute(db());
    expect(JSON.parse(await listText('perPage=3')).data[0].customerName).toBe('Drugi klijent');

    const settled = await versionOf(owner.orgId);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await sql`UPDATE invoices SET customer_name = 'Nikad' WHERE id = ${made.id}`.execute(trx);
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await versionOf(owner.orgId)).toBe(settled);
    expect(await listText('perPage=3')).toBe(await expectedText(QUERY));
  });

  it('sees a change of SEF or fiscalization status (their triggers raise the version), not a retry of the same status', async () => {
    const first = await listText('perPage=3');
    const newest = JSON.parse(first).data[0].id as string;
    const before = await versionOf(owner.orgId);
    await sql`INSERT INTO fiscal_records (organization_id, invoice_id, message, request_id, status)
      VALUES (${owner.orgId}, ${newest}, 'eracun', gen_random_uuid(), 'Pending')`.execute(db());
    expect(await versionOf(owner.orgId)).toBe(before + 1);
    expect(JSON.parse(await listText('perPage=3')).data[0].fiscalization).toEqual({ status: 'Pending' });
    // A retry (attempts, lease, error text) keeps the status: the kept page stays valid.
    await sql`UPDATE fiscal_records SET attempts = attempts + 1, last_error = 'timeout' WHERE invoice_id = ${newest}`.execute(
      db(),
    );
    expect(await versionOf(owner.orgId)).toBe(before + 1);
    await sql`UPDATE fiscal_records SET status = 'Fiscalized' WHERE invoice_id = ${newest}`.execute(db());
    expect(JSON.parse(await listText('perPage=3')).data[0].fiscalization).toEqual({ status: 'Fiscalized' });
    await sql`INSERT INTO sef_documents (organization_id, invoice_id, kind, request_id, status)
      VALUES (${owner.orgId}, ${newest}, 'invoice', gen_random_uuid(), 'Pending')`.execute(db());
    expect(JSON.parse(await listText('perPage=3')).data[0].sef).toEqual({ status: 'Pending' });
    await sql`UPDATE sef_documents SET status = 'Approved' WHERE invoice_id = ${newest}`.execute(db());
    const last = await listText('perPage=3');
    expect(JSON.parse(last).data[0].sef).toEqual({ status: 'Approved' });
    expect(last).toBe(await expectedText(QUERY));
    await sql`DELETE FROM sef_documents WHERE invoice_id = ${newest}`.execute(db());
    await sql`DELETE FROM fiscal_records WHERE invoice_id = ${newest}`.execute(db());
    expect(JSON.parse(await listText('perPage=3')).data[0]).toMatchObject({ sef: null, fiscalization: null });
    // The intermediary's delivery status in the same way.
    const v = await versionOf(owner.orgId);
    await sql`INSERT INTO intermediary_documents (organization_id, invoice_id, kind, idempotency_key, document_number, send_year, status)
      VALUES (${owner.orgId}, ${newest}, 'invoice', gen_random_uuid(), 'R-9', 2026, 'Pending')`.execute(db());
    expect(await versionOf(owner.orgId)).toBe(v + 1);
    expect(JSON.parse(await listText('perPage=3')).data[0].intermediary).toEqual({ status: 'Pending' });
    await sql`UPDATE intermediary_documents SET attempts = attempts + 1, last_error = 'timeout' WHERE invoice_id = ${newest}`.execute(
      db(),
    );
    expect(await versionOf(owner.orgId)).toBe(v + 1);
    await sql`UPDATE intermediary_documents SET status = 'Accepted' WHERE invoice_id = ${newest}`.execute(db());
    expect(JSON.parse(await listText('perPage=3')).data[0].intermediary).toEqual({ status: 'Accepted' });
    expect(await listText('perPage=3')).toBe(await expectedText(QUERY));
    await sql`DELETE FROM intermediary_documents WHERE invoice_id = ${newest}`.execute(db());
    expect(JSON.parse(await listText('perPage=3')).data[0].intermediary).toBeNull();
  });

  it("keeps one organization's pages apart from another's: each sees only its own invoices", async () => {
    const other = await registerOrg(t.app, { baseCurrency: 'RSD' });
    const otherCustomer = (await createCustomer(t.app, other, { name: 'Tuđi kupac' })).id;
    await createInvoice(t.app, other, invoiceBody(otherCustomer));
    const mine = await listText('perPage=3');
    const theirs = await t.app.inject(authed(other.token, { method: 'GET', url: '/api/v1/invoices?perPage=3' }));
    expect(JSON.parse(theirs.body).data.map((i: { customerName: string }) => i.customerName)).toEqual(['Tuđi kupac']);
    expect(mine).toBe(await expectedText(QUERY));
    expect(await versionOf(other.orgId)).toBeGreaterThan(0);
  });
});

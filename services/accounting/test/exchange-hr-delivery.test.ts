import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../src/infra/storage/storage.js';
import { localizeDetail } from '../src/lib/detail-messages.js';
import { SecretBox } from '../src/lib/secret-box.js';
import {
  checkIntermediaryStatuses,
  deliverIntermediaryDue,
  runIntermediaryDelivery,
} from '../src/modules/exchange-hr/delivery.service.js';
import { runIntermediaryIntake } from '../src/modules/exchange-hr/exchange.service.js';
import type { InvoiceDeps } from '../src/modules/invoices/invoice-transitions.js';
import type { SefDeps } from '../src/modules/sef/sef.service.js';
import { buyer, getUbl, seller, sentInvoice } from './einvoice-fixtures.js';
import { EINVOICE_DIR } from './einvoice-validation.js';
import { addMember, authed, buildTestApp, type Session, type TestApp } from './helpers.js';
import { HrFiscalMock, p12Of, testCertificate } from './hr-fiscal-mock.js';
import { MojERacunMock } from './moj-eracun-mock.js';

// Croatian e-invoices sent through the information intermediary (issue 28), against the local
// Moj-eRačun (test/moj-eracun-mock.ts), which checks every UBL it receives with the official rules
// when ../shared/einvoice is there.

const HR_DIR = `${EINVOICE_DIR}hr-fiscalization/`;
const OUR_OIB = '33392005961';
/** The default HR buyer's OIB (einvoice-fixtures BUYERS.HR). */
const BUYER_OIB = '10000000000';
const HAVE_FISCAL = (() => {
  if (!existsSync(`${HR_DIR}eFiskalizacijaSchema/eFiskalizacijaSchema.xsd`)) return false;
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let h: TestApp;
let mer: MojERacunMock;
let fiscal: HrFiscalMock | null = null;
let cert: { key: string; cert: string } | null = null;
let deps: SefDeps;
let s: Session;
let customerId: string;
const today = () => new Date().toISOString().slice(0, 10);

const inject = (token: string, method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object) =>
  h.app.inject(authed(token, { method, url, ...(payload ? { payload } : {}) }));

const SETTINGS = {
  environment: 'demo',
  enabled: true,
  username: 'demo-user',
  password: 'demo-pass',
  softwareId: 'Ledgerline-001',
};
const line = {
  description: 'Usluga savjetovanja',
  quantity: 2,
  unitPrice: 100,
  taxRate: 25,
  classificationCode: '62.10.11',
};

async function newInvoice(session = s, customer = customerId) {
  return sentInvoice(h.app, session, { customerId: customer, invoiceDate: today(), dueDate: today(), items: [line] });
}
const deliveryOf = async (id: string, session = s) =>
  (await inject(session.token, 'GET', `/api/v1/invoices/${id}/intermediary`)).json();
/** Makes the invoice's queued attempts (or status checks) due now: what waiting out the backoff would do. */
const dueNow = (invoiceId: string) =>
  sql`UPDATE intermediary_documents SET next_attempt_at = now() WHERE invoice_id = ${invoiceId} AND status = 'Pending'`.execute(
    h.t.db.system,
  );
const checkNow = (invoiceId: string) =>
  sql`UPDATE intermediary_documents SET next_check_at = now() WHERE invoice_id = ${invoiceId} AND next_check_at IS NOT NULL`.execute(
    h.t.db.system,
  );
const rowOf = (invoiceId: string) =>
  h.t.db.system
    .selectFrom('intermediary_documents')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'invoice')
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  mer = await new MojERacunMock().start();
  mer.credentials.CompanyId = OUR_OIB;
  if (HAVE_FISCAL) {
    cert = testCertificate();
    fiscal = await new HrFiscalMock(cert.cert, HR_DIR).start();
  }
  h = await buildTestApp({
    RATE_LIMITS: 'off',
    INTERMEDIARY_BASE_URL: mer.url,
    INTERMEDIARY_SYNC_INTERVAL: '0s',
    INTERMEDIARY_DELIVERY_INTERVAL: '0s',
    // The mock checks each UBL with the official rules (Saxon + XSD), slow on a busy machine.
    INTERMEDIARY_TIMEOUT: '60s',
    FISCALIZATION_DELIVERY_INTERVAL: '0s',
    ...(fiscal ? { FISCALIZATION_BASE_URL: fiscal.url } : {}),
  });
  deps = {
    config: h.config,
    db: h.t.db,
    invoices: {
      config: h.config,
      db: h.t.db,
      log: h.app.log,
      storage: localStorage(join(h.config.dataDir, 'files')),
    } as InvoiceDeps,
    box: new SecretBox(h.config.sef.keyEncryptionKey!),
    log: h.app.log,
  };
  s = await seller(h.app, 'HR');
  customerId = (await buyer(h.app, s, 'HR')).id;
  // The buyers of this suite are in the register of recipients (AMS) unless a test says otherwise.
  mer.registered.add(BUYER_OIB);
  const put = await inject(s.token, 'PUT', '/api/v1/organization/intermediary', SETTINGS);
  if (put.statusCode !== 200) throw new Error(put.body);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await mer?.stop();
  await fiscal?.stop();
});

describe('sending HR e-invoices through the intermediary', { timeout: 180_000 }, () => {
  it('send delivers the e-invoice through Moj-eRačun; the invoice, its list item and the route show it; queueing again sends nothing', async () => {
    const settings = await inject(s.token, 'GET', '/api/v1/organization/intermediary');
    expect(settings.json().fiscalizationBy).toBe('intermediary');
    const inv = await newInvoice();
    const d = (await deliveryOf(inv.id)).intermediary;
    expect(d).toMatchObject({
      status: 'Sent',
      provider: 'moj-eracun',
      documentNumber: inv.invoiceNumber,
      providerStatus: 'Poslan',
      lastError: null,
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(d.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const sent = mer.sent.filter((x) => x.number === inv.invoiceNumber);
    expect(sent).toHaveLength(1);
    expect(d.documentId).toBe(String(sent[0].id));
    // What Moj-eRačun received is the invoice's UBL, and passed the official rules (empty when absent).
    expect(sent[0].xml).toBe((await getUbl(h.app, s, inv.id)).body);
    expect(mer.validations.find((v) => v.number === inv.invoiceNumber)?.failures).toEqual([]);
    // The organization's credentials in the body, as every call.
    expect(mer.sendsOf(inv.invoiceNumber)[0].body).toMatchObject({ Username: 'demo-user', CompanyId: OUR_OIB });

    const shown = await inject(s.token, 'GET', `/api/v1/invoices/${inv.id}`);
    expect(shown.json().intermediary).toEqual(d);
    const list = await inject(s.token, 'GET', '/api/v1/invoices?perPage=100');
    expect(list.json().data.find((i: { id: string }) => i.id === inv.id).intermediary).toEqual({ status: 'Sent' });

    const again = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/intermediary`);
    expect(again.statusCode).toBe(202);
    expect(again.json().intermediary).toEqual(d);
    expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(1);
  });

  it('a crash between Moj-eRačun storing the document and our recording its answer: the retry finds it in the outbox and does not send again', async () => {
    mer.failures.set('/apis/v2/send', [{ registerThenDrop: true }]);
    const inv = await newInvoice();
    const first = (await deliveryOf(inv.id)).intermediary;
    expect(first).toMatchObject({ status: 'Pending', documentId: null });
    expect(first.lastError).toMatch(/unreachable/);
    expect(mer.sent.filter((x) => x.number === inv.invoiceNumber)).toHaveLength(1);

    await dueNow(inv.id);
    await deliverIntermediaryDue(deps);
    const after = (await deliveryOf(inv.id)).intermediary;
    const registered = mer.sent.filter((x) => x.number === inv.invoiceNumber);
    expect(registered).toHaveLength(1);
    expect(after).toMatchObject({
      status: 'Sent',
      idempotencyKey: first.idempotencyKey,
      documentId: String(registered[0].id),
      lastError: null,
    });
    expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(1);
    expect(mer.calls.filter((c) => c.path === '/apis/v2/queryOutbox').at(-1)?.body).toMatchObject({
      InvoiceNumber: inv.invoiceNumber,
      InvoiceYear: new Date().getUTCFullYear(),
    });
  });

  it('429 and 5xx are retried with backoff (never before Retry-After), then delivered once with the same key', async () => {
    mer.failures.set('/apis/v2/send', [
      { status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '3' } },
      { status: 503 },
    ]);
    const inv = await newInvoice();
    const pending = (await deliveryOf(inv.id)).intermediary;
    expect(pending).toMatchObject({ status: 'Pending' });
    expect(pending.lastError).toContain('429');
    const row = await rowOf(inv.id);
    const wait = new Date(row.next_attempt_at!).getTime() - new Date(row.updated_at).getTime();
    expect(wait).toBeGreaterThanOrEqual(3000);
    expect(wait).toBeLessThanOrEqual(30_000);
    expect(pending.nextAttemptAt).toBe(new Date(row.next_attempt_at!).toISOString());

    // Not due yet: the job leaves it alone.
    await runIntermediaryDelivery(deps);
    expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(1);

    await dueNow(inv.id);
    await runIntermediaryDelivery(deps);
    const second = (await deliveryOf(inv.id)).intermediary;
    expect(second).toMatchObject({ status: 'Pending', attempts: 2 });
    expect(second.lastError).toContain('503');

    await dueNow(inv.id);
    await runIntermediaryDelivery(deps);
    expect((await deliveryOf(inv.id)).intermediary).toMatchObject({
      status: 'Sent',
      idempotencyKey: pending.idempotencyKey,
      lastError: null,
      attempts: 3,
    });
    expect(mer.sent.filter((x) => x.number === inv.invoiceNumber)).toHaveLength(1);
  });

  it("a refusal (4xx) is final and shown with Moj-eRačun's message; queueing again uses a new key", async () => {
    mer.failures.set('/apis/v2/send', [
      { status: 400, body: { File: { Value: '', Messages: ['Primatelj nije registriran u AMS-u.'] } } },
    ]);
    const inv = await newInvoice();
    const failed = (await deliveryOf(inv.id)).intermediary;
    expect(failed).toMatchObject({ status: 'Failed', nextAttemptAt: null });
    expect(failed.lastError).toContain('Primatelj nije registriran u AMS-u.');
    expect(failed.lastError).toContain('400');
    // The job does not try a refused document again.
    await dueNow(inv.id);
    await runIntermediaryDelivery(deps);
    expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(1);

    const again = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/intermediary`);
    expect(again.statusCode).toBe(202);
    expect(again.json().intermediary.status).toBe('Sent');
    expect(again.json().intermediary.idempotencyKey).not.toBe(failed.idempotencyKey);
    expect(mer.sent.filter((x) => x.number === inv.invoiceNumber)).toHaveLength(1);
  });

  it('two delivery passes at once send each due document once (claimed with a lease, SKIP LOCKED)', async () => {
    mer.failures.set('/apis/v2/send', [{ status: 503 }, { status: 503 }, { status: 503 }]);
    const invs = [await newInvoice(), await newInvoice(), await newInvoice()];
    for (const inv of invs) {
      expect((await deliveryOf(inv.id)).intermediary.status).toBe('Pending');
      await dueNow(inv.id);
    }
    await Promise.all([deliverIntermediaryDue(deps), deliverIntermediaryDue(deps)]);
    for (const inv of invs) {
      expect((await deliveryOf(inv.id)).intermediary.status).toBe('Sent');
      expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(2);
      expect(mer.sent.filter((x) => x.number === inv.invoiceNumber)).toHaveLength(1);
    }
  });

  it('an attempt holds its document longer than it can last (4 x INTERMEDIARY_TIMEOUT + 30 s): a pass meanwhile does not send it again', async () => {
    mer.failures.set('/apis/v2/send', [{ status: 503 }]);
    const inv = await newInvoice();
    expect((await deliveryOf(inv.id)).intermediary.status).toBe('Pending');
    await dueNow(inv.id);
    let release = () => {};
    mer.failures.set('/apis/v2/send', [{ hold: new Promise<void>((r) => (release = r)) }]);
    const sendsBefore = mer.sendsOf(inv.invoiceNumber).length;
    const first = deliverIntermediaryDue(deps);
    await expect.poll(() => mer.sendsOf(inv.invoiceNumber).length).toBe(sendsBefore + 1);
    // The send is on its way: the document is leased for 4 x 60 s + 30 s (the file's INTERMEDIARY_TIMEOUT),
    // not the 120 s an attempt of three 60-second calls could outlast.
    const { rows } = await sql<{ secs: number }>`
      SELECT extract(epoch FROM next_attempt_at - now())::float8 AS secs FROM intermediary_documents
      WHERE invoice_id = ${inv.id}`.execute(h.t.db.system);
    expect(rows[0].secs).toBeGreaterThan(260);
    expect(rows[0].secs).toBeLessThanOrEqual(270);
    expect(await deliverIntermediaryDue(deps)).toBe(0);
    release();
    await first;
    expect((await deliveryOf(inv.id)).intermediary.status).toBe('Sent');
    expect(mer.sent.filter((x) => x.number === inv.invoiceNumber)).toHaveLength(1);
  });

  it('the status job follows a sent document until the buyer decides: delivered, then rejected with its reason', async () => {
    const inv = await newInvoice();
    const d = (await deliveryOf(inv.id)).intermediary;
    // Not due yet (the first check is minutes after sending).
    await checkIntermediaryStatuses(deps);
    expect((await deliveryOf(inv.id)).intermediary.status).toBe('Sent');

    mer.setSent(Number(d.documentId), { statusId: 40, processStatusId: 4 });
    await checkNow(inv.id);
    await checkIntermediaryStatuses(deps);
    expect((await deliveryOf(inv.id)).intermediary).toMatchObject({
      status: 'Delivered',
      providerStatus: 'Potvrda zaprimanja',
    });
    const list = await inject(s.token, 'GET', '/api/v1/invoices?perPage=100');
    expect(list.json().data.find((i: { id: string }) => i.id === inv.id).intermediary).toEqual({
      status: 'Delivered',
    });

    mer.setSent(Number(d.documentId), { processStatusId: 1, rejectReason: 'Pogrešna količina' });
    await checkNow(inv.id);
    await checkIntermediaryStatuses(deps);
    expect((await deliveryOf(inv.id)).intermediary).toMatchObject({
      status: 'Rejected',
      statusReason: 'Pogrešna količina',
      providerStatus: 'Odbijen',
    });
    // Final: no more checks.
    expect((await rowOf(inv.id)).next_check_at).toBeNull();
    const checks = () =>
      mer.calls.filter(
        (c) => c.path === '/apis/v2/queryDocumentProcessStatusOutbox' && c.body.ElectronicId === Number(d.documentId),
      ).length;
    const n = checks();
    await checkIntermediaryStatuses(deps);
    expect(checks()).toBe(n);
  });

  it('an approval is Accepted; Moj-eRačun down leaves the status and is checked again later', async () => {
    const inv = await newInvoice();
    const d = (await deliveryOf(inv.id)).intermediary;
    mer.failures.set('/apis/v2/queryDocumentProcessStatusOutbox', [{ status: 502 }]);
    await checkNow(inv.id);
    await checkIntermediaryStatuses(deps);
    const down = await rowOf(inv.id);
    expect(down.status).toBe('Sent');
    expect(down.last_error).toContain('502');
    expect(down.next_check_at).not.toBeNull();

    mer.setSent(Number(d.documentId), { statusId: 40, processStatusId: 0 });
    await checkNow(inv.id);
    await checkIntermediaryStatuses(deps);
    expect((await deliveryOf(inv.id)).intermediary).toMatchObject({ status: 'Accepted', lastError: null });
  });

  it('a credit note of a cancelled invoice goes through the intermediary too', async () => {
    const inv = await newInvoice();
    const cancel = await inject(s.token, 'PATCH', `/api/v1/invoices/${inv.id}/status`, { action: 'cancel' });
    expect(cancel.statusCode).toBe(200);
    const res = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/credit-note/intermediary`);
    expect(res.statusCode).toBe(202);
    const cn = res.json().creditNoteIntermediary;
    expect(cn).toMatchObject({ status: 'Sent' });
    expect(res.json().intermediary.status).toBe('Sent');
    const doc = mer.sent.find((x) => String(x.id) === cn.documentId)!;
    expect(doc.xml).toContain('<CreditNote');
    expect(mer.validations.find((v) => v.number === cn.documentNumber)?.failures).toEqual([]);
  });

  it('the routes: a draft is 400, a viewer 403, an organization without the intermediary or outside HR 422', async () => {
    const draft = await inject(s.token, 'POST', '/api/v1/invoices', {
      customerId,
      invoiceDate: today(),
      dueDate: today(),
      items: [line],
    });
    expect((await inject(s.token, 'POST', `/api/v1/invoices/${draft.json().id}/intermediary`)).statusCode).toBe(400);
    const viewer = await addMember(h.app, s, 'viewer');
    expect((await inject(viewer.token, 'POST', `/api/v1/invoices/${draft.json().id}/intermediary`)).statusCode).toBe(
      403,
    );
    expect((await inject(viewer.token, 'GET', `/api/v1/invoices/${draft.json().id}/intermediary`)).json()).toEqual({
      invoiceId: draft.json().id,
      intermediary: null,
      creditNoteIntermediary: null,
    });

    // Another HR organization without an intermediary: send does not queue; by hand is 422.
    const other = await seller(h.app, 'HR');
    const otherCustomer = (await buyer(h.app, other, 'HR')).id;
    const inv = await newInvoice(other, otherCustomer);
    expect((await deliveryOf(inv.id, other)).intermediary).toBeNull();
    const refused = await inject(other.token, 'POST', `/api/v1/invoices/${inv.id}/intermediary`);
    expect(refused.statusCode).toBe(422);
    // In the organization's language (HR), as every detail (lib/detail-messages.ts).
    expect(refused.json().error.details.intermediary).toEqual([
      'informacijski posrednik nije uključen za organizaciju',
    ]);
    const rs = await seller(h.app, 'RS');
    const rsCustomer = (await buyer(h.app, rs, 'RS')).id;
    const rsInv = await sentInvoice(h.app, rs, {
      customerId: rsCustomer,
      invoiceDate: today(),
      dueDate: today(),
      items: [{ ...line, taxRate: 20 }],
    });
    expect((await inject(rs.token, 'POST', `/api/v1/invoices/${rsInv.id}/intermediary`)).statusCode).toBe(422);
  });
});

describe('accept and reject of a received HR e-invoice tell the intermediary', { timeout: 180_000 }, () => {
  let supplierXml: (n: string) => Promise<string>;
  beforeAll(async () => {
    const supplier = await seller(h.app, 'HR');
    const toUs = (await buyer(h.app, supplier, 'HR', { vatNumber: `HR${OUR_OIB}` })).id;
    supplierXml = async (description: string) => {
      const inv = await sentInvoice(h.app, supplier, {
        customerId: toUs,
        invoiceDate: today(),
        dueDate: today(),
        items: [{ ...line, description }],
      });
      return (await getUbl(h.app, supplier, inv.id)).body;
    };
  }, 120_000);

  async function received(description: string) {
    const id = mer.addReceived(await supplierXml(description), `R-${description}`, OUR_OIB);
    await runIntermediaryIntake(deps);
    const row = await h.t.db.system
      .selectFrom('purchase_invoices')
      .select('id')
      .where('organization_id', '=', s.orgId)
      .where('external_id', '=', String(id))
      .executeTakeFirstOrThrow();
    return { electronicId: id, purchaseId: row.id };
  }

  it('accept sends the approval (UpdateDokumentProcessStatus 0); reject sends 1 with the reason', async () => {
    const a = await received('A');
    const ok = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${a.purchaseId}/accept`, { comment: 'U redu' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('Approved');
    expect(mer.inbox.find((d) => d.id === a.electronicId)).toMatchObject({ processStatusId: 0, rejectReason: null });
    expect(mer.calls.at(-1)).toMatchObject({
      path: '/apis/v2/UpdateDokumentProcessStatus',
      body: { ElectronicId: a.electronicId, StatusId: 0, CompanyId: OUR_OIB },
    });

    const b = await received('B');
    const no = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${b.purchaseId}/reject`, {
      comment: 'Pogrešan iznos',
    });
    expect(no.statusCode).toBe(200);
    expect(no.json().status).toBe('Rejected');
    expect(mer.inbox.find((d) => d.id === b.electronicId)).toMatchObject({
      processStatusId: 1,
      rejectReason: 'Pogrešan iznos',
    });
  });

  it('the intermediary down is 503 and changes nothing; its refusal is 422 with its message', async () => {
    const c = await received('C');
    mer.failures.set('/apis/v2/UpdateDokumentProcessStatus', [{ status: 503 }]);
    const down = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${c.purchaseId}/reject`, {
      comment: 'Pogrešan iznos',
    });
    expect(down.statusCode).toBe(503);
    expect((await inject(s.token, 'GET', `/api/v1/purchase-invoices/${c.purchaseId}`)).json().status).toBe('New');
    expect(mer.inbox.find((d) => d.id === c.electronicId)?.processStatusId).toBeNull();

    mer.failures.set('/apis/v2/UpdateDokumentProcessStatus', [
      { status: 400, body: { StatusId: { Value: '1', Messages: ['Dokument je već odbijen.'] } } },
    ]);
    const refused = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${c.purchaseId}/reject`, {
      comment: 'Pogrešan iznos',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.intermediary[0]).toContain('Dokument je već odbijen.');
    expect((await inject(s.token, 'GET', `/api/v1/purchase-invoices/${c.purchaseId}`)).json().status).toBe('New');
  });
});

describe.skipIf(!HAVE_FISCAL)('who fiscalizes: exactly one fiscalization per e-invoice', { timeout: 180_000 }, () => {
  let f: Session;
  let fCustomer: string;

  beforeAll(async () => {
    f = await seller(h.app, 'HR');
    fCustomer = (await buyer(h.app, f, 'HR')).id;
    const put = await inject(f.token, 'PUT', '/api/v1/organization/fiscalization', {
      certificate: p12Of(cert!, 'Tajna-123'),
      password: 'Tajna-123',
      environment: 'test',
      enabled: true,
    });
    if (put.statusCode !== 200) throw new Error(put.body);
  }, 120_000);

  /**
   * Fiscalization messages (EvidentirajERacun) that reported the document since `mark`: ours plus
   * Moj-eRačun's (invoice numbers repeat across this suite's organizations, which share an OIB).
   */
  const mark = () => ({ service: fiscal!.received.length, intermediary: mer.fiscalized.length });
  const fiscalizations = (number: string, since: ReturnType<typeof mark>) => ({
    service: fiscal!.received
      .slice(since.service)
      .filter((r) => r.root === 'EvidentirajERacunZahtjev' && r.body.includes(`>${number}</`)).length,
    intermediary: mer.fiscalized.slice(since.intermediary).filter((n) => n === number).length,
  });

  it('fiscalizationBy intermediary (the default): Moj-eRačun fiscalizes what it sends, the service does not', async () => {
    const put = await inject(f.token, 'PUT', '/api/v1/organization/intermediary', SETTINGS);
    expect(put.json().fiscalizationBy).toBe('intermediary');
    mer.fiscalizesOnSend = true;
    const since = mark();
    const inv = await newInvoice(f, fCustomer);
    expect((await deliveryOf(inv.id, f)).intermediary.status).toBe('Sent');
    expect(fiscalizations(inv.invoiceNumber, since)).toEqual({ service: 0, intermediary: 1 });
    const shown = (await inject(f.token, 'GET', `/api/v1/invoices/${inv.id}`)).json();
    expect(shown.fiscalization).toBeNull();
  });

  it('fiscalizationBy service (Moj-eRačun set not to fiscalize): the service fiscalizes, once', async () => {
    const put = await inject(f.token, 'PUT', '/api/v1/organization/intermediary', {
      ...SETTINGS,
      fiscalizationBy: 'service',
    });
    expect(put.json().fiscalizationBy).toBe('service');
    mer.fiscalizesOnSend = false;
    try {
      const since = mark();
      const inv = await newInvoice(f, fCustomer);
      expect((await deliveryOf(inv.id, f)).intermediary.status).toBe('Sent');
      expect(fiscalizations(inv.invoiceNumber, since)).toEqual({ service: 1, intermediary: 0 });
      const shown = (await inject(f.token, 'GET', `/api/v1/invoices/${inv.id}`)).json();
      expect(shown.fiscalization.status).toBe('Fiscalized');
    } finally {
      mer.fiscalizesOnSend = true;
    }
  });
});

describe('the recipient look-up before sending', { timeout: 180_000 }, () => {
  const checksOf = (oib: string) =>
    mer.calls.filter((c) => c.path === '/api/mps/check' && c.body.IdentifierValue === oib).length;

  it('an unregistered buyer: Failed at once with a localized message, no send; asked once (cached); queued again by hand after registering: sent', async () => {
    const oib = '20000000009';
    const unregistered = (await buyer(h.app, s, 'HR', { vatNumber: `HR${oib}` })).id;
    const inv = await newInvoice(s, unregistered);
    const d = (await deliveryOf(inv.id)).intermediary;
    expect(d).toMatchObject({ status: 'Failed', documentId: null, nextAttemptAt: null });
    // The organization speaks Croatian: the message is in it (lib/detail-messages.ts).
    expect(d.lastError).toBe(`OIB kupca ${oib} nije registriran za primanje e-računa (AMS); nije poslano`);
    expect((await inject(s.token, 'GET', `/api/v1/invoices/${inv.id}`)).json().intermediary.lastError).toBe(
      d.lastError,
    );
    expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(0);
    expect(checksOf(oib)).toBe(1);
    expect(mer.calls.filter((c) => c.path === '/api/mps/check').at(-1)?.body).toMatchObject({
      IdentifierType: '0',
      CompanyId: OUR_OIB,
    });
    const raw = (await rowOf(inv.id)).last_error!;
    expect(localizeDetail(raw, 'sr')).toBe(`OIB kupca ${oib} nije registrovan za prijem e-faktura (AMS); nije poslato`);
    expect(localizeDetail(raw, 'bs')).toBe(`OIB kupca ${oib} nije registriran za prijem e-faktura (AMS); nije poslano`);
    expect(localizeDetail(raw, 'en')).toBe(
      `the buyer's OIB ${oib} is not registered to receive e-invoices (AMS); not sent`,
    );

    // The next invoice to the same buyer: refused from the cache, no second look-up, no send.
    const second = await newInvoice(s, unregistered);
    expect((await deliveryOf(second.id)).intermediary.status).toBe('Failed');
    expect(checksOf(oib)).toBe(1);
    expect(mer.sendsOf(second.invoiceNumber)).toHaveLength(0);

    // The buyer registers; a person queues the invoice again: asked afresh, sent.
    mer.registered.add(oib);
    const again = await inject(s.token, 'POST', `/api/v1/invoices/${inv.id}/intermediary`);
    expect(again.statusCode).toBe(202);
    expect(again.json().intermediary).toMatchObject({ status: 'Sent', lastError: null });
    expect(checksOf(oib)).toBe(2);
    expect(mer.sent.filter((x) => x.number === inv.invoiceNumber)).toHaveLength(1);
  });

  it('a registered buyer is looked up once a day, not per invoice', async () => {
    await newInvoice();
    const before = checksOf(BUYER_OIB);
    // Asked at least once (for the first invoice to this buyer, in this test or before).
    expect(before).toBeGreaterThan(0);
    const a = await newInvoice();
    const b = await newInvoice();
    expect((await deliveryOf(a.id)).intermediary.status).toBe('Sent');
    expect((await deliveryOf(b.id)).intermediary.status).toBe('Sent');
    expect(checksOf(BUYER_OIB)).toBe(before);
  });

  it('the look-up down does not hold the invoice back (sent anyway) and is not cached', async () => {
    const oib = '30000000008';
    const unknown = (await buyer(h.app, s, 'HR', { vatNumber: `HR${oib}` })).id;
    mer.failures.set('/api/mps/check', [{ status: 503 }]);
    const inv = await newInvoice(s, unknown);
    expect((await deliveryOf(inv.id)).intermediary).toMatchObject({ status: 'Sent', lastError: null });
    expect(mer.sendsOf(inv.invoiceNumber)).toHaveLength(1);
    // Asked again next time (the failed look-up was not remembered): not registered, so refused.
    const next = await newInvoice(s, unknown);
    expect((await deliveryOf(next.id)).intermediary.status).toBe('Failed');
    expect(checksOf(oib)).toBe(2);
  });
});

describe('the payment report through Moj-eRačun when it fiscalizes', { timeout: 180_000 }, () => {
  const markPaid = (id: string, session = s) =>
    inject(session.token, 'PATCH', `/api/v1/invoices/${id}/status`, { action: 'mark-paid', paidAt: today() });
  const markPaidCalls = (documentId: string) =>
    mer.calls.filter((c) => c.path === '/api/fiscalization/markPaid' && String(c.body.ElectronicId) === documentId);
  const reportDueNow = (invoiceId: string) =>
    sql`UPDATE intermediary_payment_reports SET next_attempt_at = now() WHERE invoice_id = ${invoiceId} AND status = 'Pending'`.execute(
      h.t.db.system,
    );

  it('mark-paid reports the payment through markPaid once; the invoice shows it', async () => {
    const inv = await newInvoice();
    const d = (await deliveryOf(inv.id)).intermediary;
    expect(d.paymentReport).toBeNull();
    const paid = await markPaid(inv.id);
    expect(paid.statusCode).toBe(200);
    const report = (await deliveryOf(inv.id)).intermediary.paymentReport;
    expect(report).toMatchObject({
      status: 'Reported',
      paidAt: today(),
      paymentMethod: 'Z',
      lastError: null,
      attempts: 1,
      nextAttemptAt: null,
      fiscalizedAt: '2026-11-27T10:00:00.000+01:00',
    });
    expect(Number(report.amount)).toBe(250);
    expect(report.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(report.reportedAt).not.toBeNull();
    const doc = mer.sent.find((x) => String(x.id) === d.documentId)!;
    expect(doc.payment).toEqual({ date: today(), amount: 250, method: 'Z' });
    expect(markPaidCalls(d.documentId)).toHaveLength(1);
    expect(markPaidCalls(d.documentId)[0].body).toMatchObject({
      Username: 'demo-user',
      CompanyId: OUR_OIB,
      SoftwareId: 'Ledgerline-001',
      ElectronicId: Number(d.documentId),
      PaymentDate: today(),
      PaymentAmount: 250,
      PaymentMethod: 'Z',
    });
    expect((await inject(s.token, 'GET', `/api/v1/invoices/${inv.id}`)).json().intermediary.paymentReport).toEqual(
      report,
    );
    // The job sends nothing more.
    await runIntermediaryDelivery(deps);
    expect(markPaidCalls(d.documentId)).toHaveLength(1);
  });

  it('Moj-eRačun down: Pending with the error and a backoff, then reported by the job once', async () => {
    const inv = await newInvoice();
    const d = (await deliveryOf(inv.id)).intermediary;
    mer.failures.set('/api/fiscalization/markPaid', [{ status: 503 }]);
    await markPaid(inv.id);
    const pending = (await deliveryOf(inv.id)).intermediary.paymentReport;
    expect(pending).toMatchObject({ status: 'Pending', attempts: 1 });
    expect(pending.lastError).toContain('503');
    expect(new Date(pending.nextAttemptAt).getTime()).toBeGreaterThan(Date.now());
    // Not due yet: the job leaves it.
    await runIntermediaryDelivery(deps);
    expect(markPaidCalls(d.documentId)).toHaveLength(1);

    await reportDueNow(inv.id);
    await runIntermediaryDelivery(deps);
    expect((await deliveryOf(inv.id)).intermediary.paymentReport).toMatchObject({
      status: 'Reported',
      attempts: 2,
      lastError: null,
      idempotencyKey: pending.idempotencyKey,
    });
    expect(mer.paymentsReported.filter((n) => n === inv.invoiceNumber)).toHaveLength(1);
  });

  it('paid before Moj-eRačun accepted the invoice: the report waits, then goes out in the pass that sends the invoice', async () => {
    mer.failures.set('/apis/v2/send', [{ status: 503 }]);
    const inv = await newInvoice();
    expect((await deliveryOf(inv.id)).intermediary.status).toBe('Pending');
    await markPaid(inv.id);
    const waiting = (await deliveryOf(inv.id)).intermediary.paymentReport;
    expect(waiting.status).toBe('Pending');
    expect(waiting.lastError).toBe('čeka se da informacijski posrednik prihvati e-račun');
    expect(
      mer.calls.filter((c) => c.path === '/api/fiscalization/markPaid' && c.body.ElectronicId === undefined),
    ).toEqual([]);

    await dueNow(inv.id);
    await runIntermediaryDelivery(deps);
    const after = (await deliveryOf(inv.id)).intermediary;
    expect(after.status).toBe('Sent');
    expect(after.paymentReport).toMatchObject({ status: 'Reported', lastError: null });
    expect(markPaidCalls(after.documentId)).toHaveLength(1);
  });

  it("Moj-eRačun's refusal is final and shown with its message", async () => {
    const inv = await newInvoice();
    const d = (await deliveryOf(inv.id)).intermediary;
    mer.failures.set('/api/fiscalization/markPaid', [
      { status: 400, body: { PaymentDate: { Value: '', Messages: ['Datum plaćanja nije ispravan.'] } } },
    ]);
    await markPaid(inv.id);
    const failed = (await deliveryOf(inv.id)).intermediary.paymentReport;
    expect(failed).toMatchObject({ status: 'Failed', nextAttemptAt: null });
    expect(failed.lastError).toContain('Datum plaćanja nije ispravan.');
    await reportDueNow(inv.id);
    await runIntermediaryDelivery(deps);
    expect(markPaidCalls(d.documentId)).toHaveLength(1);
  });

  it('fiscalizationBy service: no payment report through Moj-eRačun (the service reports it itself)', async () => {
    const o = await seller(h.app, 'HR');
    const oCustomer = (await buyer(h.app, o, 'HR')).id;
    const put = await inject(o.token, 'PUT', '/api/v1/organization/intermediary', {
      ...SETTINGS,
      fiscalizationBy: 'service',
    });
    expect(put.statusCode).toBe(200);
    const inv = await newInvoice(o, oCustomer);
    const d = (await deliveryOf(inv.id, o)).intermediary;
    expect(d.status).toBe('Sent');
    expect((await markPaid(inv.id, o)).statusCode).toBe(200);
    expect((await deliveryOf(inv.id, o)).intermediary.paymentReport).toBeNull();
    expect(markPaidCalls(d.documentId)).toHaveLength(0);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../src/infra/storage/storage.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { runIntermediaryIntake } from '../src/modules/exchange-hr/exchange.service.js';
import { MojERacunAdapter } from '../src/modules/exchange-hr/moj-eracun.js';
import type { InvoiceDeps } from '../src/modules/invoices/invoice-transitions.js';
import type { SefDeps } from '../src/modules/sef/sef.service.js';
import { buyer, getUbl, seller, sentInvoice } from './einvoice-fixtures.js';
import { EINVOICE_DIR } from './einvoice-validation.js';
import { addMember, authed, buildTestApp, type Session, type TestApp } from './helpers.js';
import { HrFiscalMock, p12Of, testCertificate } from './hr-fiscal-mock.js';
import { MojERacunMock } from './moj-eracun-mock.js';

const HR_DIR = `${EINVOICE_DIR}hr-fiscalization/`;
const OUR_OIB = '33392005961';
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
const today = () => new Date().toISOString().slice(0, 10);

const inject = (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  h.app.inject(authed(token, { method, url, ...(payload ? { payload } : {}) }));

const SETTINGS = {
  environment: 'demo',
  enabled: true,
  username: 'demo-user',
  password: 'demo-pass',
  softwareId: 'Ledgerline-001',
};

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
    INTERMEDIARY_TIMEOUT: '5s',
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
}, 120_000);

afterAll(async () => {
  await h?.close();
  await mer?.stop();
  await fiscal?.stop();
});

describe('the information intermediary account (Moj-eRačun)', { timeout: 120_000 }, () => {
  it('keeps the password sealed, never returns it, lets owners and admins change it; HR only', async () => {
    const empty = await inject(s.token, 'GET', '/api/v1/organization/intermediary');
    expect(empty.json()).toMatchObject({ provider: 'moj-eracun', enabled: false, passwordSet: false });
    const viewer = await addMember(h.app, s, 'viewer');
    expect((await inject(viewer.token, 'PUT', '/api/v1/organization/intermediary', SETTINGS)).statusCode).toBe(403);
    const noPassword = await inject(s.token, 'PUT', '/api/v1/organization/intermediary', {
      ...SETTINGS,
      password: undefined,
    });
    expect(noPassword.statusCode).toBe(422);
    const put = await inject(s.token, 'PUT', '/api/v1/organization/intermediary', SETTINGS);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ enabled: true, passwordSet: true, username: 'demo-user' });
    expect(put.body).not.toContain('demo-pass');
    const row = await h.t.db.system
      .selectFrom('intermediary_settings')
      .select('password_ciphertext')
      .where('organization_id', '=', s.orgId)
      .executeTakeFirstOrThrow();
    expect(row.password_ciphertext).not.toContain('demo-pass');
    // Changing the rest keeps the stored password.
    const again = await inject(s.token, 'PUT', '/api/v1/organization/intermediary', {
      ...SETTINGS,
      password: undefined,
      companyBu: 'PJ1',
    });
    expect(again.json()).toMatchObject({ passwordSet: true, companyBu: 'PJ1' });
    await inject(s.token, 'PUT', '/api/v1/organization/intermediary', SETTINGS);

    const rs = await seller(h.app, 'RS');
    expect((await inject(rs.token, 'PUT', '/api/v1/organization/intermediary', SETTINGS)).statusCode).toBe(422);
  });

  it('looks up a recipient: registered, not registered, wrong credentials, intermediary down', async () => {
    mer.registered.add('10000000000');
    const yes = await inject(s.token, 'GET', '/api/v1/organization/intermediary/recipient?oib=10000000000');
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toEqual({ oib: '10000000000', registered: true, provider: 'moj-eracun' });
    const no = await inject(s.token, 'GET', '/api/v1/organization/intermediary/recipient?oib=10000000001');
    expect(no.json().registered).toBe(false);
    // What reached Moj-eRačun: its credentials in the body, the organization's OIB as CompanyId.
    expect(mer.calls.at(-1)).toMatchObject({
      path: '/api/mps/check',
      body: { Username: 'demo-user', CompanyId: OUR_OIB, SoftwareId: 'Ledgerline-001', IdentifierValue: '10000000001' },
    });
    expect((await inject(s.token, 'GET', '/api/v1/organization/intermediary/recipient?oib=123')).statusCode).toBe(422);
    mer.failures.set('/api/mps/check', [{ status: 503 }]);
    const down = await inject(s.token, 'GET', '/api/v1/organization/intermediary/recipient?oib=10000000000');
    expect(down.statusCode).toBe(503);
    mer.credentials.Password = 'changed';
    const refused = await inject(s.token, 'GET', '/api/v1/organization/intermediary/recipient?oib=10000000000');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.intermediary[0]).toContain('Korisničko ime i lozinka nisu ispravni.');
    mer.credentials.Password = 'demo-pass';
  });
});

describe('received HR e-invoices become purchase invoices', { timeout: 180_000 }, () => {
  let supplierXml: (n: string) => Promise<string>;
  beforeAll(async () => {
    const supplier = await seller(h.app, 'HR');
    const toUs = (await buyer(h.app, supplier, 'HR', { vatNumber: `HR${OUR_OIB}` })).id;
    supplierXml = async (description: string) => {
      const inv = await sentInvoice(h.app, supplier, {
        customerId: toUs,
        invoiceDate: today(),
        dueDate: today(),
        items: [{ description, quantity: 2, unitPrice: 100, taxRate: 25, classificationCode: '62.10.11' }],
      });
      return (await getUbl(h.app, supplier, inv.id)).body;
    };
  }, 120_000);

  it('fetches what is new, stores it, confirms the import; a second intake fetches nothing again', async () => {
    const id = mer.addReceived(await supplierXml('Usluga A'), 'R-1', OUR_OIB);
    expect(await runIntermediaryIntake(deps)).toBe(1);
    const list = await inject(s.token, 'GET', '/api/v1/purchase-invoices');
    const item = list.json().data.find((p: { externalId: string }) => p.externalId === String(id));
    expect(item).toMatchObject({
      source: 'hr-intermediary',
      status: 'New',
      supplierVatNumber: OUR_OIB,
      currencyCode: 'EUR',
      totalAmount: '250.00',
      taxAmount: '50.00',
    });
    expect(mer.inbox.find((d) => d.id === id)?.imported).toBe(true);
    const receives = () => mer.calls.filter((c) => c.path === '/apis/v2/receive').length;
    const n = receives();
    expect(await runIntermediaryIntake(deps)).toBe(0);
    expect(receives()).toBe(n);
    const settings = await inject(s.token, 'GET', '/api/v1/organization/intermediary');
    expect(settings.json().lastSyncAt).not.toBeNull();

    // Into an expense: the vendor is created as a Croatian contact with the OIB.
    const exp = await inject(s.token, 'POST', `/api/v1/purchase-invoices/${item.id}/expense`, {});
    expect(exp.statusCode).toBe(201);
    const vendor = await h.t.db.system
      .selectFrom('contacts')
      .selectAll()
      .where('id', '=', exp.json().vendorId)
      .executeTakeFirstOrThrow();
    expect(vendor).toMatchObject({ vat_number: OUR_OIB, country: 'HR' });
  });

  it('a document not fetched (intermediary down) stays unconfirmed and is fetched next time; stored once', async () => {
    const id = mer.addReceived(await supplierXml('Usluga B'), 'R-2', OUR_OIB);
    mer.failures.set('/apis/v2/receive', [{ status: 502 }]);
    expect(await runIntermediaryIntake(deps)).toBe(0);
    expect(mer.inbox.find((d) => d.id === id)?.imported).toBe(false);
    // The import confirmation lost: the next intake stores nothing twice and confirms again.
    mer.failures.set(`/apis/v2/notifyimport/${id}`, [{ status: 500 }]);
    expect(await runIntermediaryIntake(deps)).toBe(1);
    expect(mer.inbox.find((d) => d.id === id)?.imported).toBe(false);
    expect(await runIntermediaryIntake(deps)).toBe(0);
    expect(mer.inbox.find((d) => d.id === id)?.imported).toBe(true);
    const rows = await h.t.db.system
      .selectFrom('purchase_invoices')
      .select('id')
      .where('organization_id', '=', s.orgId)
      .where('external_id', '=', String(id))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it.skipIf(!HAVE_FISCAL)(
    'with fiscalization enabled, a received e-invoice is fiscalized as received (U) in the same way',
    async () => {
      // This service fiscalizes (Moj-eRačun is set not to): the U message is ours to send.
      await inject(s.token, 'PUT', '/api/v1/organization/intermediary', { ...SETTINGS, fiscalizationBy: 'service' });
      const put = await inject(s.token, 'PUT', '/api/v1/organization/fiscalization', {
        certificate: p12Of(cert!, 'Tajna-123'),
        password: 'Tajna-123',
        environment: 'test',
        enabled: true,
      });
      expect(put.statusCode).toBe(200);
      const id = mer.addReceived(await supplierXml('Usluga C'), 'R-3', OUR_OIB);
      expect(await runIntermediaryIntake(deps)).toBe(1);
      const row = await h.t.db.system
        .selectFrom('purchase_invoices')
        .select('id')
        .where('organization_id', '=', s.orgId)
        .where('external_id', '=', String(id))
        .executeTakeFirstOrThrow();
      const one = await inject(s.token, 'GET', `/api/v1/purchase-invoices/${row.id}`);
      expect(one.json().fiscalization.received).toMatchObject({ status: 'Fiscalized' });
      const got = fiscal!.received.find((r) => r.requestId === one.json().fiscalization.received.requestId)!;
      expect(got).toMatchObject({ root: 'EvidentirajERacunZahtjev', xsd: [], verified: true });
      expect(got.body).toContain('<fis:vrstaERacuna>U</fis:vrstaERacuna>');
    },
  );
});

describe('the Moj-eRačun adapter: send and status', { timeout: 60_000 }, () => {
  const adapter = (password = 'demo-pass') =>
    new MojERacunAdapter({
      baseUrl: mer.url,
      credentials: {
        username: 'demo-user',
        password,
        companyId: OUR_OIB,
        companyBu: null,
        softwareId: 'Ledgerline-001',
      },
      timeoutMs: 5000,
    });

  it('sends the UBL as File and reads the document id; its status; 5xx is for a retry, a refusal is not', async () => {
    // A fragment, not an e-invoice: the mock's check of the official rules is for the delivery tests.
    mer.validate = false;
    const xml = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>R-9</ID></Invoice>';
    const sent = await adapter().send(xml);
    expect(sent).toMatchObject({ ok: true, value: { status: 'Poslan' } });
    const id = sent.ok ? sent.value.documentId : '';
    expect(mer.sent.find((d) => String(d.id) === id)?.xml).toBe(xml);
    expect(await adapter().status(id)).toEqual({
      ok: true,
      value: { status: 'Poslan', delivery: 'sent', decision: null, reason: null },
    });
    mer.failures.set('/apis/v2/send', [{ status: 503 }]);
    expect(await adapter().send(xml)).toMatchObject({ ok: false, retry: true, status: 503 });
    mer.failures.set('/apis/v2/send', [{ drop: true }]);
    expect(await adapter().send(xml)).toMatchObject({ ok: false, retry: true, status: null });
    const refused = await adapter('wrong').send(xml);
    expect(refused).toMatchObject({ ok: false, retry: false, status: 401 });
    expect(refused.ok ? '' : refused.message).toContain('Korisničko ime i lozinka nisu ispravni.');
    mer.validate = true;
  });
});

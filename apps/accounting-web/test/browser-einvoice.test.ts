/// <reference path="../../../services/accounting/test/saxon-js.d.ts" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../../../services/accounting/src/modules/invoices/invoice-status.js';
import { buyer, seller, sentInvoice } from '../../../services/accounting/test/einvoice-fixtures.js';
import { EINVOICE_DIR } from '../../../services/accounting/test/einvoice-validation.js';
import { addMember, type Session } from '../../../services/accounting/test/helpers.js';
import { SefMock } from '../../../services/accounting/test/sef-mock.js';
import { enFull as en } from '../src/i18n/full/en.js';
import { hrFull as hr } from '../src/i18n/full/hr.js';
import { srFull as sr } from '../src/i18n/full/sr.js';
import { apiCall, browserHarness, fill, missing, newPage, STEP, screen, useLanguage } from './browser-harness.js';

/**
 * The e-invoice screens in Chromium against the real service and the local SEF (the accounting
 * service's test mock, over HTTP): SEF configured in Settings, an invoice sent to SEF, cancelled in
 * SEF, SEF's refusal shown with SEF's words, purchase invoices from SEF accepted and rejected, one made
 * an expense; a viewer sees no buttons. Screens in sr and en at 1280 and 375 px.
 */
if (missing) console.warn(missing);
const KEY = 'mock-api-key-0001';
const BUYER_PIB = '100000090';
let mock: SefMock;
/**
 * The Tax Administration's fiscalization service for the Croatian screens: answers each request with
 * the next queued answer (its request id put in), as the API tests' mock does.
 */
const fiscAnswers: string[] = [];
const fiscReceived: string[] = [];
const fiscServer = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  fiscReceived.push(body);
  const id = /fis:id="([^"]+)"/.exec(body)?.[1] ?? '';
  res
    .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
    .end((fiscAnswers.shift() ?? '').replaceAll('{id}', id));
});
const FISC_ACCEPTED = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>
  <fis:EvidentirajERacunOdgovor xmlns:fis="http://www.porezna-uprava.gov.hr/fin/2024/types/eFiskalizacija" fis:id="a1">
  <fis:datumVrijemeSlanja>2026-02-01T10:00:00.0000</fis:datumVrijemeSlanja>
  <fis:Odgovor><fis:idZahtjeva>{id}</fis:idZahtjeva><fis:prihvacenZahtjev>true</fis:prihvacenZahtjev></fis:Odgovor>
  </fis:EvidentirajERacunOdgovor></soapenv:Body></soapenv:Envelope>`;
/** The official failure sample (../shared/einvoice), when the checkout has it. */
const FISC_FAILED_FILE = `${EINVOICE_DIR}hr-fiscalization/Primjeri_poruka_eIzvjestavanja/Neuspjesan_Odgovor_EvidentirajNaplatu.xml`;
beforeAll(async () => {
  if (missing) return;
  mock = await new SefMock().start();
  mock.registeredPibs.add(BUYER_PIB);
  await new Promise<void>((r) => fiscServer.listen(0, '127.0.0.1', r));
}, 60_000);
afterAll(async () => {
  await mock?.stop();
  if (fiscServer.listening) await new Promise<void>((r) => fiscServer.close(() => r()));
});
const harness = browserHarness(() => ({
  SEF_BASE_URL: mock.url,
  SEF_DELIVERY_INTERVAL: '0s',
  SEF_SYNC_INTERVAL: '0s',
  FISCALIZATION_BASE_URL: `http://127.0.0.1:${(fiscServer.address() as AddressInfo).port}`,
}));
const line = { description: 'Konsultantske usluge', quantity: 2, unitPrice: 1000, taxRate: 20 };

/** Signs in on the (Serbian) sign-in page; the screens then follow the organization's language. */
async function signIn(page: Page, s: Session, then: Record<string, string> = sr) {
  await page.goto('/');
  await page.getByLabel(sr['auth.email']).fill(s.email);
  await page.getByLabel(sr['auth.password']).fill(s.password);
  await page.getByRole('button', { name: sr['auth.signIn'] }).click();
  await page.getByRole('heading', { name: then['dash.title'] }).waitFor();
}

const panel = (page: Page) => page.getByTestId('sef-panel');

describe.skipIf(missing)('e-invoice screens in Chromium (SEF)', () => {
  let owner: Session;
  let customerId: string;
  let supplierXml: string;

  beforeAll(async () => {
    const app = harness.h.app;
    owner = await seller(app, 'RS');
    customerId = (await buyer(app, owner, 'RS')).id;
    // The supplier: another Serbian organization whose invoice to ours is a real srbdt UBL.
    const supplier = await seller(app, 'RS');
    const toUs = await buyer(app, supplier, 'RS', {
      name: 'Prodavac Šumadija d.o.o.',
      vatNumber: 'RS101134702',
      registrationNumber: '17555555',
    });
    const inv = await sentInvoice(app, supplier, {
      customerId: toUs.id,
      invoiceDate: todayIso(),
      dueDate: todayIso(),
      items: [line, { ...line, description: 'Održavanje servera', quantity: 1, unitPrice: 500, taxRate: 10 }],
    });
    supplierXml = (
      await app.inject({
        method: 'GET',
        url: `/api/v1/invoices/${inv.id}/ubl`,
        headers: { authorization: `Bearer ${supplier.token}` },
      })
    ).body;
  }, 120_000);

  it(
    'SEF in Settings: the key is written, never shown; an invoice is sent to SEF, its status and SEF id shown, then cancelled',
    async () => {
      // Sent by e-mail before SEF was set up: no SEF state yet.
      const first = await sentInvoice(harness.h.app, owner, {
        customerId,
        invoiceDate: todayIso(),
        dueDate: todayIso(),
        items: [line],
      });
      const { context, page } = await newPage(harness);
      await signIn(page, owner);

      await page.goto(`/invoices/${first.id}`);
      await panel(page).getByText(sr['einvoice.sef.notSent']).waitFor();
      await panel(page).getByText(sr['einvoice.sef.disabled']).waitFor();
      expect(await panel(page).getByRole('button', { name: sr['einvoice.sef.send'] }).count()).toBe(0);

      // Settings, E-invoicing: the key, the environment, on.
      await panel(page).getByRole('link', { name: sr['einvoice.settingsTab'] }).click();
      await page.getByRole('tab', { name: sr['einvoice.settingsTab'] }).waitFor();
      await page.getByText(sr['einvoice.settings.apiKeyNone']).first().waitFor();
      await screen(page, 'einvoice-settings-sr-empty');
      await page.getByLabel(sr['einvoice.settings.apiKey']).fill(KEY);
      await page.getByLabel(sr['einvoice.settings.environment']).selectOption('demo');
      await page.getByRole('switch', { name: sr['einvoice.settings.enabled'] }).check({ force: true });
      await page.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByText(sr['einvoice.settings.saved']).waitFor();
      await page.getByText(sr['einvoice.settings.apiKeySet']).first().waitFor();
      // Write-only: the field is empty again and the key is nowhere on the page.
      expect(await page.getByLabel(sr['einvoice.settings.apiKey']).inputValue()).toBe('');
      expect(await page.content()).not.toContain(KEY);
      await page.getByText('/api/v1/sef/webhook/').waitFor();
      await screen(page, 'einvoice-settings-sr');
      const settings = await apiCall(harness, owner.token, 'GET', '/api/v1/organization/sef');
      expect(settings).toMatchObject({ enabled: true, apiKeySet: true, environment: 'demo' });

      // Send to SEF from the invoice page.
      await page.goto(`/invoices/${first.id}`);
      await panel(page).getByRole('button', { name: sr['einvoice.sef.send'] }).click();
      await panel(page).getByText(sr['einvoice.sefStatus.Sent'], { exact: true }).waitFor();
      const sef = (await apiCall(harness, owner.token, 'GET', `/api/v1/invoices/${first.id}/sef`)).sef;
      expect(sef.status).toBe('Sent');
      expect(mock.sales.get(sef.salesInvoiceId)?.requestId).toBe(sef.requestId);
      await panel(page).getByText(String(sef.salesInvoiceId), { exact: true }).waitFor();
      await panel(page).getByText(sef.requestId).waitFor();
      await screen(page, 'einvoice-invoice-sef-sent-sr');

      // Cancel in SEF with a reason (before the buyer acts).
      await panel(page).getByRole('button', { name: sr['einvoice.sef.cancel'] }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: sr['einvoice.sef.cancel'] }).click();
      await dialog.getByText(sr['app.invalidField']).waitFor();
      await dialog.getByLabel(sr['einvoice.sef.reason']).fill('Pogrešan kupac');
      await screen(page, 'einvoice-sef-cancel-dialog-sr');
      await dialog.getByRole('button', { name: sr['einvoice.sef.cancel'] }).click();
      await panel(page).getByText(sr['einvoice.sefStatus.Cancelled'], { exact: true }).waitFor();
      expect(mock.sales.get(sef.salesInvoiceId)).toMatchObject({ status: 'Cancelled', comment: 'Pogrešan kupac' });
      expect(await panel(page).getByRole('button', { name: sr['einvoice.sef.cancel'] }).count()).toBe(0);
      await context.close();
    },
    STEP * 3,
  );

  it(
    'send by e-mail with SEF on: registered at once; SEF refusing: its message shown, sent again; storno after approval',
    async () => {
      const { context, page } = await newPage(harness);
      await signIn(page, owner);
      const draft = await apiCall(harness, owner.token, 'POST', '/api/v1/invoices', {
        customerId,
        invoiceDate: todayIso(),
        dueDate: todayIso(),
        items: [line],
      });
      // SEF refuses the next upload with a validation error in its own words.
      mock.inject('sales-invoice/ubl', {
        kind: 'status',
        status: 400,
        body: {
          Message: 'Validation failed.',
          FieldErrors: [{ FieldName: 'InvoiceLine', ErrorMessage: 'Jedinica mere nije validna' }],
        },
      });
      await page.goto(`/invoices/${draft.id}`);
      await panel(page).getByText(sr['einvoice.sef.draftFirst']).waitFor();
      await page.getByRole('button', { name: sr['invoices.send'], exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: sr['invoices.send'] }).click();
      await panel(page).getByText(sr['einvoice.sefStatus.Failed'], { exact: true }).waitFor();
      await panel(page).getByText(sr['einvoice.sef.failed']).waitFor();
      await expect
        .poll(() => panel(page).getByTestId('sef-last-error').textContent())
        .toContain('Jedinica mere nije validna');
      await screen(page, 'einvoice-invoice-sef-refused-sr');

      await panel(page).getByRole('button', { name: sr['einvoice.sef.sendAgain'] }).click();
      await panel(page).getByText(sr['einvoice.sefStatus.Sent'], { exact: true }).waitFor();
      const sef = (await apiCall(harness, owner.token, 'GET', `/api/v1/invoices/${draft.id}/sef`)).sef;
      expect(sef.status).toBe('Sent');
      expect(await panel(page).getByTestId('sef-last-error').count()).toBe(0);

      // The buyer approves in SEF; SEF notifies (the webhook); then only a storno reverses it.
      const webhook = new URL((await apiCall(harness, owner.token, 'GET', '/api/v1/organization/sef')).webhookUrl)
        .pathname;
      const hook = await harness.h.app.inject({
        method: 'POST',
        url: webhook,
        payload: { SalesInvoiceId: sef.salesInvoiceId, NewInvoiceStatus: 'Approved' },
      });
      expect(hook.json()).toEqual({ applied: 1 });
      mock.setStatus(sef.salesInvoiceId, 'Approved', todayIso());
      await page.reload();
      await panel(page).getByText(sr['einvoice.sefStatus.Approved'], { exact: true }).waitFor();
      expect(await panel(page).getByRole('button', { name: sr['einvoice.sef.cancel'] }).count()).toBe(0);
      await panel(page).getByRole('button', { name: sr['einvoice.sef.storno'] }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(sr['einvoice.sef.reason']).fill('Povrat robe');
      await dialog.getByLabel(sr['einvoice.sef.stornoNumber']).fill('ST-1');
      await dialog.getByRole('button', { name: sr['einvoice.sef.storno'] }).click();
      await panel(page).getByText(sr['einvoice.sefStatus.Storno'], { exact: true }).waitFor();
      expect(mock.sales.get(sef.salesInvoiceId)?.status).toBe('Storno');

      // English.
      await useLanguage(page, 'en');
      await panel(page).getByText(en['einvoice.sefStatus.Storno'], { exact: true }).waitFor();
      await screen(page, 'einvoice-invoice-sef-en');
      await page.goto('/settings/einvoicing');
      await page.getByText(en['einvoice.settings.apiKeySet']).first().waitFor();
      await screen(page, 'einvoice-settings-en');
      await context.close();
    },
    STEP * 3,
  );

  it(
    'purchase invoices from SEF: listed, one accepted and made an expense, one rejected, with comments',
    async () => {
      const a = mock.addPurchase(supplierXml, todayIso());
      const b = mock.addPurchase(supplierXml.replace(/<cbc:ID>INV-/, '<cbc:ID>INV9-'), todayIso());
      const webhook = new URL((await apiCall(harness, owner.token, 'GET', '/api/v1/organization/sef')).webhookUrl)
        .pathname;
      // SEF notifies the two received invoices; the service fetches each one's UBL.
      const hook = await harness.h.app.inject({
        method: 'POST',
        url: webhook,
        payload: [{ PurchaseInvoiceId: a }, { PurchaseInvoiceId: b }],
      });
      expect(hook.json()).toEqual({ applied: 2 });
      const list = (await apiCall(harness, owner.token, 'GET', '/api/v1/purchase-invoices')).data as Array<{
        id: string;
        externalId: string;
        invoiceNumber: string;
      }>;
      const pa = list.find((p) => p.externalId === String(a))!;
      const pb = list.find((p) => p.externalId === String(b))!;

      const { context, page } = await newPage(harness);
      await signIn(page, owner);
      await page.getByRole('link', { name: sr['nav.purchaseInvoices'] }).first().click();
      await page.getByRole('heading', { name: sr['purchases.title'] }).waitFor();
      const table = page.getByRole('region', { name: sr['purchases.title'] });
      await table.getByRole('link', { name: pa.invoiceNumber }).waitFor();
      await table.getByRole('link', { name: pb.invoiceNumber }).waitFor();
      expect(await table.getByText('2.950,00 RSD').count()).toBe(2);
      await screen(page, 'einvoice-purchases-sr');

      // Accept the first with a comment, then make it an expense.
      await table.getByRole('link', { name: pa.invoiceNumber }).click();
      await page.getByRole('heading', { name: pa.invoiceNumber }).waitFor();
      await page.getByRole('cell', { name: 'Održavanje servera' }).waitFor();
      await page.getByText('Prodavac Šumadija d.o.o.').first().waitFor();
      expect(await page.getByTestId('purchase-total').textContent()).toBe('2.950,00 RSD');
      await screen(page, 'einvoice-purchase-sr');
      await page.getByRole('button', { name: sr['purchases.accept'] }).click();
      let dialog = page.getByRole('dialog', { name: fill(sr['purchases.acceptTitle'], { number: pa.invoiceNumber }) });
      await dialog.getByLabel(sr['purchases.comment']).fill('Sve u redu');
      await screen(page, 'einvoice-purchase-accept-sr');
      await dialog.getByRole('button', { name: sr['purchases.accept'] }).click();
      await page.getByText(sr['einvoice.sefStatus.Approved'], { exact: true }).waitFor();
      await page.getByText('Sve u redu').waitFor();
      expect(mock.purchases.get(a)).toMatchObject({ status: 'Approved', comment: 'Sve u redu' });
      expect(await page.getByRole('button', { name: sr['purchases.reject'] }).count()).toBe(0);
      await page.getByRole('button', { name: sr['purchases.toExpense'] }).click();
      await page.getByText(sr['purchases.expenseMade']).waitFor();
      expect(await page.getByRole('button', { name: sr['purchases.toExpense'] }).count()).toBe(0);
      const expenses = await apiCall(harness, owner.token, 'GET', '/api/v1/expenses');
      expect(expenses.data.some((e: { amount: string }) => e.amount === '2950.00')).toBe(true);
      await screen(page, 'einvoice-purchase-accepted-sr');

      // Reject the second.
      await page.getByRole('link', { name: sr['purchases.back'] }).click();
      await table.getByRole('link', { name: pb.invoiceNumber }).click();
      await page.getByRole('heading', { name: pb.invoiceNumber }).waitFor();
      await page.getByRole('button', { name: sr['purchases.reject'] }).click();
      dialog = page.getByRole('dialog', { name: fill(sr['purchases.rejectTitle'], { number: pb.invoiceNumber }) });
      await dialog.getByLabel(sr['purchases.comment']).fill('Pogrešan iznos');
      await dialog.getByRole('button', { name: sr['purchases.reject'] }).click();
      await page.getByText(sr['einvoice.sefStatus.Rejected'], { exact: true }).waitFor();
      expect(mock.purchases.get(b)).toMatchObject({ status: 'Rejected', comment: 'Pogrešan iznos' });
      expect(await page.getByRole('button', { name: sr['purchases.toExpense'] }).count()).toBe(0);

      // The list filtered by status; then English.
      await page.goto('/purchase-invoices?status=Rejected');
      await table.getByRole('link', { name: pb.invoiceNumber }).waitFor();
      expect(await table.getByRole('link', { name: pa.invoiceNumber }).count()).toBe(0);
      await useLanguage(page, 'en');
      // Wait for the reloaded page (its session refresh) before moving on; then navigate in the app.
      await page.getByRole('heading', { name: en['purchases.title'] }).waitFor();
      await page.getByRole('link', { name: en['nav.purchaseInvoices'] }).first().click();
      const enTable = page.getByRole('region', { name: en['purchases.title'] });
      await enTable.getByRole('link', { name: pa.invoiceNumber }).waitFor();
      await screen(page, 'einvoice-purchases-en');
      await enTable.getByRole('link', { name: pa.invoiceNumber }).click();
      // The list may still be on screen for a moment (its own badge says Approved): wait for the invoice's page.
      await page.getByRole('heading', { name: pa.invoiceNumber }).waitFor();
      await enTable.waitFor({ state: 'detached' });
      await page.getByText(en['einvoice.sefStatus.Approved'], { exact: true }).waitFor();
      await screen(page, 'einvoice-purchase-en');
      await context.close();
    },
    STEP * 3,
  );

  it(
    'a viewer sees the statuses and settings but no button',
    async () => {
      const viewer = await addMember(harness.h.app, owner, 'viewer');
      const inv = (await apiCall(harness, owner.token, 'GET', '/api/v1/invoices?status=sent&perPage=1')).data[0];
      const purchase = (await apiCall(harness, owner.token, 'GET', '/api/v1/purchase-invoices?status=New')).data;
      const { context, page } = await newPage(harness);
      await signIn(page, viewer);
      await page.goto(`/invoices/${inv.id}`);
      await panel(page).getByText(sr['einvoice.sef.requestId']).waitFor();
      expect(await panel(page).getByRole('button').count()).toBe(0);
      await page.goto('/settings/einvoicing');
      await page.getByText(sr['einvoice.settings.readOnly']).waitFor();
      expect(await page.getByRole('button', { name: sr['app.save'] }).count()).toBe(0);
      expect(await page.getByText('/api/v1/sef/webhook/').count()).toBe(0);
      await screen(page, 'einvoice-settings-viewer-sr');
      await page.goto('/purchase-invoices');
      await page.getByRole('region', { name: sr['purchases.title'] }).waitFor();
      const any = (await apiCall(harness, owner.token, 'GET', '/api/v1/purchase-invoices')).data[0];
      await page.goto(`/purchase-invoices/${(purchase[0] ?? any).id}`);
      await page.getByTestId('purchase-total').waitFor();
      expect(await page.getByRole('button', { name: sr['purchases.accept'] }).count()).toBe(0);
      expect(await page.getByRole('button', { name: sr['purchases.toExpense'] }).count()).toBe(0);
      await context.close();
    },
    STEP * 2,
  );
});

/** A test PKCS#12 (never a real certificate): RSA 2048, self-signed, "FISKAL 1", password Tajna-123. */
function testP12(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'hr-p12-'));
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  run(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/C=HR/O=Test d.o.o./CN=FISKAL 1'].concat([
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]),
  );
  run(
    ['pkcs12', '-export', '-inkey', join(dir, 'key.pem'), '-in', join(dir, 'cert.pem')].concat([
      '-passout',
      'pass:Tajna-123',
      '-out',
      join(dir, 'c.p12'),
    ]),
  );
  return readFileSync(join(dir, 'c.p12'));
}

const fiscPanel = (page: Page) => page.getByTestId('fiscalization-panel');

describe.skipIf(missing)('e-invoice screens in Chromium (Croatian fiscalization)', () => {
  it(
    'the owner uploads the certificate in Settings; an invoice is fiscalized, another refused with the codes',
    async () => {
      const app = harness.h.app;
      const owner = await seller(app, 'HR');
      const customerId = (await buyer(app, owner, 'HR')).id;
      const item = { description: 'Usluga', quantity: 1, unitPrice: 100, taxRate: 25, classificationCode: '62.10.11' };
      const inv = await sentInvoice(app, owner, {
        customerId,
        invoiceDate: todayIso(),
        dueDate: todayIso(),
        items: [item],
      });
      const { context, page } = await newPage(harness);
      await signIn(page, owner, hr);
      await page.goto(`/invoices/${inv.id}`);
      await fiscPanel(page).getByText(hr['einvoice.fisc.none']).waitFor();
      await fiscPanel(page).getByText(hr['einvoice.fisc.noCertificate']).waitFor();
      expect(await fiscPanel(page).getByRole('button').count()).toBe(0);
      // No SEF in Croatia; received e-invoices come through the intermediary (browser-einvoice-hr.test.ts).
      expect(await page.getByTestId('sef-panel').count()).toBe(0);
      expect(await page.getByRole('link', { name: hr['nav.purchaseInvoices'] }).count()).toBeGreaterThan(0);

      await fiscPanel(page).getByRole('link', { name: hr['einvoice.settingsTab'] }).click();
      await page.getByText(hr['einvoice.settings.noCertificate']).waitFor();
      // Without a file: the field says so, nothing is sent.
      await page.getByRole('button', { name: hr['einvoice.settings.upload'] }).click();
      await page.getByText(hr['app.invalidField']).waitFor();
      await page.locator('input[type="file"]').setInputFiles({
        name: 'fiskal.p12',
        mimeType: 'application/x-pkcs12',
        buffer: testP12(),
      });
      await page.getByText('fiskal.p12').waitFor();
      await page.getByLabel(hr['einvoice.settings.password']).fill('kriva');
      await page.getByRole('switch', { name: hr['einvoice.settings.fiscEnabled'] }).check({ force: true });
      await page.getByRole('button', { name: hr['einvoice.settings.upload'] }).click();
      await page.getByRole('alert', { name: hr['app.error'] }).waitFor();
      await page.getByLabel(hr['einvoice.settings.password']).fill('Tajna-123');
      await page.getByRole('button', { name: hr['einvoice.settings.upload'] }).click();
      await page.getByText(hr['einvoice.settings.saved']).waitFor();
      await page.getByText(/FISKAL 1/).waitFor();
      expect(await page.content()).not.toContain('Tajna-123');
      await screen(page, 'einvoice-settings-fiscalization-hr');

      fiscAnswers.push(FISC_ACCEPTED);
      await page.goto(`/invoices/${inv.id}`);
      await fiscPanel(page).getByRole('button', { name: hr['einvoice.fisc.fiscalize'] }).click();
      await fiscPanel(page).getByText(hr['einvoice.fiscStatus.Fiscalized'], { exact: true }).waitFor();
      const fisc = (await apiCall(harness, owner.token, 'GET', `/api/v1/invoices/${inv.id}/fiscalization`))
        .fiscalization;
      expect(fisc.status).toBe('Fiscalized');
      await fiscPanel(page).getByText(fisc.requestId).waitFor();
      expect(fiscReceived.at(-1)).toContain(`fis:id="${fisc.requestId}"`);
      expect(await fiscPanel(page).getByRole('button').count()).toBe(0);
      await screen(page, 'einvoice-invoice-fiscalized-hr');

      if (existsSync(FISC_FAILED_FILE)) {
        fiscAnswers.push(readFileSync(FISC_FAILED_FILE, 'utf8'));
        const inv2 = await sentInvoice(app, owner, {
          customerId,
          invoiceDate: todayIso(),
          dueDate: todayIso(),
          items: [{ ...item, taxRate: 13 }],
        });
        await page.goto(`/invoices/${inv2.id}`);
        // Fiscalized by hand here; a service that fiscalizes on send has done it already.
        const failed = fiscPanel(page).getByText(hr['einvoice.fiscStatus.Failed'], { exact: true });
        const button = fiscPanel(page).getByRole('button', { name: hr['einvoice.fisc.fiscalize'], exact: true });
        await failed.or(button).first().waitFor();
        if (await button.isVisible()) await button.click();
        await failed.waitFor();
        await fiscPanel(page).getByText(/S009/).waitFor();
        await fiscPanel(page).getByRole('button', { name: hr['einvoice.fisc.again'] }).waitFor();
        await screen(page, 'einvoice-invoice-fiscalization-refused-hr');
      }

      // An accountant fiscalizes but does not upload the certificate.
      const accountant = await addMember(app, owner, 'accountant');
      const other = await newPage(harness);
      await signIn(other.page, accountant, hr);
      await other.page.goto('/settings/einvoicing');
      await other.page.getByText(hr['einvoice.settings.ownerOnly']).waitFor();
      expect(await other.page.getByRole('button', { name: hr['einvoice.settings.upload'] }).count()).toBe(0);
      await other.context.close();
      await context.close();
    },
    STEP * 3,
  );
});

import dayjs from 'dayjs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { moneyHr } from '../src/i18n/areas/money.hr.js';
import { moneySr } from '../src/i18n/areas/money.sr.js';
import { hr as hrBase } from '../src/i18n/hr.js';
import { sr as srBase } from '../src/i18n/sr.js';
import {
  apiCall,
  apiLogin,
  browserHarness,
  fill,
  missing,
  newPage,
  pickOption,
  registerThroughForm,
  STEP,
  screen,
  srMoney,
  unique,
  useLanguage,
} from './browser-harness.js';

/**
 * The money screens in Chromium against the real service: an expense with a receipt approved and
 * paid, a bank account with an imported statement reconciled against an invoice, an expense payment
 * and a new entry; a viewer sees none of the buttons. Screens in sr and hr at 1280 and 375 px.
 */
if (missing) console.warn(missing);
/** The screens' messages: the base catalog and the money area's (added when the signed-in frame loads). */
const sr = { ...srBase, ...moneySr };
const hr = { ...hrBase, ...moneyHr };
const harness = browserHarness();
const PASSWORD = 'Lozinka-2026';
const TODAY = dayjs().format('YYYY-MM-DD');
const YEAR = TODAY.slice(0, 4);

/** A receipt as a shop prints it, photographed: rendered by the browser itself as PNG, or printed to PDF. */
async function receipt(browser: Browser, kind: 'png' | 'pdf'): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 360, height: 420 } });
  await page.setContent(
    `<body style="font:16px monospace;padding:16px;background:#fffef5"><h2>Papirnica d.o.o.</h2>
     <p>PIB 100000001</p><p>Papir A4 x 5 ...... 2.000,00</p><p>PDV 20% ......... 400,00</p>
     <p><b>UKUPNO .......... 2.400,00</b></p></body>`,
  );
  const data =
    kind === 'png' ? await page.screenshot({ type: 'png' }) : await page.pdf({ width: '80mm', height: '120mm' });
  await page.close();
  return Buffer.from(data);
}

/** The expense list (its scrolling region), not the filter's hidden options. */
const table = (page: Page) => page.getByRole('region', { name: sr['expenses.title'] });

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.getByLabel(sr['auth.email']).fill(email);
  await page.getByLabel(sr['auth.password']).fill(password);
  await page.getByRole('button', { name: sr['auth.signIn'] }).click();
  await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();
}

describe.skipIf(missing)('money screens in Chromium', () => {
  it(
    'expense with a receipt: create by drag and drop, preview, approve, pay; another rejected; filters',
    async () => {
      const { context, page } = await newPage(harness);
      const email = unique('exp');
      await registerThroughForm(page, email, PASSWORD);
      const token = await apiLogin(harness, email, PASSWORD);
      await apiCall(harness, token, 'POST', '/api/v1/contacts', {
        type: 'vendor',
        name: 'Papirnica d.o.o.',
        country: 'RS',
      });
      await apiCall(harness, token, 'POST', '/api/v1/bank-accounts', {
        accountId: (await apiCall(harness, token, 'GET', '/api/v1/accounts?accountTypeId=1')).data.find(
          (a: { code: string }) => a.code === '1100',
        ).id,
        bankName: 'Banka Intesa',
        accountNumber: '160-0000000000001-11',
        currencyCode: 'RSD',
        currentBalance: 100000,
      });

      await page.getByRole('link', { name: sr['nav.expenses'] }).first().click();
      await page.getByText(sr['expenses.none']).waitFor();
      await screen(page, 'money-expenses-empty');

      // Create with a PNG receipt dropped on the zone (the zone's file input takes the file).
      await page.getByRole('button', { name: sr['expenses.new'] }).click();
      const dialog = page.getByRole('dialog');
      await pickOption(page, sr['expenses.vendor'], 'Papirnica d.o.o.');
      await dialog.getByLabel(sr['expenses.category']).fill(sr['expenses.cat.office']);
      await dialog.getByLabel(sr['expenses.amount']).fill('2400');
      await dialog.getByLabel(sr['expenses.taxAmount']).fill('400');
      await dialog.getByLabel(sr['expenses.description']).fill('Papir A4');
      await dialog
        .locator('input[type="file"]')
        .setInputFiles({ name: 'racun.png', mimeType: 'image/png', buffer: await receipt(harness.browser, 'png') });
      await dialog.getByText('racun.png').waitFor();
      await screen(page, 'money-expense-form');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      const number = `EXP-${YEAR}-0001`;
      await page.getByRole('cell', { name: number, exact: true }).waitFor();
      expect(await page.getByRole('cell', { name: '2.400,00 RSD' }).count()).toBe(1);

      // The receipt shown inline, as the service stored it.
      await page.getByRole('button', { name: fill(sr['expenses.showReceipt'], { number }) }).click();
      const image = page.getByRole('img', { name: fill(sr['expenses.receiptOf'], { number }) });
      await image.waitFor();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
      await screen(page, 'money-receipt-image');
      await page.getByRole('dialog').getByRole('button', { name: sr['app.close'] }).click();

      // Approve, then pay from the bank account.
      await page.getByRole('button', { name: fill(sr['expenses.approveNumber'], { number }) }).click();
      await page.getByRole('button', { name: fill(sr['expenses.payNumber'], { number }) }).click();
      const pay = page.getByRole('dialog');
      await expect
        .poll(() => pay.getByRole('textbox', { name: sr['expenses.payFrom'] }).inputValue())
        .toContain('Banka Intesa');
      await screen(page, 'money-expense-pay');
      await pay.getByRole('button', { name: sr['expenses.pay'], exact: true }).click();
      await table(page).getByText(sr['expStatus.paid'], { exact: true }).waitFor();

      // A second expense with a PDF receipt: embedded in the page; then rejected.
      await page.getByRole('button', { name: sr['expenses.new'] }).click();
      await dialog.getByLabel(sr['expenses.category']).fill(sr['expenses.cat.travel']);
      await dialog.getByLabel(sr['expenses.amount']).fill('1234,5');
      await dialog.locator('input[type="file"]').setInputFiles({
        name: 'karta.pdf',
        mimeType: 'application/pdf',
        buffer: await receipt(harness.browser, 'pdf'),
      });
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      const second = `EXP-${YEAR}-0002`;
      await page.getByRole('cell', { name: second, exact: true }).waitFor();
      await page.getByRole('cell', { name: '1.234,50 RSD' }).waitFor();
      await page.getByRole('button', { name: fill(sr['expenses.showReceipt'], { number: second }) }).click();
      await page.locator(`iframe[title="${fill(sr['expenses.receiptOf'], { number: second })}"]`).waitFor();
      await page.getByRole('link', { name: sr['expenses.openReceipt'] }).waitFor();
      await page.getByRole('dialog').getByRole('button', { name: sr['app.close'] }).click();

      // Edit the pending expense: its stored values in the form, a new amount and description, and a
      // new receipt (a photo instead of the PDF).
      await page.getByRole('button', { name: fill(sr['expenses.editNumber'], { number: second }) }).click();
      const edit = page.getByRole('dialog', { name: fill(sr['expenses.editTitle'], { number: second }) });
      await edit.getByText(sr['expenses.replaceReceipt']).waitFor();
      expect(await edit.getByLabel(sr['expenses.category']).inputValue()).toBe(sr['expenses.cat.travel']);
      expect(await edit.getByLabel(sr['expenses.amount']).inputValue()).toContain('1.234,5');
      await edit.getByLabel(sr['expenses.amount']).fill('1300');
      await edit.getByLabel(sr['expenses.description']).fill('Autobuska karta');
      await edit
        .locator('input[type="file"]')
        .setInputFiles({ name: 'karta.png', mimeType: 'image/png', buffer: await receipt(harness.browser, 'png') });
      await edit.getByText('karta.png').waitFor();
      await screen(page, 'money-expense-edit');
      await edit.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByRole('cell', { name: '1.300,00 RSD' }).waitFor();
      expect(await page.getByRole('cell', { name: '1.234,50 RSD' }).count()).toBe(0);
      const edited = await apiCall(harness, token, 'GET', '/api/v1/expenses');
      const secondId = edited.data.find((e: { expenseNumber: string }) => e.expenseNumber === second).id;
      expect(await apiCall(harness, token, 'GET', `/api/v1/expenses/${secondId}`)).toMatchObject({
        amount: '1300.00',
        status: 'pending',
        description: 'Autobuska karta',
      });
      await page.getByRole('button', { name: fill(sr['expenses.showReceipt'], { number: second }) }).click();
      await page.getByRole('img', { name: fill(sr['expenses.receiptOf'], { number: second }) }).waitFor();
      await page.getByRole('dialog').getByRole('button', { name: sr['app.close'] }).click();

      await page.getByRole('button', { name: fill(sr['expenses.rejectNumber'], { number: second }) }).click();
      await page.getByRole('dialog').getByLabel(sr['expenses.reason']).fill('Privatni put');
      await page.getByRole('dialog').getByRole('button', { name: sr['expenses.reject'], exact: true }).click();
      await table(page).getByText(sr['expStatus.rejected'], { exact: true }).waitFor();
      await screen(page, 'money-expenses');

      // The status filter lives in the address.
      await pickOption(page, sr['expenses.status'], sr['expStatus.paid']);
      await expect.poll(() => page.getByRole('cell', { name: second, exact: true }).count()).toBe(0);
      await page.getByRole('cell', { name: number, exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('paid');

      // The same screen in Croatian.
      await useLanguage(page, 'hr');
      await page.getByRole('heading', { name: hr['expenses.title'] }).waitFor();
      await page.getByRole('cell', { name: number, exact: true }).waitFor();
      await screen(page, 'money-expenses-hr');
      await context.close();
    },
    STEP * 5,
  );

  it(
    'banking: create a bank account, import a statement (summary with errors, then duplicates), reconcile against an invoice, an expense payment and a new entry; a viewer only reads',
    async () => {
      const { context, page } = await newPage(harness);
      const email = unique('bank');
      await registerThroughForm(page, email, PASSWORD);
      const token = await apiLogin(harness, email, PASSWORD);

      // Fixtures made through the API (their own screens are tested elsewhere): a sent invoice, an approved expense.
      const customer = await apiCall(harness, token, 'POST', '/api/v1/contacts', {
        type: 'customer',
        name: 'Kupac a.d.',
        email: 'kupac@example.test',
        country: 'RS',
      });
      const invoice = await apiCall(harness, token, 'POST', '/api/v1/invoices', {
        customerId: customer.id,
        invoiceDate: TODAY,
        dueDate: dayjs().add(15, 'day').format('YYYY-MM-DD'),
        items: [{ description: 'Knjigovodstvene usluge', quantity: 3, unitPrice: 1234.5, taxRate: 20 }],
      });
      await apiCall(harness, token, 'PATCH', `/api/v1/invoices/${invoice.id}/status`, { action: 'send' });
      // A hundred newer drafts: the line is still offered the open invoice (the screen asks for open invoices,
      // not for the newest 100 of any status).
      for (let n = 1; n <= 100; n++)
        await apiCall(harness, token, 'POST', '/api/v1/invoices', {
          customerId: customer.id,
          invoiceDate: dayjs().add(1, 'day').format('YYYY-MM-DD'),
          dueDate: dayjs().add(16, 'day').format('YYYY-MM-DD'),
          items: [{ description: `Nacrt ${n}`, quantity: 1, unitPrice: 100, taxRate: 20 }],
        });
      const expense = await apiCall(harness, token, 'POST', '/api/v1/expenses', {
        expenseDate: TODAY,
        category: 'Zakup',
        amount: 36000,
      });
      await apiCall(harness, token, 'PATCH', `/api/v1/expenses/${expense.id}/approve`);

      await page.getByRole('link', { name: sr['nav.banking'] }).first().click();
      await page.getByText(sr['banking.empty']).waitFor();
      await screen(page, 'money-banking-empty');
      await page.getByRole('button', { name: sr['banking.new'] }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(sr['banking.bankName']).fill('Banka Intesa');
      await dialog.getByLabel(sr['banking.accountNumber']).fill('160-0000000000001-11');
      await expect
        .poll(() => dialog.getByRole('textbox', { name: sr['banking.ledgerAccount'] }).inputValue())
        .toMatch(/^1100 /);
      await dialog.getByLabel(sr['banking.openingBalance']).fill('50000');
      await screen(page, 'money-bank-form');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByRole('cell', { name: '50.000,00 RSD' }).waitFor();
      await screen(page, 'money-banking');
      const banks = await apiCall(harness, token, 'GET', '/api/v1/bank-accounts');
      const bank = banks.data[0];
      // The expense is paid from this account (a posting the statement line will match).
      await apiCall(harness, token, 'PATCH', `/api/v1/expenses/${expense.id}/pay`, {
        paidAt: TODAY,
        bankAccountId: bank.id,
      });

      await page.getByRole('link', { name: 'Banka Intesa' }).click();
      await page.getByRole('heading', { name: sr['banking.import'] }).waitFor();
      await page.getByText(sr['recon.allDone']).waitFor();

      // A Serbian bank's export: `;`, local dates, split money-out / money-in columns, one bad date (line 5).
      const d = dayjs().format('DD.MM.YYYY');
      const csv = [
        'Datum;Opis;Poziv na broj;Duguje;Potražuje',
        `${d};Uplata Kupac a.d.;${invoice.invoiceNumber};;${srMoney(invoice.totalAmount)}`,
        `${d};Plaćanje ${expense.expenseNumber} zakup;;36.000,00;`,
        `${d};Provizija banke;;150,00;`,
        '32.13.2026;Pogrešan datum;;10,00;',
      ].join('\r\n');
      const file = { name: 'izvod.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.getByText('izvod.csv').waitFor();
      await page.getByRole('button', { name: sr['banking.importButton'] }).click();
      const summary = page.getByTestId('import-summary');
      await summary.getByText(fill(sr['banking.imported'], { n: 3 })).waitFor();
      await summary.getByText(fill(sr['banking.duplicates'], { n: 0 })).waitFor();
      await summary.getByText(fill(sr['banking.errorCount'], { n: 1 })).waitFor();
      await summary.getByRole('cell', { name: '5', exact: true }).waitFor();
      // Lines came in and one row was skipped: an orange "imported, rows skipped" title, not a red failure;
      // the row's problem as the service words it, marked with the organization's language.
      await summary.getByText(fill(sr['banking.importPartly'], { n: 1 })).waitFor();
      expect(await summary.getAttribute('data-outcome')).toBe('partly');
      const rowError = summary.getByTestId('import-row-error').locator('td').nth(1);
      expect(await rowError.getAttribute('lang')).toBe('sr');
      expect((await rowError.textContent())?.trim().length).toBeGreaterThan(3);
      await expect.poll(() => page.getByTestId('bank-line').count()).toBe(3);
      await screen(page, 'money-import-summary');

      // The same file again: nothing new, three duplicates.
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.getByRole('button', { name: sr['banking.importButton'] }).click();
      await summary.getByText(fill(sr['banking.duplicates'], { n: 3 })).waitFor();
      await summary.getByText(fill(sr['banking.imported'], { n: 0 })).waitFor();

      // The expense payment: the service's suggestion, accepted in the line.
      const expenseLine = page.getByTestId('bank-line').filter({ hasText: expense.expenseNumber });
      await expenseLine.getByText(sr['recon.suggested']).waitFor();
      await expenseLine.getByText(fill(sr['recon.score'], { score: 100 })).waitFor();
      await screen(page, 'money-reconcile');
      await expenseLine.getByRole('button', { name: sr['recon.accept'] }).click();
      await expect.poll(() => page.getByTestId('bank-line').count()).toBe(2);

      // The customer's payment: no posting yet, so the invoice is marked paid from this line and matched.
      const invoiceLine = page.getByTestId('bank-line').filter({ hasText: invoice.invoiceNumber });
      await invoiceLine.getByText(sr['recon.noSuggestion']).waitFor();
      await invoiceLine.getByRole('button', { name: sr['recon.more'] }).click();
      const match = page.getByRole('dialog');
      const payInvoice = match.getByRole('button', {
        name: fill(sr['recon.payAndMatchNumber'], { number: invoice.invoiceNumber }),
      });
      await payInvoice.waitFor();
      await screen(page, 'money-match-dialog');
      // One request pays and matches, in one transaction (no separate mark-paid to leave behind).
      const writes: string[] = [];
      const onRequest = (r: { method(): string; url(): string }) => {
        if (r.method() !== 'GET') writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
      };
      page.on('request', onRequest);
      await payInvoice.click();
      await expect.poll(() => page.getByTestId('bank-line').count()).toBe(1);
      page.off('request', onRequest);
      expect(writes).toEqual([`POST /api/v1/bank-accounts/${bank.id}/reconcile`]);
      const paid = await apiCall(harness, token, 'GET', `/api/v1/invoices/${invoice.id}`);
      expect(paid.status).toBe('paid');

      // The bank fee: a new entry against general expenses, matched at once.
      const feeLine = page.getByTestId('bank-line').filter({ hasText: 'Provizija banke' });
      await feeLine.getByRole('button', { name: sr['recon.more'] }).click();
      await pickOption(page, sr['recon.counterAccount'], '5000 Opšti troškovi');
      writes.length = 0;
      page.on('request', onRequest);
      await match.getByRole('button', { name: sr['recon.postAndMatch'] }).click();
      await page.getByText(sr['recon.allDone']).waitFor();
      page.off('request', onRequest);
      // The posting and its match in one request too (no lone posting left if the match is refused).
      expect(writes).toEqual([`POST /api/v1/bank-accounts/${bank.id}/reconcile`]);

      // All lines: three reconciled; the balance moved by the statement.
      await page.getByText(sr['recon.all'], { exact: true }).click();
      await expect.poll(() => page.getByText(sr['recon.reconciled'], { exact: true }).count()).toBe(3);
      const expected = 50000 + Number(invoice.totalAmount) - 36000 - 150;
      await page
        .getByTestId('bank-balance')
        .filter({ hasText: `${srMoney(String(expected))} RSD` })
        .waitFor();
      const lines = await apiCall(
        harness,
        token,
        'GET',
        `/api/v1/bank-accounts/${bank.id}/transactions?reconciled=false`,
      );
      expect(lines.meta.total).toBe(0);
      await screen(page, 'money-reconciled');
      // A wrong match is undone: the line waits again and its posting, still in the ledger, is offered
      // for it again (accepted here, which restores the match).
      page.once('dialog', (d) => d.accept());
      await feeLine.getByRole('button', { name: sr['recon.undo'] }).click();
      await expect.poll(() => page.getByText(sr['recon.reconciled'], { exact: true }).count()).toBe(2);
      const reopened = await apiCall(
        harness,
        token,
        'GET',
        `/api/v1/bank-accounts/${bank.id}/transactions?reconciled=false`,
      );
      expect(reopened.data.map((l: { description: string }) => l.description)).toEqual(['Provizija banke']);
      await page.getByText(sr['recon.open'], { exact: true }).click();
      await feeLine.getByText(sr['recon.suggested']).waitFor();
      await feeLine.getByRole('button', { name: sr['recon.accept'] }).click();
      await page.getByText(sr['recon.allDone']).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await useLanguage(page, 'hr');
      await page.getByRole('heading', { name: hr['banking.import'] }).waitFor();
      await page.getByText(hr['recon.allDone']).waitFor();
      await screen(page, 'money-reconciled-hr');
      await page.goto('/banking');
      await page.getByRole('cell', { name: 'Banka Intesa' }).waitFor();
      await screen(page, 'money-banking-hr');

      // A viewer reads the same screens without a single write button.
      const viewerEmail = unique('viewer');
      const invite = await apiCall(harness, token, 'POST', '/api/v1/users/invite', {
        email: viewerEmail,
        fullName: 'Vera Viewer',
        role: 'viewer',
      });
      const inviteToken = new URL(invite.inviteLink).searchParams.get('token');
      const accepted = await harness.h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/accept-invite',
        payload: { token: inviteToken, password: 'Viewer-Lozinka-1' },
      });
      expect(accepted.statusCode).toBeLessThan(300);
      const viewer = await newPage(harness);
      await signIn(viewer.page, viewerEmail, 'Viewer-Lozinka-1');
      const vp = viewer.page;
      await vp.goto('/banking');
      await vp.getByRole('cell', { name: 'Banka Intesa' }).waitFor();
      expect(await vp.getByRole('button', { name: sr['banking.new'] }).count()).toBe(0);
      await vp.getByRole('link', { name: 'Banka Intesa' }).click();
      await vp.getByRole('heading', { name: sr['recon.title'] }).waitFor();
      await vp.getByText(sr['recon.all'], { exact: true }).click();
      await expect.poll(() => vp.getByTestId('bank-line').count()).toBe(3);
      expect(await vp.getByRole('heading', { name: sr['banking.import'] }).count()).toBe(0);
      expect(await vp.getByRole('button', { name: sr['recon.accept'] }).count()).toBe(0);
      expect(await vp.getByRole('button', { name: sr['recon.undo'] }).count()).toBe(0);
      await vp.goto('/expenses');
      await vp.getByRole('cell', { name: expense.expenseNumber, exact: true }).waitFor();
      expect(await vp.getByRole('button', { name: sr['expenses.new'] }).count()).toBe(0);
      expect(await vp.getByRole('columnheader', { name: sr['expenses.actions'] }).count()).toBe(0);
      expect(await vp.getByRole('button', { name: sr['app.edit'] }).count()).toBe(0);
      await screen(vp, 'money-expenses-viewer');
      await viewer.context.close();
      await context.close();
    },
    STEP * 6,
  );
  it(
    'a full month: register, invite an accountant who accepts, customer, invoice sent, expense with receipt, statement import, reconciliation, the month on the dashboard',
    async () => {
      const { context, page } = await newPage(harness);
      const email = unique('month');
      await registerThroughForm(page, email, PASSWORD, 'Mesec d.o.o.');
      const token = await apiLogin(harness, email, PASSWORD);

      // The owner invites an accountant (the users screen is another helper's), who sets a password on the link's page.
      const invite = await apiCall(harness, token, 'POST', '/api/v1/users/invite', {
        email: unique('accountant'),
        fullName: 'Petar Knjigovođa',
        role: 'accountant',
      });
      const link = new URL(invite.inviteLink);
      const accountant = await newPage(harness);
      const ap = accountant.page;
      await ap.goto(link.pathname + link.search);
      await ap.getByLabel(sr['auth.password']).fill('Knjigovodja-2026');
      await ap.getByRole('button', { name: sr['auth.accept'] }).click();
      await ap.getByRole('heading', { name: sr['dash.title'] }).waitFor();

      // Owner: the customer and the invoice, sent.
      await page.getByRole('link', { name: sr['nav.contacts'] }).first().click();
      await page.getByRole('button', { name: sr['contacts.new'] }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(sr['contacts.name']).fill('Kupac a.d.');
      await dialog.getByLabel(sr['auth.email']).fill('kupac@example.test');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByRole('cell', { name: 'Kupac a.d.' }).waitFor();
      await page.getByRole('link', { name: sr['nav.invoices'] }).first().click();
      await page.getByRole('link', { name: sr['invoices.new'] }).click();
      await page.getByRole('heading', { name: sr['invoices.new'] }).waitFor();
      // The customer picker's list arrives after the editor opens.
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
      await pickOption(page, sr['invoices.customer'], 'Kupac a.d.');
      await page.getByLabel(`${sr['invoices.description']} 1`).fill('Knjigovodstvene usluge');
      await page.getByLabel(`${sr['invoices.quantity']} 1`).fill('3');
      await page.getByLabel(`${sr['invoices.unitPrice']} 1`).fill('1234,5');
      await page.getByTestId('total').filter({ hasText: '4.444,20 RSD' }).waitFor();
      await page.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByTestId('server-total').filter({ hasText: '4.444,20 RSD' }).waitFor();
      await page.getByRole('button', { name: sr['invoices.send'] }).click();
      await page.getByRole('dialog').getByRole('button', { name: sr['invoices.send'] }).click();
      await page.getByText(sr['status.sent'], { exact: true }).waitFor();
      const invoiceNumber = (await apiCall(harness, token, 'GET', '/api/v1/invoices')).data[0].invoiceNumber;

      // Owner: the bank account.
      await page.getByRole('link', { name: sr['nav.banking'] }).first().click();
      await page.getByRole('button', { name: sr['banking.new'] }).click();
      await dialog.getByLabel(sr['banking.bankName']).fill('AIK Banka');
      await expect
        .poll(() => dialog.getByRole('textbox', { name: sr['banking.ledgerAccount'] }).inputValue())
        .toMatch(/^1100 /);
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByRole('link', { name: 'AIK Banka' }).waitFor();

      // Accountant: the expense with its receipt; approving is not the accountant's.
      await ap.getByRole('link', { name: sr['nav.expenses'] }).first().click();
      await ap.getByRole('button', { name: sr['expenses.new'] }).click();
      const form = ap.getByRole('dialog');
      await form.getByLabel(sr['expenses.category']).fill(sr['expenses.cat.office']);
      await form.getByLabel(sr['expenses.amount']).fill('2400');
      await form.getByLabel(sr['expenses.taxAmount']).fill('400');
      await form
        .locator('input[type="file"]')
        .setInputFiles({ name: 'racun.png', mimeType: 'image/png', buffer: await receipt(harness.browser, 'png') });
      await form.getByRole('button', { name: sr['app.save'] }).click();
      const expenseNumber = `EXP-${YEAR}-0001`;
      await ap.getByRole('cell', { name: expenseNumber, exact: true }).waitFor();
      expect(
        await ap.getByRole('button', { name: fill(sr['expenses.approveNumber'], { number: expenseNumber }) }).count(),
      ).toBe(0);

      // Owner: approve and pay from the bank account.
      await page.getByRole('link', { name: sr['nav.expenses'] }).first().click();
      await page.getByRole('button', { name: fill(sr['expenses.approveNumber'], { number: expenseNumber }) }).click();
      await page.getByRole('button', { name: fill(sr['expenses.payNumber'], { number: expenseNumber }) }).click();
      await expect
        .poll(() => page.getByRole('dialog').getByRole('textbox', { name: sr['expenses.payFrom'] }).inputValue())
        .toContain('AIK Banka');
      await page.getByRole('dialog').getByRole('button', { name: sr['expenses.pay'], exact: true }).click();
      await table(page).getByText(sr['expStatus.paid'], { exact: true }).waitFor();

      // Accountant: the month's statement, then reconciliation.
      await ap.getByRole('link', { name: sr['nav.banking'] }).first().click();
      await ap.getByRole('link', { name: 'AIK Banka' }).click();
      const d = dayjs().format('DD.MM.YYYY');
      const csv = [
        'Datum;Opis;Poziv na broj;Duguje;Potražuje',
        `${d};Uplata Kupac a.d.;${invoiceNumber};;4.444,20`,
        `${d};Papirnica ${expenseNumber};;2.400,00;`,
      ].join('\r\n');
      await ap
        .locator('input[type="file"]')
        .setInputFiles({ name: 'izvod.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await ap.getByRole('button', { name: sr['banking.importButton'] }).click();
      await ap
        .getByTestId('import-summary')
        .getByText(fill(sr['banking.imported'], { n: 2 }))
        .waitFor();
      const expenseLine = ap.getByTestId('bank-line').filter({ hasText: expenseNumber });
      await expenseLine.getByRole('button', { name: sr['recon.accept'] }).click();
      await expect.poll(() => ap.getByTestId('bank-line').count()).toBe(1);
      await ap.getByTestId('bank-line').getByRole('button', { name: sr['recon.more'] }).click();
      await ap.getByRole('button', { name: fill(sr['recon.payAndMatchNumber'], { number: invoiceNumber }) }).click();
      await ap.getByText(sr['recon.allDone']).waitFor();

      // The month as the dashboard reads it from the API: revenue and expenses without VAT, cash through the bank.
      const month = await apiCall(harness, token, 'GET', '/api/v1/reports/dashboard?format=json');
      expect([month.revenueMTD, month.expensesMTD, month.profitMTD, month.cashBalance].map(Number)).toEqual([
        3703.5, 2000, 1703.5, 2044.2,
      ]);
      await page.getByRole('link', { name: sr['nav.dashboard'] }).first().click();
      await page.getByRole('heading', { name: sr['dash.chart'] }).waitFor();
      const tile = (label: string) => page.locator('.mantine-Card-root', { hasText: label }).first();
      await tile(sr['dash.revenue']).getByText('3.703,50 RSD').waitFor();
      await tile(sr['dash.expenses']).getByText('2.000,00 RSD').waitFor();
      await tile(sr['dash.profit']).getByText('1.703,50 RSD').waitFor();
      await tile(sr['dash.cash']).getByText('2.044,20 RSD').waitFor();
      await screen(page, 'money-month-dashboard');
      await accountant.context.close();
      await context.close();
    },
    STEP * 8,
  );
});

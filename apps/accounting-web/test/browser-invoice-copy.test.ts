import dayjs from 'dayjs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bsFull as bs } from '../src/i18n/full/bs.js';
import { enFull as en } from '../src/i18n/full/en.js';
import { hrFull as hr } from '../src/i18n/full/hr.js';
import { srFull as sr } from '../src/i18n/full/sr.js';
import {
  apiCall,
  apiLogin,
  browserHarness,
  fill,
  missing,
  newPage,
  registerThroughForm,
  STEP,
  screen,
  srMoney,
  unique,
  useLanguage,
} from './browser-harness.js';

/**
 * The invoice editor past the first 100 customers, and an invoice copied into a new one, in Debian's Chromium
 * against the real accounting service (PGlite), with axe-core on each screen photographed (screenshots:
 * apps/accounting-web/screenshots/, gitignored). Skipped when /usr/bin/chromium is absent.
 */
if (missing) console.warn(missing);
const harness = browserHarness();
const PASSWORD = 'Lozinka-2026';
/** A day as the date fields show it (DD.MM.YYYY). */
const shown = (day: dayjs.Dayjs) => day.format('DD.MM.YYYY');

/** Types into a searchable select and waits for the option: the options past the first 100 come from the server. */
async function search(page: Page, label: string, typed: string, option: string) {
  const box = page.getByRole('textbox', { name: label, exact: true });
  await box.click();
  await box.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe.skipIf(missing)('invoice copy and the contact pickers in Chromium', () => {
  it(
    'copies a sent invoice of the 102nd customer into a new draft dated today; the list and the expense form find contacts past the first 100',
    async () => {
      const { context, page } = await newPage(harness);
      const email = unique('copy');
      await registerThroughForm(page, email, PASSWORD);
      const token = await apiLogin(harness, email, PASSWORD);
      // 101 customers that sort first by name, then the one invoiced: outside the picker's first 100.
      for (let n = 1; n <= 101; n++)
        await apiCall(harness, token, 'POST', '/api/v1/contacts', {
          type: 'customer',
          name: `Kupac ${String(n).padStart(3, '0')}`,
          country: 'RS',
        });
      const zeta = await apiCall(harness, token, 'POST', '/api/v1/contacts', {
        // Customer and vendor: the expense form's vendor picker finds it past the same 101 customers.
        type: 'both',
        name: 'Zeta Zona d.o.o.',
        email: 'zeta@example.test',
        country: 'RS',
        paymentTerms: 10,
      });
      const original = await apiCall(harness, token, 'POST', '/api/v1/invoices', {
        customerId: zeta.id,
        invoiceDate: '2026-10-01',
        dueDate: '2026-10-31',
        discountAmount: 50,
        notes: 'Mesečno održavanje',
        items: [
          { description: 'Održavanje sajta', quantity: 2, unitPrice: 1500.25, taxRate: 20 },
          { description: 'Hosting', quantity: 1, unitPrice: 900, taxRate: 10 },
        ],
      });
      await apiCall(harness, token, 'PATCH', `/api/v1/invoices/${original.id}/status`, { action: 'send' });

      // The sent invoice offers Copy; the copy opens the editor with its customer (read by id: not among the
      // first 100), lines, discount and notes, dated today and due 30 days later, as the original was.
      await page.goto(`/invoices/${original.id}`);
      await page.getByRole('heading', { name: original.invoiceNumber }).waitFor();
      await page.setViewportSize({ width: 375, height: 740 });
      await screen(page, 'invoice-copy-button-375');
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.getByRole('link', { name: sr['invoices.copy'] }).click();
      await page.getByRole('heading', { name: sr['invoices.new'] }).waitFor();
      await page.getByText(fill(sr['invoices.copiedFrom'], { number: original.invoiceNumber })).waitFor();
      const customer = page.getByRole('textbox', { name: sr['invoices.customer'], exact: true });
      await expect.poll(() => customer.inputValue()).toBe('Zeta Zona d.o.o.');
      expect(await page.getByLabel(`${sr['invoices.description']} 1`).inputValue()).toBe('Održavanje sajta');
      expect(await page.getByLabel(`${sr['invoices.description']} 2`).inputValue()).toBe('Hosting');
      expect(await page.getByLabel(`${sr['invoices.unitPrice']} 1`).inputValue()).toBe('1.500,25');
      const today = dayjs();
      expect(await page.getByRole('textbox', { name: sr['invoices.date'] }).inputValue()).toBe(shown(today));
      expect(await page.getByRole('textbox', { name: sr['invoices.dueDate'] }).inputValue()).toBe(
        shown(today.add(30, 'day')),
      );
      // The editor's total is the original's (same lines and discount).
      await page
        .getByTestId('total')
        .filter({ hasText: srMoney(original.totalAmount) })
        .waitFor();
      await screen(page, 'invoice-copy');
      await page.getByRole('button', { name: sr['app.save'] }).click();

      // Saved as a new draft with its own number; the original is untouched.
      await page.getByText(sr['status.draft'], { exact: true }).waitFor();
      const copyId = page.url().split('/').pop()!;
      expect(copyId).not.toBe(original.id);
      const copy = await apiCall(harness, token, 'GET', `/api/v1/invoices/${copyId}`);
      expect(copy).toMatchObject({
        customerId: zeta.id,
        status: 'draft',
        invoiceDate: today.format('YYYY-MM-DD'),
        dueDate: today.add(30, 'day').format('YYYY-MM-DD'),
        currencyCode: original.currencyCode,
        discountAmount: original.discountAmount,
        notes: 'Mesečno održavanje',
        subtotal: original.subtotal,
        taxAmount: original.taxAmount,
        totalAmount: original.totalAmount,
      });
      expect(copy.invoiceNumber).not.toBe(original.invoiceNumber);
      const lines = (i: { items: Array<Record<string, string>> }) =>
        i.items.map((l) => [l.description, l.quantity, l.unitPrice, l.taxRate]);
      expect(lines(copy)).toEqual(lines(original));
      const after = await apiCall(harness, token, 'GET', `/api/v1/invoices/${original.id}`);
      expect([after.invoiceNumber, after.invoiceDate, after.totalAmount, lines(after)]).toEqual([
        original.invoiceNumber,
        '2026-10-01',
        original.totalAmount,
        lines(original),
      ]);

      // The list's customer filter finds customers past the first 100 on the server, by what is typed.
      await page.goto('/invoices');
      await search(page, sr['invoices.customer'], 'Zeta', 'Zeta Zona d.o.o.');
      const table = page.getByRole('region', { name: sr['invoices.title'] });
      await table.getByRole('link', { name: copy.invoiceNumber }).waitFor();
      await table.getByRole('link', { name: original.invoiceNumber }).waitFor();
      expect(new URL(page.url()).searchParams.get('customer')).toBe(zeta.id);
      // Reloaded (a bookmark), the field still names the customer.
      await page.reload();
      await expect
        .poll(() => page.getByRole('textbox', { name: sr['invoices.customer'], exact: true }).inputValue())
        .toBe('Zeta Zona d.o.o.');
      await screen(page, 'invoices-customer-filter');

      // The list's search: part of a number, then of a name, in any case; it goes into the address.
      await page.goto('/invoices');
      const rows = page.getByRole('region', { name: sr['invoices.title'] }).getByRole('link', { name: /^INV-/ });
      await expect.poll(() => rows.count()).toBe(2);
      const searchBox = page.getByRole('searchbox', { name: sr['app.search'] });
      await searchBox.fill(copy.invoiceNumber.slice(-7).toLowerCase());
      await expect.poll(() => rows.allTextContents()).toEqual([copy.invoiceNumber]);
      expect(new URL(page.url()).searchParams.get('q')).toBe(copy.invoiceNumber.slice(-7).toLowerCase());
      await screen(page, 'invoices-search');
      await searchBox.fill('ZONA');
      await expect.poll(() => rows.count()).toBe(2);
      await searchBox.fill('Nepostojeći');
      await page.getByText(sr['invoices.empty']).waitFor();
      // The menu's Invoices clears the search, in the field as in the list.
      await page.getByRole('link', { name: sr['nav.invoices'] }).first().click();
      await expect.poll(() => rows.count()).toBe(2);
      expect(await searchBox.inputValue()).toBe('');

      // A new invoice for the 101st customer: found by typing, its payment terms (10 days) set the due date.
      await page.goto('/invoices/new');
      await page.getByRole('heading', { name: sr['invoices.new'] }).waitFor();
      expect(await page.getByTestId('invoice-copied-from').count()).toBe(0);
      await search(page, sr['invoices.customer'], 'Zeta', 'Zeta Zona d.o.o.');
      expect(await page.getByRole('textbox', { name: sr['invoices.dueDate'] }).inputValue()).toBe(
        shown(today.add(10, 'day')),
      );
      await search(page, sr['invoices.customer'], 'Kupac 101', 'Kupac 101');
      // Something no customer is called says so.
      const box = page.getByRole('textbox', { name: sr['invoices.customer'], exact: true });
      await box.fill('Nepostojeći');
      await page.getByText(sr['contacts.noMatch']).waitFor();

      // The expense form's vendor picker: the first 100 contacts by name are customers only, so the vendor is
      // found on the server; the expense is saved with it.
      await page.goto('/expenses');
      await page.getByRole('button', { name: sr['expenses.new'] }).click();
      const dialog = page.getByRole('dialog');
      await search(page, sr['expenses.vendor'], 'zona', 'Zeta Zona d.o.o.');
      await dialog.getByLabel(sr['expenses.category']).fill(sr['expenses.cat.office']);
      await dialog.getByLabel(sr['expenses.amount']).fill('1200');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      await dialog.waitFor({ state: 'detached' });
      const expenses = await apiCall(harness, token, 'GET', '/api/v1/expenses');
      expect(expenses.data.map((e: { vendorId: string; amount: string }) => [e.vendorId, e.amount])).toEqual([
        [zeta.id, '1200.00'],
      ]);

      // In English.
      await page.goto(`/invoices/new?from=${original.id}`);
      // The page shown first: its session refresh (a rotated cookie) is done before the reload.
      await page.getByTestId('invoice-copied-from').waitFor();
      await useLanguage(page, 'en');
      await page.getByRole('heading', { name: en['invoices.new'] }).waitFor();
      await page.getByText(fill(en['invoices.copiedFrom'], { number: original.invoiceNumber })).waitFor();
      await expect
        .poll(() => page.getByRole('textbox', { name: en['invoices.customer'], exact: true }).inputValue())
        .toBe('Zeta Zona d.o.o.');
      await screen(page, 'en/invoice-copy');
      await page.setViewportSize({ width: 375, height: 740 });
      await screen(page, 'en/invoice-copy-375');
      // Croatian and Bosnian: the notice and the fields in each, at both widths.
      for (const [locale, catalog] of [
        ['hr', hr],
        ['bs', bs],
      ] as const) {
        await page.setViewportSize({ width: 1280, height: 860 });
        // biome-ignore lint/correctness/useHookAtTopLevel: a Playwright helper named like a hook, not a React hook.
        await useLanguage(page, locale);
        await page.getByRole('heading', { name: catalog['invoices.new'] }).waitFor();
        await page.getByText(fill(catalog['invoices.copiedFrom'], { number: original.invoiceNumber })).waitFor();
        await expect
          .poll(() => page.getByRole('textbox', { name: catalog['invoices.customer'], exact: true }).inputValue())
          .toBe('Zeta Zona d.o.o.');
        await screen(page, `${locale}/invoice-copy`);
        await page.setViewportSize({ width: 375, height: 740 });
        await screen(page, `${locale}/invoice-copy-375`);
      }
      await context.close();
    },
    STEP * 3,
  );
});

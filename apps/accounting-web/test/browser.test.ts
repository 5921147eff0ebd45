import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { enFull as en } from '../src/i18n/full/en.js';
import { srFull as sr } from '../src/i18n/full/sr.js';
import {
  browserHarness,
  apiLogin as harnessLogin,
  newPage as harnessPage,
  holdListWhile,
  missing,
  pickOption,
  registerThroughForm,
  STEP,
  screen,
  unique,
} from './browser-harness.js';

/**
 * The web app in Debian's Chromium against the real accounting service (PGlite): one end-to-end test
 * per screen group, axe-core on every screen (no serious or critical violation), desktop and 375 px.
 * Screenshots go to apps/accounting-web/screenshots/ (gitignored). Skipped when /usr/bin/chromium is absent.
 * Set-up, axe and screenshots: browser-harness.ts (on packages/web-tools' Playwright helpers).
 */
if (missing) console.warn(missing);
const harness = browserHarness();
const newPage = () => harnessPage(harness);
const apiLogin = (email: string, password: string) => harnessLogin(harness, email, password);

describe.skipIf(missing)('accounting web app in Chromium', () => {
  it(
    'sign in, register, reload keeps the session, sign out, 2FA step, invitation accepted by a viewer',
    async () => {
      const { context, page } = await newPage();
      const email = unique('owner');
      const password = 'Lozinka-2026';
      await page.goto('/');
      await page.getByRole('heading', { name: sr['auth.signInTitle'] }).waitFor();
      await screen(page, 'sign-in');
      await page.getByRole('link', { name: sr['auth.registerLink'] }).click();
      await page.getByRole('heading', { name: sr['auth.registerTitle'] }).waitFor();
      await screen(page, 'register');
      await registerThroughForm(page, email, password);
      await page.reload();
      await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();

      await page.getByRole('button', { name: sr['nav.signOut'] }).click();
      await page.getByRole('heading', { name: sr['auth.signInTitle'] }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: sr['auth.signInTitle'] }).waitFor();

      // A wrong password shows the API's message in the organization's language.
      await page.getByLabel(sr['auth.email']).fill(email);
      await page.getByLabel(sr['auth.password']).fill('wrong-password-1');
      await page.getByRole('button', { name: sr['auth.signIn'] }).click();
      await page.getByRole('alert').waitFor();

      // 2FA turned on through the API; the form then asks for the code.
      const token = await apiLogin(email, password);
      const auth = { authorization: `Bearer ${token}` };
      const setup = (
        await harness.h.app.inject({ method: 'POST', url: '/api/v1/auth/2fa/setup', headers: auth })
      ).json();
      const totp = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30 });
      const enabled = await harness.h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/2fa/enable',
        headers: auth,
        // The previous period's code (accepted, A17), so the current one is still unused for the sign-in.
        payload: { code: totp.generate({ timestamp: Date.now() - 30_000 }) },
      });
      expect(enabled.statusCode).toBe(200);
      await page.getByLabel(sr['auth.password']).fill(password);
      await page.getByRole('button', { name: sr['auth.signIn'] }).click();
      await page.getByLabel(sr['auth.code']).waitFor();
      await screen(page, 'sign-in-2fa');
      await page.getByLabel(sr['auth.code']).fill(totp.generate());
      await page.getByRole('button', { name: sr['auth.verify'] }).click();
      await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();

      // An invited viewer sets a password on the link's page and sees no create buttons.
      const invite = await harness.h.app.inject({
        method: 'POST',
        url: '/api/v1/users/invite',
        headers: auth,
        payload: { email: unique('viewer'), fullName: 'Vera Viewer', role: 'viewer' },
      });
      expect(invite.statusCode).toBe(201);
      const link = new URL(invite.json().inviteLink);
      expect(link.pathname).toBe('/accept-invite');
      const viewer = await harness.browser.newContext({
        baseURL: harness.base,
        viewport: { width: 1280, height: 860 },
      });
      const vp = await viewer.newPage();
      await vp.goto(link.pathname + link.search);
      await vp.getByRole('heading', { name: sr['auth.acceptTitle'] }).waitFor();
      await screen(vp, 'accept-invite');
      await vp.getByLabel(sr['auth.password']).fill('Viewer-Lozinka-1');
      await vp.getByRole('button', { name: sr['auth.accept'] }).click();
      await vp.getByRole('heading', { name: sr['dash.title'] }).waitFor();
      await vp.goto('/contacts');
      await vp.getByRole('heading', { name: sr['contacts.title'] }).waitFor();
      await vp.getByText(sr['contacts.empty']).waitFor();
      expect(await vp.getByRole('button', { name: sr['contacts.new'] }).count()).toBe(0);
      await vp.goto('/invoices');
      await vp.getByRole('heading', { name: sr['invoices.title'] }).waitFor();
      expect(await vp.getByRole('link', { name: sr['invoices.new'] }).count()).toBe(0);
      await vp.goto('/settings');
      await vp.getByLabel(sr['settings.iban']).waitFor();
      expect(await vp.getByRole('button', { name: sr['app.save'] }).count()).toBe(0);
      await viewer.close();
      await context.close();
    },
    STEP * 4,
  );

  it(
    'contacts, invoices and dashboard: create a customer, issue, send and collect an invoice',
    async () => {
      const { context, page } = await newPage();
      await registerThroughForm(page, unique('books'), 'Lozinka-2026');
      await screen(page, 'dashboard-empty');

      // Settings: the organization's address, saved through the API.
      await page.getByRole('link', { name: sr['nav.settings'] }).first().click();
      await page.getByLabel(sr['contacts.city']).fill('Beograd');
      await page.getByLabel(sr['contacts.address']).fill('Knez Mihailova 1');
      await page.getByRole('button', { name: sr['app.save'], exact: true }).click();
      await page.getByText(sr['settings.saved']).waitFor();
      await screen(page, 'settings');

      // Contacts: create (the API's tax-id check answers in the form), then a valid one.
      await page.getByRole('link', { name: sr['nav.contacts'] }).first().click();
      await page.getByText(sr['contacts.empty']).waitFor();
      await screen(page, 'contacts-empty');
      await page.getByRole('button', { name: sr['contacts.new'] }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(sr['contacts.name']).fill('Kupac a.d.');
      await dialog.getByLabel(sr['contacts.vatNumber']).fill('123');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      await dialog.locator('[aria-invalid="true"]').first().waitFor();
      await screen(page, 'contact-form-error');
      await dialog.getByLabel(sr['contacts.vatNumber']).fill('');
      await dialog.getByLabel(sr['auth.email']).fill('kupac@example.test');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      await page.getByRole('cell', { name: 'Kupac a.d.' }).waitFor();
      await screen(page, 'contacts');
      // A deleted contact leaves the list at once, before the list's refetch answers (held here).
      await page.getByRole('button', { name: sr['contacts.new'] }).click();
      await dialog.getByLabel(sr['contacts.name']).fill('Privremeni kupac');
      await dialog.getByRole('button', { name: sr['app.save'] }).click();
      const doomed = page.getByRole('row').filter({ hasText: 'Privremeni kupac' });
      await doomed.waitFor();
      await holdListWhile(page, '/api/v1/contacts', async () => {
        page.once('dialog', (d) => d.accept());
        await doomed.getByRole('button', { name: sr['app.delete'] }).click();
        await expect.poll(() => doomed.count()).toBe(0);
        expect(await page.getByRole('cell', { name: 'Kupac a.d.' }).count()).toBe(1);
      });

      // Invoice editor: live totals as the server computes them.
      await page.getByRole('link', { name: sr['nav.invoices'] }).first().click();
      await page.getByText(sr['invoices.empty']).waitFor();
      await page.getByRole('link', { name: sr['invoices.new'] }).click();
      await page.getByRole('heading', { name: sr['invoices.new'] }).waitFor();
      await pickOption(page, sr['invoices.customer'], 'Kupac a.d.');
      await page.getByLabel(`${sr['invoices.description']} 1`).fill('Knjigovodstvene usluge');
      await page.getByLabel(`${sr['invoices.quantity']} 1`).fill('3');
      await page.getByLabel(`${sr['invoices.unitPrice']} 1`).fill('1234,5');
      await page.getByTestId('total').filter({ hasText: '4.444,20 RSD' }).waitFor();
      expect(await page.getByTestId('total-tax').textContent()).toBe('740,70 RSD');
      await page.getByRole('button', { name: sr['invoices.addLine'] }).click();
      await page.getByLabel(`${sr['invoices.description']} 2`).fill('Putni troškovi');
      await page.getByLabel(`${sr['invoices.unitPrice']} 2`).fill('100');
      await pickOption(page, `${sr['invoices.taxRate']} 2`, (await rateLabel(page, 10)) ?? '');
      await page.getByTestId('total').filter({ hasText: '4.554,20 RSD' }).waitFor();
      await screen(page, 'invoice-editor');
      await page.getByRole('button', { name: sr['app.save'] }).click();

      // The saved invoice shows the server's figures, the same as the editor's.
      await page.getByTestId('server-total').filter({ hasText: '4.554,20 RSD' }).waitFor();
      expect(await page.getByTestId('server-tax').textContent()).toBe('750,70 RSD');
      await screen(page, 'invoice-draft');

      // Send, then mark paid.
      await page.getByRole('button', { name: sr['invoices.send'] }).click();
      await page.getByRole('dialog').getByRole('button', { name: sr['invoices.send'] }).click();
      await page.getByText(sr['invoices.sent'].replace('{to}', 'kupac@example.test')).waitFor();
      await page.getByText(sr['status.sent'], { exact: true }).waitFor();
      // The PDF the service rendered at sending, shown in the page.
      await page.locator('iframe').waitFor({ timeout: 60_000 });
      await screen(page, 'invoice-sent');
      await page.getByRole('button', { name: sr['invoices.markPaid'] }).click();
      await page.getByText(sr['status.paid'], { exact: true }).waitFor();

      // List with a status filter.
      await page.getByRole('link', { name: `← ${sr['invoices.title']}` }).click();
      await page.getByRole('cell', { name: 'Kupac a.d.' }).waitFor();
      await pickOption(page, sr['invoices.status'], sr['status.draft']);
      await page.getByText(sr['invoices.empty']).waitFor();
      await pickOption(page, sr['invoices.status'], sr['status.paid']);
      await page.getByRole('cell', { name: 'Kupac a.d.' }).waitFor();
      await screen(page, 'invoices');
      // A date typed by hand is taken day first, as written in the four languages (en-GB), and shown as
      // the app writes dates. Mantine's own parser read 5.1.2026 as 1 May (JavaScript's Date, month first).
      const typeDate = async (label: string, text: string, day: string, shown: string) => {
        const field = page.getByLabel(label, { exact: true });
        await field.fill(text);
        await field.blur();
        await page.waitForURL((url) => url.searchParams.get('from') === day);
        await expect.poll(() => field.inputValue()).toBe(shown);
      };
      await typeDate(sr['invoices.from'], '5. 1. 2026.', '2026-01-05', '05.01.2026');
      await page.evaluate(() => localStorage.setItem('ledgerline.locale', 'en'));
      await page.reload();
      await expect.poll(() => page.getByLabel(en['invoices.from'], { exact: true }).inputValue()).toBe('05/01/2026');
      await typeDate(en['invoices.from'], '2/1/2026', '2026-01-02', '02/01/2026');
      await page.evaluate(() => localStorage.removeItem('ledgerline.locale'));
      await page.goto('/invoices?status=paid');
      await page.getByRole('cell', { name: 'Kupac a.d.' }).waitFor();
      // At phone width each invoice is a card: its number on one line, the total and the status within the
      // screen (in the table they were past the right edge).
      await page.setViewportSize({ width: 375, height: 740 });
      const card = page.getByTestId('invoice-card').filter({ hasText: 'Kupac a.d.' });
      await card.waitFor();
      for (const part of [card.getByRole('link', { name: 'INV-2026-0001' }), card.getByText(sr['status.paid'])]) {
        const box = (await part.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      const number = (await card.getByRole('link', { name: 'INV-2026-0001' }).boundingBox())!;
      expect(number.height).toBeLessThan(30);
      await card.getByText(/4\.554,20/).waitFor();
      expect(await page.locator('table').count()).toBe(0);
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.getByRole('cell', { name: 'Kupac a.d.' }).waitFor();

      // A customer with an invoice cannot be deleted: the API's refusal is shown.
      await page.goto('/contacts');
      page.once('dialog', (d) => d.accept());
      await page.getByRole('button', { name: sr['app.delete'] }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('cell', { name: 'Kupac a.d.' }).count()).toBe(1);

      // The dashboard counts the paid invoice.
      await page.getByRole('link', { name: sr['nav.dashboard'] }).first().click();
      await page.getByRole('heading', { name: sr['dash.chart'] }).waitFor();
      await page.getByText('4.554,20 RSD').first().waitFor();
      await screen(page, 'dashboard');
      await context.close();
    },
    STEP * 5,
  );
});

/** The tax-rate option label the editor shows for a rate (it comes from the organization's settings). */
async function rateLabel(page: Page, rate: number): Promise<string | null> {
  await page.getByRole('textbox', { name: `${sr['invoices.taxRate']} 2`, exact: true }).click();
  const options = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  return options.find((o) => o.startsWith(`${rate} %`)) ?? null;
}

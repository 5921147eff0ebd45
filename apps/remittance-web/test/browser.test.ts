import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkScreen, chromiumMissing, freePort, launchChromium } from '@app/web-tools/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, REMITTANCE_WEB_APP } from '../../../scripts/build-web.js';
import { buildTestApp } from '../../../services/remittance/test/helpers.js';
import { en } from '../src/i18n/en.js';
import { nb } from '../src/i18n/nb.js';

/**
 * The remittance web app in Debian's Chromium against the real remittance service (PGlite, mock eID,
 * sandbox bank): the whole journey of a sender and of a merchant, axe-core on every screen (no
 * serious or critical violation), 1280 px and 375 px. Screenshots go to apps/remittance-web/screenshots/
 * (gitignored). Skipped when /usr/bin/chromium is absent.
 */
const missing = chromiumMissing();
if (missing) console.warn(missing);
const SHOTS = join(REMITTANCE_WEB_APP, 'screenshots');
const STEP = 120_000;

let h: Awaited<ReturnType<typeof buildTestApp>>;
let browser: Browser;
let base: string;
const problems: string[] = [];

beforeAll(async () => {
  if (missing) return;
  await buildWeb(undefined, { app: 'remittance-web' });
  // The service's public URL (eID and bank redirects, the allowed Origin of R4) must name the port
  // it listens on, as in production: chosen before it starts.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  h = await buildTestApp({
    REMITTANCE_WEB_DIR: join(REMITTANCE_WEB_APP, 'dist'),
    REMITTANCE_PUBLIC_URL: base,
    SETTLEMENT_INTERVAL: '1s',
    SANDBOX_SETTLEMENT_SECONDS: '1',
  });
  await h.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function newPage(locale = 'nb-NO'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 860 }, locale });
  context.setDefaultTimeout(20_000);
  return { context, page: await context.newPage() };
}

async function screen(page: Page, name: string) {
  problems.push(...(await checkScreen(page, SHOTS, name)));
}

/** Signs in through the mock eID as a test person of our choosing (the sign-in page offers two). */
async function signInAs(page: Page, person: { pid: string; given_name: string; family_name: string }) {
  await page.goto('/');
  const res = await page.request.get('/api/auth/eid');
  const url = new URL((await res.json()).redirectUrl);
  for (const [k, v] of Object.entries(person)) url.searchParams.set(k, v);
  await page.goto(url.toString());
  await page.waitForURL('**/dashboard');
}

/** The sum of the user's linked balances, as the API reports it. */
async function totalBalance(page: Page): Promise<number> {
  return (await (await page.request.get('/api/bank-accounts')).json()).totalBalance;
}

describe.skipIf(missing)('remittance web app in Chromium', () => {
  it(
    'signs in with the mock eID, explains the age limit, links the sandbox bank, adds a recipient, sends once on a double click',
    async () => {
      // Under 18: the eID callback sends the visitor back with the reason in words.
      const minor = await newPage();
      await minor.page.goto('/');
      await minor.page.getByRole('button', { name: nb['signIn.button'] }).click();
      await minor.page.getByRole('button', { name: nb['signIn.mockMinor'] }).click();
      await minor.page.waitForURL('**/login?error=age_restricted*');
      await minor.page.getByText(nb['signIn.fail.age']).waitFor();
      await screen(minor.page, 'sign-in-under-18');
      await minor.context.close();

      const { page, context } = await newPage();
      await page.goto('/');
      await page.getByRole('heading', { name: nb['signIn.title'] }).waitFor();
      await screen(page, 'sign-in');
      await page.getByRole('button', { name: nb['signIn.button'] }).click();
      await page.getByRole('button', { name: nb['signIn.mockAdult'] }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText(nb['dashboard.noBank']).waitFor();
      await screen(page, 'dashboard-new');

      // Link the sandbox bank: its consent page approves and returns to /bank-accounts.
      await page.getByRole('link', { name: nb['nav.banks'] }).first().click();
      await page.getByRole('button', { name: nb['banks.link'] }).click();
      await page.waitForURL(/\/bank-accounts\?consentId=/);
      await page.getByText(nb['banks.linked']).waitFor();
      await page.getByText('50 000,00 kr').waitFor();
      await page.getByRole('button', { name: nb['banks.refresh'] }).first().click();
      await screen(page, 'bank-accounts');

      // A recipient in Serbia; a wrong IBAN is refused in the form first.
      await page.goto('/recipients');
      await page.getByText(nb['recipients.none']).waitFor();
      await page.getByRole('button', { name: nb['recipients.add'] }).click();
      await page.getByLabel(nb['recipients.name']).fill('Jovana Jovanović');
      await page.getByLabel(nb['recipients.iban']).fill('RS35 2600 0560 1001 6113 78');
      await page.getByRole('button', { name: nb['recipients.save'] }).click();
      await page.getByText(nb['recipients.badIban']).waitFor();
      await page.getByLabel(nb['recipients.iban']).fill('RS35 2600 0560 1001 6113 79');
      await page.getByRole('button', { name: nb['recipients.save'] }).click();
      await page.getByText('Jovana Jovanović', { exact: true }).waitFor();
      await screen(page, 'recipients');

      // Send 1 000 kr: the disclosure first, then a double click on the confirmation pays once.
      const before = await totalBalance(page);
      await page.getByRole('link', { name: nb['nav.send'] }).first().click();
      await page.getByLabel(nb['send.recipient']).selectOption({ label: 'Jovana Jovanović (RS, RSD)' });
      await page.getByLabel(nb['send.amount']).fill('1 000');
      await page.getByRole('button', { name: nb['send.review'] }).click();
      await page.getByRole('heading', { name: nb['disclosure.title'] }).waitFor();
      await page.getByText('1 005,00 kr').first().waitFor();
      await screen(page, 'send-disclosure');
      await page.getByTestId('confirm-send').dblclick();
      await page.getByText(nb['send.done']).waitFor();
      await screen(page, 'send-done');
      const list = await (await page.request.get('/api/transactions?type=remittance')).json();
      expect(list.pagination.total).toBe(1);
      expect(await totalBalance(page)).toBeCloseTo(before - 1005, 2);

      // The dashboard shows the lower balance and the payment.
      await page.getByRole('link', { name: nb['nav.dashboard'] }).first().click();
      await page.getByText('48 995,00 kr').first().waitFor();
      await page.getByRole('link', { name: 'Jovana Jovanović' }).waitFor();
      // The dashboard's first render on a cold load (issue 29 budget: under 1 s on loopback), printed
      // for BENCHMARKS.md rather than asserted: the time to the balances and the recent payments.
      const started = performance.now();
      await page.reload();
      await page.getByText('48 995,00 kr').first().waitFor();
      await page.getByRole('link', { name: 'Jovana Jovanović' }).waitFor();
      console.log(
        `dashboard first render (reload to balances and payments): ${Math.round(performance.now() - started)} ms`,
      );
      await screen(page, 'dashboard');

      // Sign out: the sign-in page, and the cookie no longer opens the API.
      await page.getByRole('button', { name: nb['nav.signOut'] }).click();
      await page.getByRole('heading', { name: nb['signIn.title'] }).waitFor();
      expect((await page.request.get('/api/auth/me')).status()).toBe(401);
      await context.close();
    },
    STEP * 2,
  );

  it(
    'a merchant shows its QR; a customer pays by the QR value, opens the receipt, reads notifications, exports and erases',
    async () => {
      // The merchant, in its own browser context.
      const m = await newPage();
      await signInAs(m.page, { pid: '15857012396', given_name: 'Kari', family_name: 'Kjøpmann' });
      await m.page.goto('/merchant');
      await m.page.getByLabel(nb['merchant.businessName']).fill('Karis Kafé');
      await m.page.getByLabel(nb['merchant.orgNumber']).fill('923 609 016');
      await m.page.getByLabel(nb['merchant.bankAccount']).fill('1234.56.78903');
      await m.page.getByRole('button', { name: nb['merchant.register'] }).click();
      const qrValue = (await m.page.getByTestId('qr-value').textContent())?.trim() ?? '';
      expect(qrValue).toMatch(/^app:\/\/pay\//);
      await m.page.getByRole('img', { name: /QR/ }).waitFor();
      await screen(m.page, 'merchant');

      // The customer: signs in, links the bank, pays by pasting the code's value.
      const c = await newPage();
      await c.page.goto('/');
      await c.page.getByRole('button', { name: nb['signIn.button'] }).click();
      await c.page.getByRole('button', { name: nb['signIn.mockAdult'] }).click();
      await c.page.waitForURL('**/dashboard');
      await c.page.goto('/bank-accounts');
      if (!(await c.page.getByText(nb['banks.primary']).first().isVisible())) {
        await c.page.getByRole('button', { name: nb['banks.link'] }).click();
        await c.page.waitForURL(/\/bank-accounts\?consentId=/);
      }
      const before = await totalBalance(c.page);
      await c.page.goto('/pay');
      await c.page.getByRole('heading', { name: nb['pay.title'] }).waitFor();
      await screen(c.page, 'pay');
      await c.page.getByLabel(nb['pay.value']).fill(qrValue);
      await c.page.getByLabel(nb['send.amount']).fill('250');
      await c.page.getByRole('button', { name: nb['send.review'] }).click();
      await c.page.getByText('252,50 kr').first().waitFor();
      await screen(c.page, 'pay-disclosure');
      await c.page.getByTestId('confirm-pay').dblclick();
      await c.page.getByText(nb['pay.done'], { exact: true }).waitFor();
      expect(await totalBalance(c.page)).toBeCloseTo(before - 252.5, 2);
      const qr = await (await c.page.request.get('/api/transactions?type=qr_payment')).json();
      expect(qr.pagination.total).toBe(1);

      // The merchant sees the payment.
      await m.page.reload();
      await m.page.getByTestId('merchant-payments').getByText('250,00 kr').waitFor();

      // Receipt in the page.
      await c.page.getByRole('link', { name: nb['history.receipt'] }).click();
      await c.page.getByRole('button', { name: nb['history.receipt'] }).click();
      await c.page.locator(`iframe[title="${nb['history.receipt']}"]`).waitFor();
      await screen(c.page, 'transaction');
      await c.page.goto('/history');
      await c.page.getByLabel(nb['history.type']).selectOption('qr_payment');
      await c.page.getByText('Karis Kafé').first().waitFor();
      await screen(c.page, 'history');
      // A payment still waiting for the bank can be looked for too; none is waiting here.
      await c.page.getByLabel(nb['history.status']).selectOption({ label: nb['status.initiating'] });
      await c.page.getByText(nb['history.noneFiltered']).waitFor();
      expect(new URL(c.page.url()).searchParams.get('status')).toBe('initiating');

      // Notifications: mark all read.
      await c.page.goto('/notifications');
      await c.page.getByRole('button', { name: nb['notifications.markAll'] }).click();
      await expect
        .poll(async () =>
          ((await (await c.page.request.get('/api/notifications')).json()).data as { read: boolean }[]).some(
            (n) => !n.read,
          ),
        )
        .toBe(false);
      await screen(c.page, 'notifications');

      for (const [path, name] of [
        ['/settings', 'settings'],
        ['/complaints', 'complaints'],
      ] as const) {
        await c.page.goto(path);
        await c.page.getByRole('heading', { level: 1 }).waitFor();
        await screen(c.page, name);
      }

      // Other languages: English amounts, Urdu laid out right to left.
      await c.page.goto('/dashboard');
      await c.page.getByLabel(nb['app.language']).selectOption('en');
      await c.page.getByRole('heading', { name: en['dashboard.accounts'] }).waitFor();
      await screen(c.page, 'dashboard-en');
      await c.page.getByLabel(en['app.language']).selectOption('ur');
      await expect.poll(() => c.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await screen(c.page, 'dashboard-ur');
      await c.page.getByRole('combobox').first().selectOption('nb');

      // GDPR: export, then erase.
      await c.page.goto('/privacy');
      await c.page.getByRole('heading', { name: nb['privacy.consents'] }).waitFor();
      await c.page.getByLabel(nb['consentType.marketing']).check();
      await c.page
        .getByText(/^Gitt /)
        .first()
        .waitFor();
      await screen(c.page, 'privacy');
      const download = c.page.waitForEvent('download');
      await c.page.getByRole('button', { name: nb['privacy.download'] }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.json$/);
      await c.page.getByLabel(nb['privacy.eraseType'].replace('{word}', nb['privacy.eraseWord'])).fill('SLETT');
      await c.page.getByRole('button', { name: nb['privacy.eraseButton'] }).click();
      await c.page.getByText(nb['signIn.erased']).waitFor();
      expect((await c.page.request.get('/api/auth/me')).status()).toBe(401);
      await m.context.close();
      await c.context.close();
    },
    STEP * 3,
  );

  it('has no serious or critical axe violation and no sideways scroll on any screen', () => {
    expect(problems).toEqual([]);
  });
});

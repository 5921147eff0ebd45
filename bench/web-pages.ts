/**
 * `npm run bench -- web-pages` (issue 27 budgets): the accounting web app in Debian's Chromium against
 * the service built as `npm start` runs it, on real PostgreSQL, over loopback.
 *  (a) Dashboard, organization with 1,000 invoices (sent, paid, drafts over the last year, with their
 *      postings): a reload with the refresh cookie set, from navigation start until the dashboard's
 *      figures and chart are on screen (the session refresh, /auth/me, the catalog and the dashboard
 *      report included). Budget: under 1 s (median of RUNS).
 *  (b) Invoice list, organization with 10,000 invoices, 25 a page: the first page from navigation
 *      start; "next page" from the click until the next page's rows are painted (median, p95 over
 *      FLIPS flips, and a jump to the last page); long tasks (> 50 ms) seen while paging; and the
 *      frames of a 1-second scroll down the page at 375 px (p95 and worst frame interval).
 * Seeding: the organizations register through the API; invoices, their lines and postings are
 * inserted with SQL (INSERT ... SELECT generate_series), as the service itself would have written them.
 * Writes its section of BENCHMARKS.md. BENCH_WEB_RUNS (default 7) and BENCH_WEB_FLIPS (default 20).
 */

import { loadavg } from 'node:os';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { sr } from '../apps/accounting-web/src/i18n/sr.js';
import { chromiumMissing, launchChromium } from '../packages/web-tools/src/playwright.js';
import { buildWeb } from '../scripts/build-web.js';
import {
  accountingEnv,
  createBenchDatabase,
  json,
  machine,
  percentile,
  ROOT,
  serviceEntry,
  startProcess,
  stopProcess,
  writeSection,
} from './lib.js';

const PORT = 3930;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 7);
const FLIPS = Number(process.env.BENCH_WEB_FLIPS ?? 20);
const PASSWORD = 'Correct-Horse-9';

const missing = chromiumMissing();
if (missing) {
  console.error(missing);
  process.exit(2);
}

interface Org {
  email: string;
  orgId: string;
  userId: string;
}

async function register(name: string, email: string): Promise<Org & { token: string }> {
  const reg = await json(
    await fetch(`${ORIGIN}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        organizationName: name,
        country: 'RS',
        baseCurrency: 'RSD',
        language: 'sr',
        email,
        password: PASSWORD,
        fullName: 'Bench Korisnik',
      }),
    }),
  );
  return { email, orgId: reg.organization.id, userId: reg.user.id, token: reg.tokens.accessToken };
}

/**
 * `count` invoices over the last 365 days: every tenth a draft, six in ten paid, the rest sent; one
 * line each; the sent and paid ones with their postings (A8: Dr 1200 / Cr 4000 net, Dr 1200 / Cr 2300
 * VAT, and for the paid ones Dr 1100 / Cr 1200). The fold job folds the postings into the totals.
 */
async function seedInvoices(db: pg.Client, org: Org & { token: string }, count: number, postings: boolean) {
  const customer = await json(
    await fetch(`${ORIGIN}/api/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'customer', name: 'Kupac Čačić d.o.o.', email: 'kupac@example.test' }),
    }),
  );
  await db.query(
    `INSERT INTO invoices (organization_id, invoice_number, customer_id, customer_name, invoice_date, due_date,
       currency_code, exchange_rate, subtotal, tax_amount, total_amount, base_amount, status, sent_at, sent_to, paid_at, created_by)
     SELECT $1, 'INV-' || to_char(x.d, 'YYYY') || '-' || lpad(g::text, 6, '0'), $2, 'Kupac Čačić d.o.o.', x.d, x.d + 30,
       'RSD', 1, x.net, round(x.net * 0.2, 2), round(x.net * 1.2, 2), round(x.net * 1.2, 2),
       CASE WHEN g % 10 = 0 THEN 'draft' WHEN g % 10 <= 6 THEN 'paid' ELSE 'sent' END,
       CASE WHEN g % 10 = 0 THEN NULL ELSE x.d::timestamptz END,
       CASE WHEN g % 10 = 0 THEN NULL ELSE 'kupac@example.test' END,
       CASE WHEN g % 10 BETWEEN 1 AND 6 THEN least(x.d + 10, current_date) END, $3
     FROM generate_series(1, $4::int) g,
       LATERAL (SELECT (current_date - (g % 365))::date AS d, (1000 + (g * 37) % 9000)::numeric AS net) x`,
    [org.orgId, customer.id, org.userId, count],
  );
  await db.query(
    `INSERT INTO invoice_items (organization_id, invoice_id, line_number, description, quantity, unit_price, tax_rate, line_total, line_tax)
     SELECT organization_id, id, 1, 'Knjigovodstvene usluge', 1, subtotal, 20, subtotal, tax_amount
     FROM invoices WHERE organization_id = $1`,
    [org.orgId],
  );
  if (!postings) return;
  const account = async (code: string) =>
    (await db.query('SELECT id FROM accounts WHERE organization_id = $1 AND code = $2', [org.orgId, code])).rows[0].id;
  const [ar, sales, vat, bank] = [
    await account('1200'),
    await account('4000'),
    await account('2300'),
    await account('1100'),
  ];
  const post = (debit: string, credit: string, amount: string, date: string, type: string, where: string) =>
    db.query(
      `INSERT INTO ledger_transactions (organization_id, transaction_date, description, debit_account_id, credit_account_id,
         amount, currency_code, exchange_rate, base_amount, reference_type, reference_id, locked, created_by)
       SELECT organization_id, ${date}, 'Faktura ' || invoice_number, $2, $3, ${amount}, 'RSD', 1, ${amount}, '${type}', id, true, $4
       FROM invoices WHERE organization_id = $1 AND ${where}`,
      [org.orgId, debit, credit, org.userId],
    );
  await post(ar, sales, 'subtotal', 'invoice_date', 'invoice', "status IN ('sent', 'paid')");
  await post(ar, vat, 'tax_amount', 'invoice_date', 'invoice', "status IN ('sent', 'paid')");
  await post(bank, ar, 'total_amount', 'paid_at', 'payment', "status = 'paid'");
}

async function signIn(page: Page, email: string) {
  await page.goto('/');
  await page.getByLabel(sr['auth.email']).fill(email);
  await page.getByLabel(sr['auth.password']).fill(PASSWORD);
  await page.getByRole('button', { name: sr['auth.signIn'] }).click();
  await page.getByRole('heading', { name: sr['dash.title'] }).waitFor({ timeout: 60_000 });
}

/** Milliseconds from navigation start until `ready` holds in the page (polled every animation frame). */
async function untilReady(page: Page, url: string, ready: () => boolean): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(ready, undefined, { polling: 'raf', timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

// Functions, not strings: the page's content security policy forbids evaluating strings.
const DASHBOARD_READY = () =>
  document.querySelectorAll('[data-testid="tile"]').length >= 5 &&
  document.querySelector('.recharts-surface') !== null &&
  !document.querySelector('[role="status"] .mantine-Loader-root');
const LIST_READY = () => document.querySelectorAll('main tbody tr').length === 25;

/** Clicks the pager's button and answers the ms until the first row shows another invoice, painted. */
function flip(page: Page, button: 'next' | 'last'): Promise<number> {
  return page.evaluate(
    async ([which, nextLabel]) => {
      const first = () => document.querySelector('main tbody tr a')?.textContent ?? '';
      const before = first();
      const buttons = [...document.querySelectorAll('main button')] as HTMLButtonElement[];
      const target = which === 'next' ? buttons.find((b) => b.textContent === nextLabel) : null;
      const t0 = performance.now();
      if (target) target.click();
      else {
        const url = new URL(location.href);
        url.searchParams.set('page', '400');
        history.pushState(null, '', url);
        dispatchEvent(new PopStateEvent('popstate'));
      }
      await new Promise<void>((resolve) => {
        const check = () => (first() !== before && first() !== '' ? resolve() : requestAnimationFrame(check));
        requestAnimationFrame(check);
      });
      // The frame with the new rows is painted when the next one starts.
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      return performance.now() - t0;
    },
    [button, sr['app.next']] as const,
  );
}

/** Frame intervals of a one-second scroll from top to bottom (window.scrollTo every frame). */
function scrollFrames(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    window.scrollTo(0, 0);
    const height = document.documentElement.scrollHeight - innerHeight;
    const frames: number[] = [];
    await new Promise<void>((resolve) => {
      let start = 0;
      let last = 0;
      const step = (t: number) => {
        if (!start) start = last = t;
        else frames.push(t - last);
        last = t;
        const p = Math.min(1, (t - start) / 1000);
        window.scrollTo(0, height * p);
        if (p < 1) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
    });
    return frames;
  });
}

const median = (xs: number[]) => percentile(xs, 50);
const ms = (v: number) => `${Math.round(v)} ms`;

await buildWeb();
const database = await createBenchDatabase('bench_web');
const admin = new pg.Client({ connectionString: database.url });
let service: Awaited<ReturnType<typeof startProcess>> | null = null;
const browser = await launchChromium();
try {
  service = await startProcess(
    await serviceEntry(ROOT, 'accounting'),
    { ...accountingEnv(PORT, { PUBLIC_BASE_URL: ORIGIN, WEB_ORIGIN: ORIGIN }), ACCOUNTING_DATABASE_URL: database.url },
    `${ORIGIN}/health`,
  );
  await admin.connect();
  const small = await register('Hiljadu faktura d.o.o.', 'bench.web.dashboard@example.test');
  const large = await register('Deset hiljada faktura d.o.o.', 'bench.web.list@example.test');
  const t0 = performance.now();
  await seedInvoices(admin, small, 1_000, true);
  await seedInvoices(admin, large, 10_000, false);
  const seedMs = performance.now() - t0;
  // Let the fold job take the postings into the running totals before the dashboard is measured.
  await new Promise((r) => setTimeout(r, 3_000));

  // (a) Dashboard.
  const context = await browser.newContext({ baseURL: ORIGIN, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await signIn(page, small.email);
  await untilReady(page, '/', DASHBOARD_READY); // warm: the browser's cache holds the bundles as a returning user's does
  const dashboard: number[] = [];
  for (let i = 0; i < RUNS; i++) dashboard.push(await untilReady(page, '/', DASHBOARD_READY));
  // An empty browser cache: a new context with the session's cookie loads the dashboard once.
  const coldContext = await browser.newContext({ baseURL: ORIGIN, viewport: { width: 1280, height: 860 } });
  await coldContext.addCookies(await context.cookies());
  const coldDashboard = await untilReady(await coldContext.newPage(), '/', DASHBOARD_READY);
  await coldContext.close();
  await context.close();

  // (b) Invoice list.
  const listContext = await browser.newContext({ baseURL: ORIGIN, viewport: { width: 1280, height: 860 } });
  const list = await listContext.newPage();
  await signIn(list, large.email);
  // tsx (esbuild, keepNames) wraps the named functions inside page.evaluate in __name(): give the page one.
  await list.addInitScript('globalThis.__name = (f) => f;');
  await list.addInitScript(() => {
    (window as unknown as { longTasks: number[] }).longTasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) (window as unknown as { longTasks: number[] }).longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await untilReady(list, '/invoices', LIST_READY);
  const firstPage: number[] = [];
  for (let i = 0; i < RUNS; i++) firstPage.push(await untilReady(list, '/invoices', LIST_READY));
  await list.evaluate(() => {
    (window as unknown as { longTasks: number[] }).longTasks = [];
  });
  const flips: number[] = [];
  for (let i = 0; i < FLIPS; i++) flips.push(await flip(list, 'next'));
  const last = await flip(list, 'last');
  const longTasks = await list.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  await list.setViewportSize({ width: 375, height: 740 });
  await list.waitForTimeout(300);
  const frames = await scrollFrames(list);
  await listContext.close();

  const dashMedian = median(dashboard);
  const rows = [
    `| Dashboard first render, 1,000 invoices (reload, refresh cookie set; median of ${RUNS}) | ${ms(dashMedian)} (min ${ms(Math.min(...dashboard))}, max ${ms(Math.max(...dashboard))}) | < 1 s | ${dashMedian < 1000 ? 'met' : 'NOT met'} |`,
    `| Dashboard, empty browser cache (new context, one run) | ${ms(coldDashboard)} | < 1 s | ${coldDashboard < 1000 ? 'met' : 'NOT met'} |`,
    `| Invoice list, 10,000 invoices: first page (median of ${RUNS}) | ${ms(median(firstPage))} | | |`,
    `| Next page, click to painted rows (${FLIPS} flips) | median ${ms(median(flips))}, p95 ${ms(percentile(flips, 95))} | | |`,
    `| Jump to page 400 (the last) | ${ms(last)} | | |`,
    `| Long tasks (> 50 ms) while paging | ${longTasks.length}${longTasks.length ? ` (longest ${ms(Math.max(...longTasks))})` : ''} | | |`,
    `| Scroll at 375 px, frame interval | p95 ${ms(percentile(frames, 95))}, worst ${ms(Math.max(...frames))} over ${frames.length} frames | | |`,
  ];
  const body = `Command: \`npm run bench -- web-pages\` (bench/web-pages.ts). ${machine()}, 2 shared cores, Chromium ${browser.version()} headless (\`--disable-gpu\`), the service as \`npm start\` runs it on PostgreSQL, loopback; load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}. Seeding ${ms(seedMs)} (SQL).

| Measure | Result | Budget | |
|---|---|---|---|
${rows.join('\n')}

Method: the dashboard is timed from navigation start (\`performance.now()\` in the page) to the frame where its five figures and the profit chart are on screen, with the session refreshed through the cookie on load (as a reload does). The list pages by 25 (the service pages, the screen shows one page: no 10,000-row DOM); a flip is timed from the click to the painted frame with the next page's rows.`;
  console.log(`\n${body}\n`);
  writeSection('Web app pages (issue 27)', body);
} finally {
  await browser.close();
  if (service) await stopProcess(service);
  await admin.end().catch(() => undefined);
  await database.drop();
}

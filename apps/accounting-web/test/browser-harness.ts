import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { axeViolations, checkScreen, chromiumMissing, launchChromium } from '@app/web-tools/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildWeb, WEB_APP } from '../../../scripts/build-web.js';
import { buildTestApp, type TestApp } from '../../../services/accounting/test/helpers.js';
import { srFull as sr } from '../src/i18n/full/sr.js';

/**
 * Shared set-up of the browser test files: the built app served by the real accounting service
 * (PGlite), Debian's Chromium, axe-core and screenshots at 1280 and 375 px in
 * apps/accounting-web/screenshots/ (gitignored). Each file calls `browserHarness()` once at the top
 * level; the hooks start and stop everything. `missing` says why the tests skip (no Chromium).
 */
export const missing = chromiumMissing();
export const SHOTS = join(WEB_APP, 'screenshots');
export const STEP = 60_000;

export interface Harness {
  readonly h: TestApp;
  readonly browser: Browser;
  readonly base: string;
}

export function browserHarness(env: () => Record<string, string> = () => ({})): Harness {
  const state: { h?: TestApp; browser?: Browser; base?: string } = {};
  beforeAll(async () => {
    if (missing) return;
    await buildWeb();
    // `env`: more of the service's configuration (a mock's URL), read once the file's earlier hooks ran.
    state.h = await buildTestApp({ WEB_DIR: join(WEB_APP, 'dist'), RATE_LIMITS: 'off', ...env() });
    state.base = await state.h.app.listen({ port: 0, host: '127.0.0.1' });
    state.browser = await launchChromium();
    for (const l of ['', 'sr', 'hr', 'bs', 'en']) mkdirSync(join(SHOTS, l), { recursive: true });
  }, 240_000);
  afterAll(async () => {
    await state.browser?.close();
    await state.h?.close();
  });
  return {
    get h() {
      return state.h as TestApp;
    },
    get browser() {
      return state.browser as Browser;
    },
    get base() {
      return state.base as string;
    },
  };
}

/** axe-core's serious and critical violations on the page as it is now (packages/web-tools). */
export const axe = axeViolations;

/**
 * Saves the screen at desktop width and at 375 px and fails on what packages/web-tools' checkScreen
 * finds: axe violations at both widths (unless `axe: false`), sideways scrolling at 375 px.
 */
export async function screen(page: Page, name: string, opts: { axe?: boolean } = {}) {
  expect(await checkScreen(page, SHOTS, name, opts)).toEqual([]);
}

export async function newPage(harness: Harness): Promise<{ context: BrowserContext; page: Page }> {
  const context = await harness.browser.newContext({ baseURL: harness.base, viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(20_000);
  return { context, page: await context.newPage() };
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}@example.test`;

/** Registers an organization through the form; leaves the page on the dashboard. */
export async function registerThroughForm(page: Page, email: string, password: string, organization = 'Knjige d.o.o.') {
  await page.goto('/');
  await page.getByRole('link', { name: sr['auth.registerLink'] }).click();
  await page.getByLabel(sr['auth.organizationName']).fill(organization);
  await page.getByLabel(sr['auth.fullName']).fill('Ana Anić');
  await page.getByLabel(sr['auth.email']).fill(email);
  await page.getByLabel(sr['auth.password']).fill(password);
  await page.getByRole('button', { name: sr['auth.register'] }).click();
  await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();
}

/** An access token for API calls made by the test itself (fixtures the screen under test does not create). */
export async function apiLogin(harness: Harness, email: string, password: string): Promise<string> {
  const res = await harness.h.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  return res.json().tokens.accessToken;
}

/** A JSON call to the service as the given user; fails the test on an unexpected status. */
export async function apiCall<T = any>(
  harness: Harness,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  status = method === 'POST' ? 201 : 200,
): Promise<T> {
  const res = await harness.h.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json() as T;
}

/** Picks an option of a Mantine Select or Autocomplete by its label. */
export async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Switches the interface language with the header's switch (kept in localStorage). */
export async function useLanguage(page: Page, locale: 'sr' | 'bs' | 'hr' | 'en') {
  await page.evaluate((l) => localStorage.setItem('ledgerline.locale', l), locale);
  await page.reload();
}

/** A catalog text with its {placeholders} filled (one left as it is when no value is given). */
export const fill = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => String(params[k] ?? m));

/** An API amount (1234.5, "1234.50") as the sr screens print it: "1.234,50". */
export const srMoney = (v: string | number) => {
  const [whole, frac = ''] = Number(v).toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${frac}`;
};

/** Runs `body` while the app's GETs of `path` (a list) wait, then lets them through. */
export async function holdListWhile(page: Page, path: string, body: () => Promise<void>) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const matches = (url: URL) => url.pathname === path;
  const handled: Promise<void>[] = [];
  await page.route(matches, (route) => {
    const done = (async () => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    })();
    handled.push(done);
    return done;
  });
  try {
    await body();
  } finally {
    release();
    await Promise.all(handled);
    await page.unroute(matches);
  }
}

import { describe, expect, it } from 'vitest';
import { srFull as sr } from '../src/i18n/full/sr.js';
import { browserHarness, missing, newPage, registerThroughForm, STEP, unique } from './browser-harness.js';

/**
 * Several tabs of one signed-in browser opening at once (a browser restoring its tabs, a user opening
 * invoices in new tabs): each tab renews the session from the one refresh cookie they share, and the
 * service ends the whole login when a rotated-out cookie comes back (A17). The web app takes turns
 * through a Web Lock (packages/web-tools/src/session.ts), so every tab stays signed in. In Debian's
 * Chromium against the real service (PGlite); skipped when /usr/bin/chromium is absent.
 */
if (missing) console.warn(missing);
const harness = browserHarness();

describe.skipIf(missing)('tabs opened at once in Chromium', () => {
  it(
    'keeps every tab signed in when four open together, and the login alive afterwards',
    async () => {
      const { context, page } = await newPage(harness);
      await registerThroughForm(page, unique('tabs'), 'Lozinka-2026');
      const refreshes: string[] = [];
      context.on('response', (r) => {
        if (new URL(r.url()).pathname === '/api/v1/auth/refresh') refreshes.push(String(r.status()));
      });
      const tabs = await Promise.all([1, 2, 3, 4].map(() => context.newPage()));
      await Promise.all(tabs.map((tab) => tab.goto('/invoices')));
      for (const tab of tabs) await tab.getByRole('heading', { name: sr['invoices.title'], exact: true }).waitFor();
      // Four renewals, one after another, each with the cookie the one before it set.
      expect(refreshes).toEqual(['200', '200', '200', '200']);
      // The login is still alive: the first tab reloads into the app, not onto the sign-in form.
      await page.reload();
      await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();
      expect(await page.getByRole('button', { name: sr['auth.signIn'] }).count()).toBe(0);
      await context.close();
    },
    STEP * 2,
  );
});

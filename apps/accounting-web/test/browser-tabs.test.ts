import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { srFull as sr } from '../src/i18n/full/sr.js';
import { browserHarness, missing, newPage, registerThroughForm, STEP, unique } from './browser-harness.js';

/**
 * A pass-through proxy in front of the service that can hold the answer to a session renewal: the
 * service has rotated the cookie, the browser has not yet heard.
 */
async function holdingProxy(target: string) {
  const upstream = new URL(target);
  const state: {
    hold: boolean;
    held: Array<() => void>;
    onHeld?: () => void;
    /** The next page document: its head passes (the page is replaced), its body waits for release. */
    gateDocument: boolean;
    onDocument?: (release: () => void) => void;
  } = { hold: false, held: [], gateDocument: false };
  const server = createServer((req, res) => {
    const out = forward(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const send = () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          };
          if (state.gateDocument && req.headers['sec-fetch-dest'] === 'document') {
            state.gateDocument = false;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.flushHeaders();
            state.onDocument?.(() => res.end(Buffer.concat(chunks)));
          } else if (state.hold && req.url === '/api/v1/auth/refresh') {
            state.hold = false;
            state.held.push(send);
            state.onHeld?.();
          } else send();
        });
      },
    );
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

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

  it(
    'keeps the login when the page reloads while a renewal is answered',
    async () => {
      const proxy = await holdingProxy(harness.base);
      const context = await harness.browser.newContext({ baseURL: proxy.base, viewport: { width: 1280, height: 860 } });
      context.setDefaultTimeout(20_000);
      try {
        const page = await context.newPage();
        await registerThroughForm(page, unique('reload'), 'Lozinka-2026');
        // Reload: the page renews the session; the service rotates the cookie, and the answer is held
        // back until the next reload has replaced the page (the user pressing F5 twice).
        const held = new Promise<void>((resolve) => {
          proxy.state.onHeld = resolve;
        });
        proxy.state.hold = true;
        await page.reload({ waitUntil: 'commit' });
        await held;
        // The next page replaces this one (its document's head arrives) but cannot start before the
        // held answer has come in: only an answer that outlives its page can still set the cookie.
        proxy.state.gateDocument = true;
        const documentStarted = new Promise<() => void>((resolve) => {
          proxy.state.onDocument = resolve;
        });
        const next = page.reload();
        const releaseDocument = await documentStarted;
        await new Promise((r) => setTimeout(r, 500));
        for (const send of proxy.state.held) send();
        await new Promise((r) => setTimeout(r, 500));
        releaseDocument();
        await next;
        // The first renewal's answer still set the rotated cookie: the page after it is signed in.
        await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();
        await page.reload();
        await page.getByRole('heading', { name: sr['dash.title'] }).waitFor();
        expect(await page.getByRole('button', { name: sr['auth.signIn'] }).count()).toBe(0);
      } finally {
        await context.close();
        proxy.server.close();
      }
    },
    STEP * 2,
  );
});

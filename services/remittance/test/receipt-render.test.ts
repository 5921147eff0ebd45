import { partPresent } from '@app/shared/test/parts';
import { inkShare, pdfFacts, popplerMissing, renderPage } from '@app/shared/test/pdf-render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkSandboxBank, nextPid, signInWeb, startApp, web } from './helpers.js';

// The receipt PDF rendered to pixels by poppler: one page, every font embedded, ink in the header
// and in the body where the transfer's lines are. transactions.test.ts checks its text.
const rendered = partPresent('pdftoppm', await popplerMissing(), 'receipt-render');

describe.skipIf(!rendered)('the receipt PDF rendered to pixels', () => {
  let env: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    env = await startApp({ SANDBOX_SETTLEMENT_SECONDS: '0' });
  });
  afterAll(async () => env?.close());

  it('is one A4 page with embedded fonts and ink in the header and the body', async () => {
    const auth = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
    await linkSandboxBank(env.app, auth);
    const recipientId = (
      await env.app.inject({
        method: 'POST',
        url: '/api/recipients',
        ...auth,
        payload: { name: 'Ana Kovač', country: 'BA', currency: 'BAM', bankAccount: 'BA391290079401028494' },
      })
    ).json().data.id;
    const remId = (
      await env.app.inject({
        method: 'POST',
        url: '/api/transactions/remittance',
        ...auth,
        payload: { recipientId, amount: 1500 },
      })
    ).json().data.id;
    const res = await env.app.inject({ method: 'GET', url: `/api/transactions/${remId}/receipt.pdf`, ...auth });
    expect(res.statusCode).toBe(200);
    const facts = await pdfFacts(res.rawPayload);
    expect(facts.pages).toBe(1);
    expect(facts.fonts.length).toBeGreaterThan(0);
    expect(facts.fonts.filter((f) => !f.embedded)).toEqual([]);
    const page = await renderPage(res.rawPayload, 1, 100);
    expect(page.height / page.width).toBeCloseTo(297 / 210, 1);
    expect(inkShare(page, { x0: 0, y0: 0, x1: 1, y1: 0.15 })).toBeGreaterThan(0.002);
    expect(inkShare(page, { x0: 0, y0: 0.15, x1: 1, y1: 0.6 })).toBeGreaterThan(0.002);
    // Mostly paper: a page rendered black (a broken fill) would fail here.
    expect(inkShare(page)).toBeLessThan(0.2);
  });
});

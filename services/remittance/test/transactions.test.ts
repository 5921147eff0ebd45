import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../src/modules/payments/payments.service.js';
import { bearer, buildTestApp, linkSandboxBank, nextPid, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
type Auth = ReturnType<typeof web> | ReturnType<typeof bearer>;
let a: { auth: Auth; recipientId: string; merchantId: string; remId: string; qrId: string };
let b: { auth: Auth };

beforeAll(async () => {
  env = await buildTestApp({ SANDBOX_SETTLEMENT_SECONDS: '0' });
  // A merchant to pay.
  const m = web((await signInWeb(env.app, { pid: nextPid() })).cookie);
  const reg = await env.app.inject({
    method: 'POST',
    url: '/api/merchants/register',
    ...m,
    payload: { businessName: 'Kafé Sol', orgNumber: '923609016', bankAccount: '12345678903' },
  });
  const merchantId = reg.json().data.merchantId;

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
  const qrId = (
    await env.app.inject({
      method: 'POST',
      url: '/api/transactions/qr-payment',
      ...auth,
      payload: { merchantId, amount: 99.5 },
    })
  ).json().data.id;
  a = { auth, recipientId, merchantId, remId, qrId };
  b = { auth: bearer((await signInMobile(env.app, { pid: nextPid() })).token) };
});
afterAll(async () => env?.close());

describe('transactions history', () => {
  it("lists the user's transactions newest first with amounts negated, filtered by type and status", async () => {
    const all = await env.app.inject({ method: 'GET', url: '/api/transactions', ...a.auth });
    expect(all.statusCode).toBe(200);
    expect(all.json().pagination).toEqual({ page: 1, limit: 20, total: 2 });
    expect(all.json().data).toEqual([
      {
        id: a.qrId,
        type: 'qr_payment',
        status: 'completed',
        amount: -99.5,
        currency: 'NOK',
        recipientName: 'Kafé Sol',
        createdAt: expect.any(String),
      },
      {
        id: a.remId,
        type: 'remittance',
        status: 'processing',
        amount: -1500,
        currency: 'NOK',
        recipientName: 'Ana Kovač',
        createdAt: expect.any(String),
      },
    ]);
    const rem = (await env.app.inject({ method: 'GET', url: '/api/transactions?type=remittance', ...a.auth })).json();
    expect(rem.data.map((t: { id: string }) => t.id)).toEqual([a.remId]);
    const done = (
      await env.app.inject({ method: 'GET', url: '/api/transactions?status=completed&limit=1', ...a.auth })
    ).json();
    expect(done.data.map((t: { id: string }) => t.id)).toEqual([a.qrId]);
    for (const q of ['type=card', 'status=pending', 'limit=51', 'page=0']) {
      const res = await env.app.inject({ method: 'GET', url: `/api/transactions?${q}`, ...a.auth });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
    const other = (await env.app.inject({ method: 'GET', url: '/v1/transactions', ...b.auth })).json();
    expect(other).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
  });

  it("shows the detail with total = sendAmount + fee, and 404 for another user's transaction", async () => {
    const res = await env.app.inject({ method: 'GET', url: `/api/transactions/${a.remId}`, ...a.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: a.remId,
      type: 'remittance',
      status: 'processing',
      sendAmount: 1500,
      sendCurrency: 'NOK',
      receiveCurrency: 'BAM',
      fee: 7.5,
      total: 1507.5,
      recipientName: 'Ana Kovač',
      recipientCountry: 'BA',
      completedAt: null,
    });
    const foreign = await env.app.inject({ method: 'GET', url: `/v1/transactions/${a.remId}`, ...b.auth });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('not_found');
  });

  it('sums all-time and this month (Europe/Oslo), leaving out failed transactions', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/transactions/summary', ...a.auth });
    expect(res.statusCode).toBe(200);
    const figures = { totalCount: 2, totalSent: 1500, totalPaid: 99.5, remittanceCount: 1, qrPaymentCount: 1 };
    expect(res.json().data).toEqual({ allTime: figures, thisMonth: figures });
    // Moved to last month in Oslo: only all-time counts it.
    await env.db.system
      .updateTable('transactions')
      .set({ created_at: new Date(Date.now() - 40 * 86_400_000) })
      .where('id', '=', a.qrId)
      .execute();
    const later = (await env.app.inject({ method: 'GET', url: '/v1/transactions/summary', ...b.auth })).json().data;
    expect(later.allTime.totalCount).toBe(0);
    const mine = (await env.app.inject({ method: 'GET', url: '/api/transactions/summary', ...a.auth })).json().data;
    expect(mine.thisMonth).toEqual({
      totalCount: 1,
      totalSent: 1500,
      totalPaid: 0,
      remittanceCount: 1,
      qrPaymentCount: 0,
    });
    expect(mine.allTime.totalCount).toBe(2);
  });

  it('gives a receipt (estimatedCompletion while processing, completedAt once settled), 404 when not owned', async () => {
    const res = await env.app.inject({ method: 'GET', url: `/api/transactions/${a.remId}/receipt`, ...a.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      transactionId: a.remId,
      type: 'remittance',
      amount: 1500,
      currency: 'NOK',
      fee: 7.5,
      receiveCurrency: 'BAM',
      recipient: { name: 'Ana Kovač', countryCode: 'BA' },
      // A human reference (RM, the Oslo date, eight base-32 characters), not the id repeated.
      reference: expect.stringMatching(/^RM-\d{6}-[0-9A-HJKMNP-TV-Z]{8}$/),
      status: 'processing',
      estimatedCompletion: '2-4 business days',
      completedAt: null,
    });
    await settle(env.app.ctx.payments);
    const settled = (
      await env.app.inject({ method: 'GET', url: `/api/transactions/${a.remId}/receipt`, ...a.auth })
    ).json().data;
    expect(settled).toMatchObject({ status: 'completed', estimatedCompletion: null, completedAt: expect.any(String) });
    expect(
      (await env.app.inject({ method: 'GET', url: `/v1/transactions/${a.remId}/receipt`, ...b.auth })).statusCode,
    ).toBe(404);
  });

  it('renders the receipt as a PDF in the settings language (nb by default, en when chosen)', async () => {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const textOf = async (buf: Buffer) => {
      const pdf = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false }).promise;
      const content = await (await pdf.getPage(1)).getTextContent();
      return content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
    };
    const nb = await env.app.inject({ method: 'GET', url: `/api/transactions/${a.remId}/receipt.pdf`, ...a.auth });
    expect(nb.statusCode).toBe(200);
    expect(nb.headers['content-type']).toBe('application/pdf');
    expect(nb.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(nb.rawPayload.toString('latin1')).toContain('DejaVuSans');
    const nbText = await textOf(nb.rawPayload);
    expect(nbText).toContain('Kvittering');
    expect(nbText).toContain('Ana Kovač');
    expect(
      await env.app
        .inject({ method: 'PATCH', url: '/api/settings', ...a.auth, payload: { language: 'en' } })
        .then((r) => r.statusCode),
    ).toBe(200);
    const en = await env.app.inject({ method: 'GET', url: `/api/transactions/${a.remId}/receipt.pdf`, ...a.auth });
    const enText = await textOf(en.rawPayload);
    expect(enText).toContain('Receipt');
    expect(enText).toContain('1,507.50 NOK');
    expect(
      (await env.app.inject({ method: 'GET', url: `/v1/transactions/${a.remId}/receipt.pdf`, ...b.auth })).statusCode,
    ).toBe(404);
  });

  it("a QR payment's receipt names the merchant's account masked and a QR reference", async () => {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const res = await env.app.inject({ method: 'GET', url: `/api/transactions/${a.qrId}/receipt.pdf`, ...a.auth });
    expect(res.statusCode).toBe(200);
    const doc = await getDocument({ data: new Uint8Array(res.rawPayload), useSystemFonts: false }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Kafé Sol');
    expect(text).toContain('•••• 8903');
    expect(text).not.toContain('12345678903');
    const json = (
      await env.app.inject({ method: 'GET', url: `/api/transactions/${a.qrId}/receipt`, ...a.auth })
    ).json();
    expect(json.data.reference).toMatch(/^QR-\d{6}-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(text).toContain(json.data.reference);
  });
});

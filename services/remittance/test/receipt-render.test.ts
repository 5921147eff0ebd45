import { partPresent } from '@app/shared/test/parts';
import { inkShare, pdfFacts, pdfText, popplerMissing, renderPage } from '@app/shared/test/pdf-render';
import type { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, linkSandboxBank, nextPid, signInWeb, web } from './helpers.js';

// The receipt PDF rendered to pixels by poppler: one page, every font embedded, ink in the header
// and in the body where the transfer's lines are; then its text read back the way a person reads
// it: who sent, to which account (masked), who issued it, and a reference that is not the id.
// transactions.test.ts checks the language of its text.
const rendered = partPresent('pdftoppm', await popplerMissing(), 'receipt-render');

/** PDF_RENDER_DIR=/some/dir keeps the rendered page there, to look at it by eye. */
async function keep(name: string, img: PNG): Promise<PNG> {
  const dir = process.env.PDF_RENDER_DIR;
  if (dir) {
    const { PNG: Png } = await import('pngjs');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${dir}/${name}.png`, Png.sync.write(img));
  }
  return img;
}

describe.skipIf(!rendered)('the receipt PDF rendered to pixels', () => {
  let env: Awaited<ReturnType<typeof buildTestApp>>;
  let pdf: Buffer;
  let receipt: { transactionId: string; reference: string };
  let account: string;
  beforeAll(async () => {
    env = await buildTestApp({
      SANDBOX_SETTLEMENT_SECONDS: '0',
      RECEIPT_ISSUER_NAME: 'Eksempel Betaling AS',
      RECEIPT_ISSUER_ORG_NUMBER: '923456783',
      RECEIPT_ISSUER_ADDRESS: 'Karl Johans gate 1, 0154 Oslo',
      RECEIPT_ISSUER_CONTACT: 'hjelp@eksempel.no',
    });
    const auth = web(
      (await signInWeb(env.app, { pid: nextPid(), given_name: 'Kari', family_name: 'Nordmann' })).cookie,
    );
    await linkSandboxBank(env.app, auth);
    const accounts = (await env.app.inject({ method: 'GET', url: '/api/bank-accounts', ...auth })).json()
      .data as Array<{
      isPrimary: boolean;
      accountNumber: string;
    }>;
    account = accounts.find((a) => a.isPrimary)!.accountNumber;
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
    receipt = (await env.app.inject({ method: 'GET', url: `/api/transactions/${remId}/receipt`, ...auth })).json().data;
    const res = await env.app.inject({ method: 'GET', url: `/api/transactions/${remId}/receipt.pdf`, ...auth });
    expect(res.statusCode).toBe(200);
    pdf = res.rawPayload;
  });
  afterAll(async () => env?.close());

  it('is one A4 page with embedded fonts and ink in the header and the body', async () => {
    const facts = await pdfFacts(pdf);
    expect(facts.pages).toBe(1);
    expect(facts.fonts.length).toBeGreaterThan(0);
    expect(facts.fonts.filter((f) => !f.embedded)).toEqual([]);
    const page = await keep('receipt', await renderPage(pdf, 1, 100));
    expect(page.height / page.width).toBeCloseTo(297 / 210, 1);
    expect(inkShare(page, { x0: 0, y0: 0, x1: 1, y1: 0.15 })).toBeGreaterThan(0.002);
    expect(inkShare(page, { x0: 0, y0: 0.15, x1: 1, y1: 0.6 })).toBeGreaterThan(0.002);
    // Mostly paper: a page rendered black (a broken fill) would fail here.
    expect(inkShare(page)).toBeLessThan(0.2);
  });

  it('names the sender with their account masked, and the recipient with theirs masked', async () => {
    const text = await pdfText(pdf);
    expect(text).toContain('AVSENDER');
    expect(text).toContain('Kari Nordmann');
    expect(text).toContain(`Konto: •••• ${account.replace(/\D/g, '').slice(-4)}`);
    expect(text).not.toContain(account);
    expect(text).toContain('MOTTAKER');
    expect(text).toContain('Konto: BA39 •••• 8494');
    expect(text).not.toContain('BA391290079401028494');
  });

  it('names the issuing company with its organisation number and contact', async () => {
    const text = await pdfText(pdf);
    expect(text).toContain('Eksempel Betaling AS');
    expect(text).toContain('Org.nr. 923 456 783');
    expect(text).toContain('Karl Johans gate 1, 0154 Oslo');
    expect(text).toContain('hjelp@eksempel.no');
  });

  it('carries a human reference, the same as the JSON receipt, that is not the transaction id', async () => {
    expect(receipt.reference).toMatch(/^RM-\d{6}-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(receipt.reference).not.toBe(receipt.transactionId);
    const lines = (await pdfText(pdf, { layout: true })).split('\n').map((l) => l.trim().replace(/\s+/g, ' '));
    expect(lines).toContain(`Referanse ${receipt.reference}`);
    expect(lines).toContain(`Transaksjons-ID ${receipt.transactionId}`);
  });
});

import type { AddressInfo } from 'node:net';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer, createInvoice, HR_ITEMS, invoiceBody, patchStatus, postingsOf } from './invoices-fixtures.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback; `reject` answers every message with 554; `delayMs` stalls each reply. */
async function smtpServer(reject: boolean, delayMs = 0) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        if (reject) {
          const err = new Error('Message rejected by policy') as Error & { responseCode: number };
          err.responseCode = 554;
          return callback(err);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The base64 body of the MIME part whose Content-Type is application/pdf. */
function pdfAttachment(raw: string): { filename: string | null; bytes: Buffer } | null {
  const m =
    /Content-Type: application\/pdf;[^\n]*\n(?:[ \t][^\n]*\n|[A-Za-z-]+:[^\n]*\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/i.exec(
      raw.replace(/\r\n/g, '\n'),
    );
  if (!m) return null;
  const filename = /filename="?([^";\r\n]+)"?/i.exec(raw)?.[1] ?? null;
  return { filename, bytes: Buffer.from(m[1].replace(/\s+/g, ''), 'base64') };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const DATES = { invoiceDate: day(0), dueDate: day(30) };

describe('invoice e-mail through SMTP (A11)', () => {
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let t: TestApp;
  let owner: Session;

  beforeAll(async () => {
    smtp = await smtpServer(false);
    t = await buildTestApp({
      RATE_LIMITS: 'off',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Racuni <racuni@firma.example>',
      PUBLIC_BASE_URL: 'https://invoices.example.test',
    });
    owner = await registerOrg(t.app, { language: 'hr', country: 'HR', baseCurrency: 'EUR' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('POST /send delivers to the recipient and cc with the subject, the message, the link and the PDF attached', async () => {
    const customer = await createCustomer(t.app, owner, { email: 'kupac@example.test', currencyCode: 'EUR' });
    const inv = await createInvoice(t.app, owner, invoiceBody(customer.id, { ...DATES, items: HR_ITEMS }));
    const res = await t.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: `/api/v1/invoices/${inv.id}/send`,
        payload: {
          to: 'racunovodstvo@example.test',
          cc: ['direktor@example.test'],
          subject: 'Invoice for March',
          message: 'Postovani, u prilogu je racun.',
        },
      }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sentTo).toBe('racunovodstvo@example.test');
    expect(body.sentAt).toBeTruthy();
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail.from).toBe('racuni@firma.example');
    expect(mail.to.sort()).toEqual(['direktor@example.test', 'racunovodstvo@example.test']);
    expect(mail.raw).toMatch(/^To: racunovodstvo@example\.test/m);
    expect(mail.raw).toMatch(/^Cc: direktor@example\.test/m);
    expect(mail.raw).toMatch(/^Subject: Invoice for March/m);
    expect(mail.raw).toContain(`Message-ID: ${body.emailId}`);
    const text = mail.raw.replace(/=\r?\n/g, '');
    expect(text).toContain('Postovani, u prilogu je racun.');
    expect(text).toContain('https://invoices.example.test/api/v1/public/invoices/');
    const pdf = pdfAttachment(mail.raw);
    expect(pdf?.filename).toBe(`${inv.invoiceNumber}.pdf`);
    expect(pdf!.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Croatian labels (the organization's language, A18/A19).
    const doc = await getDocument({ data: new Uint8Array(pdf!.bytes), isEvalSupported: false }).promise;
    const content = await (await doc.getPage(1)).getTextContent();
    const pageText = content.items.map((it) => ('str' in it ? it.str : '')).join(' ');
    expect(pageText).toContain('Račun');
    expect(pageText).toContain('Datum dospijeća');
    expect(pageText).toContain(inv.invoiceNumber);
    // The attachment is the stored PDF.
    const stored = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}/pdf` }));
    expect(stored.rawPayload.equals(pdf!.bytes)).toBe(true);
    const read = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}` }));
    expect(read.json().status).toBe('sent');

    // Sending again (sent) re-delivers without new postings.
    const postings = (await postingsOf(t.t.db, owner.orgId, inv.id)).length;
    const again = await t.app.inject(
      authed(owner.token, { method: 'POST', url: `/api/v1/invoices/${inv.id}/send`, payload: {} }),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().sentTo).toBe('kupac@example.test');
    expect(smtp.received).toHaveLength(2);
    expect((await postingsOf(t.t.db, owner.orgId, inv.id)).length).toBe(postings);
  });

  it('PATCH send mails the customer with the default subject in the organization language', async () => {
    const customer = await createCustomer(t.app, owner, { email: 'drugi@example.test', currencyCode: 'EUR' });
    const inv = await createInvoice(t.app, owner, invoiceBody(customer.id, { ...DATES, items: HR_ITEMS }));
    const before = smtp.received.length;
    const res = await patchStatus(t.app, owner, inv.id, { action: 'send' });
    expect(res.statusCode).toBe(200);
    const mail = smtp.received[before];
    expect(mail.to).toEqual(['drugi@example.test']);
    expect(mail.raw).toContain(inv.invoiceNumber);
    expect(pdfAttachment(mail.raw)?.filename).toBe(`${inv.invoiceNumber}.pdf`);
  });
});

describe('invoice e-mail failure (A10)', () => {
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let t: TestApp;
  let owner: Session;

  beforeAll(async () => {
    smtp = await smtpServer(true);
    t = await buildTestApp({ RATE_LIMITS: 'off', SMTP_URL: smtp.url });
    owner = await registerOrg(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('answers 500 SVC-3011, keeps the draft without postings, notes the failure and raises an alert for owners and admins', async () => {
    const customer = await createCustomer(t.app, owner);
    const inv = await createInvoice(t.app, owner, invoiceBody(customer.id, { ...DATES, notes: 'Prva napomena' }));
    for (const send of [
      () => patchStatus(t.app, owner, inv.id, { action: 'send' }),
      () => t.app.inject(authed(owner.token, { method: 'POST', url: `/api/v1/invoices/${inv.id}/send`, payload: {} })),
    ]) {
      const res = await send();
      expect(res.statusCode).toBe(500);
      expect(res.json().error.code).toBe('SVC-3011');
      expect(res.json().error.requestId).toBeTruthy();
    }
    const read = (await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}` }))).json();
    expect(read.status).toBe('draft');
    expect(read.sentAt).toBeNull();
    expect(read.pdfUrl).toBeNull();
    expect(read.notes).toBe('Prva napomena\nEmail delivery failed\nEmail delivery failed');
    expect(await postingsOf(t.t.db, owner.orgId, inv.id)).toHaveLength(0);
    const pdf = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}/pdf` }));
    expect(pdf.json().error.code).toBe('SVC-3010');

    const alerts = await t.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/alerts' }));
    expect(alerts.statusCode).toBe(200);
    expect(alerts.json().meta.total).toBe(2);
    expect(alerts.json().data[0]).toMatchObject({
      type: 'invoice_email_failed',
      referenceType: 'invoice',
      referenceId: inv.id,
    });
    expect(alerts.json().data[0].message).toContain(inv.invoiceNumber);
    expect(Object.keys(alerts.json().data[0]).sort()).toEqual([
      'createdAt',
      'id',
      'message',
      'referenceId',
      'referenceType',
      'type',
    ]);
    const admin = await addMember(t.app, owner, 'admin');
    expect((await t.app.inject(authed(admin.token, { method: 'GET', url: '/api/v1/alerts' }))).statusCode).toBe(200);
    const accountant = await addMember(t.app, owner, 'accountant');
    expect((await t.app.inject(authed(accountant.token, { method: 'GET', url: '/api/v1/alerts' }))).statusCode).toBe(
      403,
    );
    const other = await registerOrg(t.app);
    expect((await t.app.inject(authed(other.token, { method: 'GET', url: '/api/v1/alerts' }))).json().meta.total).toBe(
      0,
    );
  });
});

describe('sending without holding the database', () => {
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let t: TestApp;
  let owner: Session;

  beforeAll(async () => {
    smtp = await smtpServer(false, 1500);
    t = await buildTestApp({ RATE_LIMITS: 'off', SMTP_URL: smtp.url });
    owner = await registerOrg(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('keeps serving other requests while the mail server answers slowly, and refuses a second concurrent send', async () => {
    const customer = await createCustomer(t.app, owner, { email: 'slow@example.test' });
    const inv = await createInvoice(t.app, owner, invoiceBody(customer.id, DATES));
    let delivered = false;
    const sending = t.app.inject(
      authed(owner.token, { method: 'POST', url: `/api/v1/invoices/${inv.id}/send`, payload: {} }),
    );
    void sending.then(() => {
      delivered = true;
    });
    await new Promise((r) => setTimeout(r, 400));
    // On PGlite there is one connection: had the send held it, these would wait for the mail server.
    const read = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}` }));
    expect(read.statusCode).toBe(200);
    expect(read.json().status).toBe('draft');
    const second = await t.app.inject(
      authed(owner.token, { method: 'PATCH', url: `/api/v1/invoices/${inv.id}/status`, payload: { action: 'send' } }),
    );
    // Both answers came while the send still waited for the mail server (no wall-clock bound).
    expect(delivered).toBe(false);
    expect(second.statusCode).toBe(400);
    expect(second.json().error).toMatchObject({ code: 'SVC-3004', details: { action: expect.any(Array) } });
    const res = await sending;
    expect(res.statusCode).toBe(200);
    expect(smtp.received).toHaveLength(1);
    const after = await t.app.inject(authed(owner.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}` }));
    expect(after.json().status).toBe('sent');
    expect(await postingsOf(t.t.db, owner.orgId, inv.id)).not.toHaveLength(0);
  });

  it('takes over a stale claim left by a send that never finished', async () => {
    const customer = await createCustomer(t.app, owner, { email: 'stale@example.test' });
    const inv = await createInvoice(t.app, owner, invoiceBody(customer.id, DATES));
    await t.t.db.system
      .updateTable('invoices')
      .set({ send_claimed_at: new Date(Date.now() - 10 * 60_000) })
      .where('id', '=', inv.id)
      .execute();
    const res = await t.app.inject(
      authed(owner.token, { method: 'POST', url: `/api/v1/invoices/${inv.id}/send`, payload: {} }),
    );
    expect(res.statusCode).toBe(200);
    const row = await t.t.db.system
      .selectFrom('invoices')
      .select(['status', 'send_claimed_at'])
      .where('id', '=', inv.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'sent', send_claimed_at: null });
  });
});

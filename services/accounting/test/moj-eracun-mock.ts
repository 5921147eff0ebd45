import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fatal, HAVE_RULES, loadRules, xsdErrors } from './einvoice-validation.js';

interface Doc {
  id: number;
  xml: string;
  number: string;
  senderOib: string;
  senderName: string;
  imported: boolean;
  /** The business status we set (UpdateDokumentProcessStatus): 0 approved, 1 rejected, ... */
  processStatusId: number | null;
  rejectReason: string | null;
}

export interface SentDoc {
  id: number;
  xml: string;
  number: string;
  year: number;
  /** 30 sent, 40 downloaded by the recipient, 50 unsuccessful. */
  statusId: number;
  /** The recipient's business status: 0 approved, 1 rejected, 2/3 paid, 4 receipt confirmed. */
  processStatusId: number | null;
  rejectReason: string | null;
  /** The payment reported through /api/fiscalization/markPaid (Moj-eRačun fiscalizes it). */
  payment: { date: string; amount: number; method: string } | null;
}

/** A forced answer: a status with an optional body and headers, a cut connection, or (send only) a
 * registration whose answer is lost (the connection dies after Moj-eRačun stored the document). */
export type Forced =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { drop: true }
  | { registerThenDrop: true }
  /** The request is answered as usual once `until` settles (a slow intermediary). */
  | { hold: Promise<void> };

const STATUS_NAMES: Record<number, string> = { 30: 'Poslan', 40: 'Preuzet', 50: 'Neuspjelo' };
const PROCESS_NAMES: Record<number, string> = {
  0: 'Prihvaćen',
  1: 'Odbijen',
  2: 'Plaćeno u potpunosti',
  3: 'Djelomično plaćeno',
  4: 'Potvrda zaprimanja',
};

/** The document's number: its first cbc:ID outside the extensions. */
const numberOf = (xml: string) =>
  /<cbc:ID(?:\s[^>]*)?>([^<]+)<\/cbc:ID>/.exec(
    xml.replace(/<ext:UBLExtensions>[\s\S]*?<\/ext:UBLExtensions>/, ''),
  )?.[1] ?? '';

/**
 * Moj-eRačun's REST API (API V2) as a local HTTP server, built from what its public clients show
 * (docs/accounting/exchange-hr.md): POST with JSON bodies carrying Username, Password, CompanyId
 * and SoftwareId; wrong credentials answer 401 with `{Username: {Value, Messages}}`; queryInbox
 * lists the documents addressed to the company not confirmed as imported, receive hands over one
 * document's XML, notifyimport/{id} confirms it; /api/mps/check answers 200 for a registered OIB
 * and 404 otherwise; send answers the document's row (no idempotency key: sending the same
 * document twice registers it twice, as nothing published says otherwise); queryOutbox finds sent
 * documents by ElectronicId or by InvoiceNumber and InvoiceYear; queryDocumentProcessStatusOutbox
 * adds the recipient's business status; UpdateDokumentProcessStatus sets ours on a received one.
 * Every UBL sent is checked with the official rules in ../shared/einvoice when they are there
 * (EN 16931 and HR CIUS Schematron + UBL XSD): a fatal failure is answered 400 with the messages.
 * With `fiscalizesOnSend` (as Moj-eRačun does), each accepted document counts as fiscalized.
 * /api/fiscalization/markPaid reports a sent document's payment (once; a second is refused).
 */
export class MojERacunMock {
  readonly calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  readonly inbox: Doc[] = [];
  readonly sent: SentDoc[] = [];
  readonly registered = new Set<string>();
  /** Every UBL that reached send, with what the official rules said about it. */
  readonly validations: Array<{ number: string; failures: string[] }> = [];
  /** The documents Moj-eRačun fiscalized on send (their numbers). */
  readonly fiscalized: string[] = [];
  fiscalizesOnSend = true;
  /** The documents whose payment Moj-eRačun reported (their numbers, once per markPaid accepted). */
  readonly paymentsReported: string[] = [];
  /** Off only for the adapter's own test, which sends a fragment. */
  validate = true;
  /** The next answers to force, by path. */
  readonly failures = new Map<string, Forced[]>();
  credentials = { Username: 'demo-user', Password: 'demo-pass', CompanyId: '', SoftwareId: 'Ledgerline-001' };
  private server: Server | null = null;
  private nextId = 3_148_000;
  url = '';

  addReceived(xml: string, number: string, senderOib: string, senderName = 'Dobavljač d.o.o.') {
    const id = this.nextId++;
    this.inbox.push({
      id,
      xml,
      number,
      senderOib,
      senderName,
      imported: false,
      processStatusId: null,
      rejectReason: null,
    });
    return id;
  }

  /** The recipient acted on a sent document (downloaded it, approved or rejected it). */
  setSent(id: number, change: Partial<Pick<SentDoc, 'statusId' | 'processStatusId' | 'rejectReason'>>) {
    const doc = this.sent.find((d) => d.id === id);
    if (!doc) throw new Error(`no sent document ${id}`);
    Object.assign(doc, change);
  }

  sendsOf(number: string) {
    return this.calls.filter((c) => c.path === '/apis/v2/send' && numberOf(String(c.body.File ?? '')) === number);
  }

  private async check(xml: string): Promise<string[]> {
    if (!this.validate) return [];
    if (!/<(Invoice|CreditNote)\b/.test(xml)) return ['File: not a UBL Invoice or CreditNote'];
    if (!HAVE_RULES) return [];
    return [...fatal('HR', xml).map((f) => `${f.id}: ${f.text}`), ...(await xsdErrors(xml)).map((e) => `XSD: ${e}`)];
  }

  private outboxRow(d: SentDoc) {
    return {
      ElectronicId: d.id,
      DocumentNr: d.number,
      DocumentTypeId: d.xml.includes('<CreditNote') ? 2 : 1,
      DocumentTypeName: d.xml.includes('<CreditNote') ? 'Odobrenje' : 'Račun',
      StatusId: d.statusId,
      StatusName: STATUS_NAMES[d.statusId] ?? String(d.statusId),
      RecipientBusinessNumber: '',
      Created: new Date().toISOString(),
    };
  }

  async start() {
    if (HAVE_RULES) await loadRules(['en16931-ubl', 'hr-cius-2025']);
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const path = (req.url ?? '').split('?')[0];
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"invalid JSON"}');
        return;
      }
      this.calls.push({ path, body });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
          .end(JSON.stringify(value));
      const forced = this.failures.get(path)?.shift();
      if (forced && 'hold' in forced) await forced.hold;
      if (forced && 'drop' in forced) return void req.socket.destroy();
      if (forced && 'status' in forced) {
        if (forced.body !== undefined) return json(forced.status, forced.body, forced.headers);
        return void res
          .writeHead(forced.status, { 'content-type': 'text/plain', ...forced.headers })
          .end('Service unavailable');
      }
      const c = this.credentials;
      if (
        req.method !== 'POST' ||
        body.Username !== c.Username ||
        body.Password !== c.Password ||
        body.SoftwareId !== c.SoftwareId ||
        (c.CompanyId && body.CompanyId !== c.CompanyId)
      )
        return json(401, { Username: { Value: 'Incorrect', Messages: ['Korisničko ime i lozinka nisu ispravni.'] } });
      if (path === '/api/mps/check') {
        return this.registered.has(String(body.IdentifierValue))
          ? json(200, { IdentifierValue: body.IdentifierValue, Registered: true })
          : json(404, { message: 'Identifier not found' });
      }
      if (path === '/apis/v2/queryInbox') {
        const rows = this.inbox
          .filter((d) => body.Filter !== 'Undelivered' || !d.imported)
          .map((d) => ({
            ElectronicId: d.id,
            DocumentNr: d.number,
            DocumentTypeId: 1,
            DocumentTypeName: 'Račun',
            StatusId: 30,
            StatusName: 'Dostavljen',
            SenderBusinessNumber: d.senderOib,
            SenderBusinessUnit: null,
            SenderBusinessName: d.senderName,
            Imported: d.imported,
          }));
        return json(200, rows);
      }
      if (path === '/apis/v2/receive') {
        const doc = this.inbox.find((d) => d.id === Number(body.ElectronicId));
        if (!doc) return json(404, { message: 'Document not found' });
        return void res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' }).end(doc.xml);
      }
      const ack = /^\/apis\/v2\/notifyimport\/(\d+)$/.exec(path);
      if (ack) {
        const doc = this.inbox.find((d) => d.id === Number(ack[1]));
        if (!doc) return json(404, { message: 'Document not found' });
        doc.imported = true;
        return json(200, { ElectronicId: doc.id, Imported: true });
      }
      if (path === '/apis/v2/UpdateDokumentProcessStatus') {
        const doc = this.inbox.find((d) => d.id === Number(body.ElectronicId));
        if (!doc)
          return json(400, {
            ElectronicId: { Value: String(body.ElectronicId), Messages: [`Document: ${body.ElectronicId} not found`] },
          });
        const status = Number(body.StatusId);
        if (![0, 1, 2, 3].includes(status))
          return json(400, { StatusId: { Value: String(body.StatusId), Messages: ['Invalid StatusId.'] } });
        if (status === 1 && !body.RejectReason)
          return json(400, { RejectReason: { Value: '', Messages: ['RejectReason is required for status 1.'] } });
        doc.processStatusId = status;
        doc.rejectReason = status === 1 ? String(body.RejectReason) : null;
        return json(200, { ElectronicId: doc.id, DokumentProcessStatus: status, UpdateDate: new Date().toISOString() });
      }
      if (path === '/apis/v2/send') {
        const xml = String(body.File ?? '');
        const failures = await this.check(xml);
        this.validations.push({ number: numberOf(xml), failures });
        if (failures.length) return json(400, { File: { Value: '', Messages: failures } });
        const id = this.nextId++;
        const doc: SentDoc = {
          id,
          xml,
          number: numberOf(xml),
          year: new Date().getUTCFullYear(),
          statusId: 30,
          processStatusId: null,
          rejectReason: null,
          payment: null,
        };
        this.sent.push(doc);
        if (this.fiscalizesOnSend) this.fiscalized.push(doc.number);
        if (forced && 'registerThenDrop' in forced) return void req.socket.destroy();
        return json(200, { ...this.outboxRow(doc), DocumentNr: doc.number });
      }
      if (path === '/api/fiscalization/markPaid') {
        // As public clients send it (Odoo's l10n_hr_edi, MAES.Fiskal2): ElectronicId, PaymentDate
        // (YYYY-MM-DD), PaymentAmount, PaymentMethod; a mock in a C# client answers
        // {FiscalizationTimestamp, EncodedXml}. A second report of the same document is refused.
        const doc = this.sent.find((d) => d.id === Number(body.ElectronicId));
        if (!doc)
          return json(400, {
            ElectronicId: { Value: String(body.ElectronicId), Messages: [`Document: ${body.ElectronicId} not found`] },
          });
        const problems: Record<string, unknown> = {};
        if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.PaymentDate ?? '')))
          problems.PaymentDate = { Value: String(body.PaymentDate), Messages: ['PaymentDate is required.'] };
        if (typeof body.PaymentAmount !== 'number' || !(body.PaymentAmount > 0))
          problems.PaymentAmount = { Value: String(body.PaymentAmount), Messages: ['PaymentAmount is required.'] };
        if (!['T', 'O', 'Z'].includes(String(body.PaymentMethod)))
          problems.PaymentMethod = { Value: String(body.PaymentMethod), Messages: ['Invalid PaymentMethod.'] };
        if (Object.keys(problems).length) return json(400, problems);
        if (doc.payment)
          return json(400, { ElectronicId: { Value: String(doc.id), Messages: ['Plaćanje je već evidentirano.'] } });
        doc.payment = {
          date: String(body.PaymentDate),
          amount: Number(body.PaymentAmount),
          method: String(body.PaymentMethod),
        };
        this.paymentsReported.push(doc.number);
        if (forced && 'registerThenDrop' in forced) return void req.socket.destroy();
        return json(200, {
          FiscalizationTimestamp: '2026-11-27T10:00:00.000+01:00',
          EncodedXml: 'PD94bWwgdmVyc2lvbj0iMS4wIj8+',
        });
      }
      if (path === '/apis/v2/queryOutbox' || path === '/apis/v2/queryDocumentProcessStatusOutbox') {
        const rows = this.sent.filter(
          (d) =>
            (body.ElectronicId === undefined || d.id === Number(body.ElectronicId)) &&
            (body.InvoiceNumber === undefined || d.number === String(body.InvoiceNumber)) &&
            (body.InvoiceYear === undefined || d.year === Number(body.InvoiceYear)),
        );
        if (path === '/apis/v2/queryOutbox')
          return json(
            200,
            rows.map((d) => this.outboxRow(d)),
          );
        return json(
          200,
          rows.map((d) => ({
            ...this.outboxRow(d),
            IssueDate: new Date().toISOString(),
            DocumentProcessStatusId: d.processStatusId,
            DocumentProcessStatusName: d.processStatusId === null ? '' : PROCESS_NAMES[d.processStatusId],
            AdditionalDokumentStatusId: null,
            RejectReason: d.rejectReason,
          })),
        );
      }
      json(404, { message: 'Not found' });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

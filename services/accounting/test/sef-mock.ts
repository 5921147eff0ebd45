import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fatal, HAVE_RULES, loadRules, xsdErrors } from './einvoice-validation.js';

/**
 * A local SEF built from its published public API (docs/accounting/sef.md): the paths under
 * /api/publicApi, the `ApiKey` header (401 without a known one), JSON answers in SEF's PascalCase,
 * error bodies `{Message, FieldErrors?}`, idempotency of sales-invoice/ubl by `requestId` (the same
 * id answers the first registration again), and a rate limit (429 with Retry-After) when told to.
 * Every document uploaded is checked with the official rules in ../shared/einvoice when they are
 * there (srbdt Schematron + UBL XSD): a fatal failure is answered 400 with SEF-like field errors.
 */
export interface SefInvoice {
  salesInvoiceId: number;
  requestId: string;
  xml: string;
  status: string;
  comment: string | null;
}

type Injected =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** SEF registers the upload, then the connection dies before the answer (a crash or timeout). */
  | { kind: 'register-then-drop' }
  | { kind: 'drop' };

export class SefMock {
  readonly apiKeys = new Set<string>(['mock-api-key-0001']);
  readonly registeredPibs = new Set<string>();
  readonly sales = new Map<number, SefInvoice>();
  readonly byRequestId = new Map<string, number>();
  readonly purchases = new Map<number, { xml: string; status: string; comment: string | null; date: string }>();
  readonly changes: Array<{ date: string; SalesInvoiceId: number; NewInvoiceStatus: string }> = [];
  readonly calls: Array<{ method: string; path: string; query: URLSearchParams; body: string }> = [];
  /** Every document that reached the upload, with what the official rules said about it. */
  readonly validations: Array<{ requestId: string; failures: string[] }> = [];
  exemptionReasons = [{ Key: 'PDV-RS-24-1-1', Law: 'Član 24 stav 1 tačka 1', Text: 'Izvoz' }];
  unitMeasures = [{ Code: 'H87', Symbol: 'kom', NameSrbLtn: 'Komad' }];
  private readonly queue = new Map<string, Injected[]>();
  private nextId = 100_000 + randomInt(1000);
  private server = createServer((req, res) => void this.handle(req, res));
  url = '';

  async start() {
    if (HAVE_RULES) await loadRules(['rs-srbdt']);
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  /** The next call(s) to `path` (e.g. 'sales-invoice/ubl') answer this instead. */
  inject(path: string, ...what: Injected[]) {
    this.queue.set(path, [...(this.queue.get(path) ?? []), ...what]);
  }

  registrations() {
    return this.sales.size;
  }

  /** SEF changes a sales invoice's status (the buyer approved it, ...), as changes reports it. */
  setStatus(salesInvoiceId: number, status: string, date: string) {
    const inv = this.sales.get(salesInvoiceId);
    if (!inv) throw new Error(`no sales invoice ${salesInvoiceId}`);
    inv.status = status;
    this.changes.push({ date, SalesInvoiceId: salesInvoiceId, NewInvoiceStatus: status });
  }

  addPurchase(xml: string, date: string) {
    const id = this.nextId++;
    this.purchases.set(id, { xml, status: 'New', comment: null, date });
    return id;
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'application/xml' : 'application/json; charset=utf-8',
      ...headers,
    });
    res.end(text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://sef');
    const prefix = '/api/publicApi/';
    if (!url.pathname.startsWith(prefix)) return this.send(res, 404, { Message: 'Not found' });
    const path = url.pathname.slice(prefix.length);
    this.calls.push({ method: req.method ?? '', path, query: url.searchParams, body });
    if (!this.apiKeys.has(String(req.headers.apikey ?? '')))
      return this.send(res, 401, { Message: 'Authorization has been denied for this request.' });
    const injected = this.queue.get(path)?.shift();
    if (injected?.kind === 'status')
      return this.send(res, injected.status, injected.body ?? { Message: 'injected' }, injected.headers);
    if (injected?.kind === 'drop') return req.socket.destroy();
    const q = url.searchParams;
    const json = () => (body ? JSON.parse(body) : {});
    const route = `${req.method} ${path}`;
    switch (route) {
      case 'POST sales-invoice/ubl': {
        const requestId = q.get('requestId');
        if (!requestId) return this.send(res, 400, { Message: 'RequestId is required.' });
        const known = this.byRequestId.get(requestId);
        if (known !== undefined) return this.send(res, 200, this.uploadAnswer(known));
        const failures = HAVE_RULES
          ? [...fatal('RS', body).map((f) => `${f.id}: ${f.text}`), ...(await xsdErrors(body)).map((e) => `XSD: ${e}`)]
          : [];
        this.validations.push({ requestId, failures });
        if (failures.length)
          return this.send(res, 400, {
            Message: 'Validation failed.',
            FieldErrors: failures.map((f) => ({ FieldName: 'Invoice', ErrorMessage: f })),
          });
        if (!/<cbc:CustomizationID>[^<]*srbdt/.test(body))
          return this.send(res, 400, {
            Message: 'Invalid UBL document.',
            FieldErrors: [{ FieldName: 'CustomizationID', ErrorMessage: 'Nije podržan CustomizationID' }],
          });
        const id = this.nextId++;
        this.byRequestId.set(requestId, id);
        this.sales.set(id, { salesInvoiceId: id, requestId, xml: body, status: 'Sent', comment: null });
        if (injected?.kind === 'register-then-drop') return req.socket.destroy();
        return this.send(res, 200, this.uploadAnswer(id));
      }
      case 'GET sales-invoice': {
        const inv = this.sales.get(Number(q.get('invoiceId')));
        if (!inv) return this.send(res, 404, { Message: 'Invoice not found.' });
        return this.send(res, 200, { InvoiceId: inv.salesInvoiceId, Status: inv.status, Comment: inv.comment });
      }
      case 'POST sales-invoice/changes': {
        const date = q.get('date');
        if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return this.send(res, 400, { Message: 'Date is required.' });
        return this.send(
          res,
          200,
          this.changes
            .filter((c) => c.date === date)
            .map((c, i) => ({
              EventId: i + 1,
              Date: `${c.date}T10:00:00`,
              NewInvoiceStatus: c.NewInvoiceStatus,
              SalesInvoiceId: c.SalesInvoiceId,
            })),
        );
      }
      case 'POST sales-invoice/cancel':
      case 'POST sales-invoice/storno': {
        const b = json();
        const inv = this.sales.get(Number(b.invoiceId));
        if (!inv) return this.send(res, 404, { Message: 'Invoice not found.' });
        const cancel = route.endsWith('cancel');
        const comment = cancel ? b.cancelComments : b.stornoComment;
        if (!comment) return this.send(res, 400, { Message: 'Comment is required.' });
        // Cancel before the buyer acted; storno after it was sent, approved or rejected.
        const allowed = cancel ? ['Draft', 'New', 'Sent', 'Mistake'] : ['Sent', 'Approved', 'Rejected'];
        if (!allowed.includes(inv.status))
          return this.send(res, 400, {
            Message: `Invoice in status ${inv.status} cannot be ${cancel ? 'cancelled' : 'stornoed'}.`,
          });
        inv.status = cancel ? 'Cancelled' : 'Storno';
        inv.comment = comment;
        return this.send(res, 200, { InvoiceId: inv.salesInvoiceId, Status: inv.status, Comment: comment });
      }
      case 'POST purchase-invoice/ids': {
        const from = q.get('dateFrom')?.slice(0, 10) ?? '0000';
        const to = q.get('dateTo')?.slice(0, 10) ?? '9999';
        const ids = [...this.purchases].filter(([, p]) => p.date >= from && p.date <= to).map(([id]) => id);
        return this.send(res, 200, { PurchaseInvoiceIds: ids });
      }
      case 'GET purchase-invoice/xml': {
        const p = this.purchases.get(Number(q.get('invoiceId')));
        if (!p) return this.send(res, 404, { Message: 'Invoice not found.' });
        return this.send(res, 200, p.xml);
      }
      case 'GET purchase-invoice': {
        const p = this.purchases.get(Number(q.get('invoiceId')));
        if (!p) return this.send(res, 404, { Message: 'Invoice not found.' });
        return this.send(res, 200, { InvoiceId: Number(q.get('invoiceId')), Status: p.status });
      }
      case 'POST purchase-invoice/acceptRejectPurchaseInvoice': {
        const b = json();
        const p = this.purchases.get(Number(b.invoiceId));
        if (!p) return this.send(res, 404, { Message: 'Invoice not found.' });
        if (b.accepted === false && !b.comment)
          return this.send(res, 400, { Message: 'Comment is required when rejecting.' });
        if (p.status !== 'New' && p.status !== 'Seen')
          return this.send(res, 400, { Message: `Invoice in status ${p.status} cannot be accepted or rejected.` });
        p.status = b.accepted ? 'Approved' : 'Rejected';
        p.comment = b.comment ?? null;
        return this.send(res, 200, { Success: true, Message: null });
      }
      case 'POST Company/CheckIfCompanyRegisteredOnEfaktura': {
        const b = json();
        return this.send(res, 200, { EFakturaRegisteredCompany: this.registeredPibs.has(String(b.vatNumber)) });
      }
      case 'GET sales-invoice/getValueAddedTaxExemptionReasonList':
        return this.send(res, 200, this.exemptionReasons);
      case 'GET get-unit-measures':
        return this.send(res, 200, this.unitMeasures);
      default:
        return this.send(res, 404, { Message: `No such operation: ${route}` });
    }
  }

  private uploadAnswer(id: number) {
    return { InvoiceId: id, PurchaseInvoiceId: id + 1, SalesInvoiceId: id };
  }
}

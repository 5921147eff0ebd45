import type {
  IntermediaryAdapter,
  IntermediaryResult,
  PaymentToReport,
  ReceivedSummary,
  SentDocument,
  SentStatus,
} from './intermediary.js';

/**
 * Moj-eRačun (moj-eracun.hr), a Croatian information intermediary, through its published REST API
 * ("API V2", JSON over HTTPS; docs/accounting/exchange-hr.md says what was relied on). Every call
 * is a POST whose JSON body carries the credentials: Username, Password, CompanyId (the OIB),
 * CompanyBu (business unit, optional) and SoftwareId (issued by Moj-eRačun to the integrator).
 */
export const MOJ_ERACUN_BASE_URLS = {
  demo: 'https://demo.moj-eracun.hr',
  production: 'https://www.moj-eracun.hr',
} as const;

export interface MojERacunCredentials {
  username: string;
  password: string;
  companyId: string;
  companyBu: string | null;
  softwareId: string;
}

type Row = Record<string, unknown>;

/**
 * Moj-eRačun's document status (StatusId of send, queryOutbox and the process-status queries):
 * 10 and 20 in processing, 30 sent, 40 downloaded by the recipient ("Preuzet"), 45 download
 * withdrawn, 50 unsuccessful ("Neuspjelo"), 60 expired (public clients list these).
 */
const DELIVERED = new Set([40]);
const UNDELIVERABLE = new Set([50, 60]);
/**
 * The recipient's business status (DocumentProcessStatusId, UpdateDokumentProcessStatus):
 * 0 approved, 1 rejected, 2 fully paid, 3 partially paid, 4 receipt confirmed, 99 received.
 */
const PROCESS_ACCEPTED = new Set([0, 2, 3]);
const PROCESS_REJECTED = 1;

function retryAfterMs(res: Response): number | null {
  const v = res.headers.get('retry-after');
  if (!v) return null;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

/** The provider's error bodies: `{Field: {Value, Messages: [...]}}` or a message text. */
function messageOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as Row;
    const parts: string[] = [];
    for (const [field, v] of Object.entries(body)) {
      const msgs = (v as Row | null)?.Messages;
      if (Array.isArray(msgs)) parts.push(`${field}: ${msgs.join(' ')}`);
      else if (typeof v === 'string' && /message/i.test(field)) parts.push(v);
    }
    if (parts.length) return `Moj-eRačun ${status}: ${parts.join('; ')}`;
  } catch {
    // not JSON
  }
  return `Moj-eRačun ${status}: ${text.slice(0, 500) || 'no message'}`;
}

export class MojERacunAdapter implements IntermediaryAdapter {
  readonly provider = 'moj-eracun';

  constructor(
    private readonly opts: {
      baseUrl: string;
      credentials: MojERacunCredentials;
      timeoutMs: number;
      fetch?: typeof fetch;
    },
  ) {}

  private async call(path: string, params: Row = {}): Promise<IntermediaryResult<Response>> {
    const c = this.opts.credentials;
    const body: Row = {
      Username: c.username,
      Password: c.password,
      CompanyId: c.companyId,
      ...(c.companyBu ? { CompanyBu: c.companyBu } : {}),
      SoftwareId: c.softwareId,
      ...params,
    };
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(`${this.opts.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json, application/xml' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      return { ok: false, retry: true, status: null, message: `Moj-eRačun unreachable: ${String(err)}` };
    }
    if (res.ok) return { ok: true, value: res };
    const text = await res.text().catch(() => '');
    return {
      ok: false,
      retry: res.status === 429 || res.status >= 500,
      status: res.status,
      message: messageOf(res.status, text),
      retryAfterMs: res.status === 429 ? retryAfterMs(res) : null,
    };
  }

  private async json<T>(path: string, params: Row = {}): Promise<IntermediaryResult<T>> {
    const r = await this.call(path, params);
    if (!r.ok) return r;
    const text = await r.value.text();
    try {
      const value = JSON.parse(text) as T;
      // An answer of 200 can still carry the error shape ({Username: {Value, Messages}}).
      if (value && !Array.isArray(value) && typeof value === 'object' && !('ElectronicId' in (value as Row))) {
        const msg = messageOf(200, text);
        if (/Messages/.test(text)) return { ok: false, retry: false, status: 200, message: msg };
      }
      return { ok: true, value };
    } catch {
      return { ok: false, retry: true, status: r.value.status, message: 'Moj-eRačun: unreadable answer' };
    }
  }

  async send(ublXml: string): Promise<IntermediaryResult<SentDocument>> {
    const r = await this.json<Row>('/apis/v2/send', { File: ublXml });
    if (!r.ok) return r;
    return {
      ok: true,
      value: { documentId: String(r.value.ElectronicId), status: String(r.value.StatusName ?? r.value.StatusId ?? '') },
    };
  }

  /**
   * queryDocumentProcessStatusOutbox {ElectronicId}: the row of queryOutbox plus the recipient's
   * business status (DocumentProcessStatusId, DocumentProcessStatusName, RejectReason).
   */
  async status(documentId: string): Promise<IntermediaryResult<SentStatus>> {
    const r = await this.json<Row[]>('/apis/v2/queryDocumentProcessStatusOutbox', {
      ElectronicId: Number(documentId),
    });
    if (!r.ok) return r;
    const row = Array.isArray(r.value) ? r.value.find((x) => String(x.ElectronicId) === documentId) : undefined;
    if (!row) return { ok: false, retry: false, status: 404, message: `Moj-eRačun: no document ${documentId}` };
    const statusId = num(row.StatusId);
    const processId = num(row.DocumentProcessStatusId);
    const decision =
      processId === null
        ? null
        : PROCESS_ACCEPTED.has(processId)
          ? ('accepted' as const)
          : processId === PROCESS_REJECTED
            ? ('rejected' as const)
            : null;
    return {
      ok: true,
      value: {
        status: String(row.DocumentProcessStatusName || row.StatusName || row.StatusId || ''),
        delivery:
          statusId !== null && UNDELIVERABLE.has(statusId)
            ? 'undeliverable'
            : (statusId !== null && DELIVERED.has(statusId)) || processId !== null
              ? 'delivered'
              : 'sent',
        decision,
        reason: row.RejectReason ? String(row.RejectReason) : null,
      },
    };
  }

  /** queryOutbox {InvoiceNumber, InvoiceYear}: the document sent under that number, if any. */
  async findSent(documentNumber: string, year: number): Promise<IntermediaryResult<SentDocument | null>> {
    const r = await this.json<Row[]>('/apis/v2/queryOutbox', { InvoiceNumber: documentNumber, InvoiceYear: year });
    if (!r.ok) return r;
    const rows = Array.isArray(r.value) ? r.value : [];
    const row = rows.find((x) => String(x.DocumentNr ?? '') === documentNumber);
    if (!row) return { ok: true, value: null };
    return {
      ok: true,
      value: { documentId: String(row.ElectronicId), status: String(row.StatusName ?? row.StatusId ?? '') },
    };
  }

  /** UpdateDokumentProcessStatus {ElectronicId, StatusId: 0 approved | 1 rejected, RejectReason}. */
  async updateProcessStatus(
    documentId: string,
    decision: 'accepted' | 'rejected',
    reason: string | null,
  ): Promise<IntermediaryResult<null>> {
    const r = await this.json<Row>('/apis/v2/UpdateDokumentProcessStatus', {
      ElectronicId: Number(documentId),
      StatusId: decision === 'accepted' ? 0 : PROCESS_REJECTED,
      ...(decision === 'rejected' && reason ? { RejectReason: reason } : {}),
    });
    if (!r.ok) return r;
    return { ok: true, value: null };
  }

  async inbox(): Promise<IntermediaryResult<ReceivedSummary[]>> {
    const r = await this.json<Row[]>('/apis/v2/queryInbox', { Filter: 'Undelivered' });
    if (!r.ok) return r;
    return {
      ok: true,
      value: r.value.map((row) => ({
        documentId: String(row.ElectronicId),
        documentNumber: row.DocumentNr === undefined || row.DocumentNr === null ? null : String(row.DocumentNr),
        senderVatNumber: row.SenderBusinessNumber ? String(row.SenderBusinessNumber) : null,
        senderName: row.SenderBusinessName ? String(row.SenderBusinessName) : null,
        status: String(row.StatusName ?? row.StatusId ?? ''),
      })),
    };
  }

  async receive(documentId: string): Promise<IntermediaryResult<string>> {
    const r = await this.call('/apis/v2/receive', { ElectronicId: Number(documentId) });
    if (!r.ok) return r;
    return { ok: true, value: await r.value.text() };
  }

  async confirmImported(documentId: string): Promise<IntermediaryResult<null>> {
    const r = await this.call(`/apis/v2/notifyimport/${encodeURIComponent(documentId)}`);
    if (!r.ok) return r;
    await r.value.text().catch(() => '');
    return { ok: true, value: null };
  }

  /**
   * /api/fiscalization/markPaid {ElectronicId, PaymentDate (YYYY-MM-DD), PaymentAmount,
   * PaymentMethod}: the payment report of a document Moj-eRačun sent and fiscalized. Its answer
   * (public clients' mocks: {FiscalizationTimestamp, EncodedXml}) is read for the timestamp only.
   */
  async markPaid(
    documentId: string,
    payment: PaymentToReport,
  ): Promise<IntermediaryResult<{ fiscalizedAt: string | null }>> {
    const r = await this.call('/api/fiscalization/markPaid', {
      ElectronicId: Number(documentId),
      PaymentDate: payment.paidAt,
      PaymentAmount: Number(payment.amount),
      PaymentMethod: payment.method,
    });
    if (!r.ok) return r;
    const text = await r.value.text().catch(() => '');
    let body: Row = {};
    try {
      body = JSON.parse(text || '{}') as Row;
    } catch {
      // an empty or non-JSON 2xx answer is still a yes
    }
    // An answer of 200 can still carry the error shape ({Field: {Value, Messages}}).
    if (/"Messages"/.test(text) && !('FiscalizationTimestamp' in body))
      return { ok: false, retry: false, status: 200, message: messageOf(200, text) };
    const at = body.FiscalizationTimestamp;
    return { ok: true, value: { fiscalizedAt: typeof at === 'string' && at ? at.slice(0, 64) : null } };
  }

  async recipientRegistered(oib: string): Promise<IntermediaryResult<boolean>> {
    const r = await this.call('/api/mps/check', { IdentifierType: '0', IdentifierValue: oib });
    if (r.ok) {
      await r.value.text().catch(() => '');
      return { ok: true, value: true };
    }
    if (r.status === 404) return { ok: true, value: false };
    return r;
  }
}

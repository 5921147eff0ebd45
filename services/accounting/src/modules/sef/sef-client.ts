/**
 * SEF's public API (efaktura.mfin.gov.rs, "publicApi"), the calls this service makes. Paths,
 * parameters and answer fields as docs/accounting/sef.md lists them (from SEF's published OpenAPI
 * document as public clients reproduce it). Every call carries the organization's key in the
 * `ApiKey` header. A call never runs inside a database transaction (the callers record intent,
 * commit, call, then record the result).
 */

export type SefEnvironment = 'demo' | 'production';

export const SEF_BASE_URLS: Record<SefEnvironment, string> = {
  demo: 'https://demoefaktura.mfin.gov.rs',
  production: 'https://efaktura.mfin.gov.rs',
};

/** How a call ended: SEF's answer, a refusal to keep (4xx), or a failure worth retrying. */
export type SefResult<T> =
  | { ok: true; value: T }
  /** 4xx other than 429: SEF refused the request; `message` is SEF's own text. */
  | { ok: false; retry: false; status: number; message: string }
  /** Network failure, timeout, 429 or 5xx: try again later (`retryAfterMs` from Retry-After). */
  | { ok: false; retry: true; status: number | null; message: string; retryAfterMs: number | null };

export interface SefClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** SEF's answer to an upload (ImportSalesUblDto). */
export interface SefUploadAnswer {
  InvoiceId: number;
  PurchaseInvoiceId: number | null;
  SalesInvoiceId: number;
}

/** One entry of sales-invoice/changes or purchase-invoice/changes (…StatusChangeDto). */
export interface SefStatusChange {
  EventId?: number;
  Date?: string;
  NewInvoiceStatus: string;
  SalesInvoiceId?: number;
  PurchaseInvoiceId?: number;
  Comment?: string | null;
}

export interface SefSalesInvoice {
  InvoiceId?: number;
  SalesInvoiceId?: number;
  Status: string;
  Comment?: string | null;
  CancelComment?: string | null;
  StornoComment?: string | null;
}

/** The message of an error body: SEF answers `{Message}` or a validation list, sometimes text. */
export function sefMessage(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of ['Message', 'message', 'ErrorMessage', 'title', 'detail']) {
      if (typeof body[key] === 'string' && body[key]) parts.push(body[key] as string);
    }
    const list = (body.FieldErrors ?? body.Errors ?? body.errors) as unknown;
    if (Array.isArray(list)) {
      for (const e of list) {
        if (typeof e === 'string') parts.push(e);
        else if (e && typeof e === 'object') {
          const o = e as Record<string, unknown>;
          const field = o.FieldName ?? o.fieldName ?? o.Field;
          const msg = o.ErrorMessage ?? o.Message ?? o.message ?? o.errorMessage;
          if (msg) parts.push(field ? `${field}: ${msg}` : String(msg));
        }
      }
    } else if (list && typeof list === 'object') {
      for (const [field, msgs] of Object.entries(list))
        parts.push(`${field}: ${([] as unknown[]).concat(msgs).join(' ')}`);
    }
    if (parts.length) return [...new Set(parts)].join('; ').slice(0, 2000);
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 2000) || 'no message';
}

function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export class SefClient {
  private readonly fetch: typeof fetch;
  constructor(private readonly opts: SefClientOptions) {
    this.fetch = opts.fetch ?? globalThis.fetch;
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string | number | undefined>,
    body: { xml: string } | { json: unknown } | null,
    parse: 'json' | 'text',
  ): Promise<SefResult<T>> {
    const url = new URL(`/api/publicApi/${path}`, this.opts.baseUrl);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      ApiKey: this.opts.apiKey,
      accept: parse === 'json' ? 'application/json' : '*/*',
    };
    let payload: string | undefined;
    if (body && 'xml' in body) {
      headers['content-type'] = 'application/xml';
      payload = body.xml;
    } else if (body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    }
    let res: Response;
    try {
      res = await this.fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err) {
      // The key is in a header, never in the message.
      const reason =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      return { ok: false, retry: true, status: null, message: `SEF unreachable: ${reason}`, retryAfterMs: null };
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      return {
        ok: false,
        retry: true,
        status: res.status,
        message: `SEF answer cut off: ${String(err)}`,
        retryAfterMs: null,
      };
    }
    if (res.status === 429 || res.status >= 500) {
      return {
        ok: false,
        retry: true,
        status: res.status,
        message: `SEF ${res.status}: ${sefMessage(text)}`,
        retryAfterMs: retryAfter(res.headers.get('retry-after')),
      };
    }
    if (!res.ok) return { ok: false, retry: false, status: res.status, message: sefMessage(text) };
    if (parse === 'text') return { ok: true, value: text as T };
    try {
      return { ok: true, value: (text ? JSON.parse(text) : null) as T };
    } catch {
      return {
        ok: false,
        retry: true,
        status: res.status,
        message: 'SEF answered something other than JSON',
        retryAfterMs: null,
      };
    }
  }

  /** POST sales-invoice/ubl?requestId=…: registers the UBL (SEF deduplicates by requestId). */
  sendUbl(xml: string, requestId: string, sendToCir: 'Yes' | 'No' = 'No') {
    return this.call<SefUploadAnswer>(
      'POST',
      'sales-invoice/ubl',
      { requestId, sendToCir, executeValidation: 'true' },
      { xml },
      'json',
    );
  }

  /** GET sales-invoice?invoiceId=…: one sales invoice's status. */
  salesInvoice(salesInvoiceId: number) {
    return this.call<SefSalesInvoice>('GET', 'sales-invoice', { invoiceId: salesInvoiceId }, null, 'json');
  }

  /** POST sales-invoice/changes?date=YYYY-MM-DD: the status changes of that day. */
  salesChanges(date: string) {
    return this.call<SefStatusChange[]>('POST', 'sales-invoice/changes', { date }, null, 'json');
  }

  /** POST sales-invoice/cancel {invoiceId, cancelComments}: before the buyer acts. */
  cancel(salesInvoiceId: number, comment: string) {
    return this.call<SefSalesInvoice>(
      'POST',
      'sales-invoice/cancel',
      {},
      { json: { invoiceId: salesInvoiceId, cancelComments: comment } },
      'json',
    );
  }

  /** POST sales-invoice/storno {invoiceId, stornoNumber, stornoComment}: after it was sent or approved. */
  storno(salesInvoiceId: number, comment: string, stornoNumber?: string) {
    return this.call<SefSalesInvoice>(
      'POST',
      'sales-invoice/storno',
      {},
      { json: { invoiceId: salesInvoiceId, stornoNumber, stornoComment: comment } },
      'json',
    );
  }

  /** POST purchase-invoice/ids?dateFrom&dateTo[&status]: {PurchaseInvoiceIds: number[]}. */
  purchaseIds(dateFrom: string, dateTo: string, status?: string) {
    return this.call<{ PurchaseInvoiceIds: number[] }>(
      'POST',
      'purchase-invoice/ids',
      { dateFrom, dateTo, status },
      null,
      'json',
    );
  }

  /** GET purchase-invoice/xml?invoiceId=…: the received document as SEF stores it (UBL). */
  purchaseXml(purchaseInvoiceId: number) {
    return this.call<string>('GET', 'purchase-invoice/xml', { invoiceId: purchaseInvoiceId }, null, 'text');
  }

  /** GET purchase-invoice?invoiceId=…: its status. */
  purchaseInvoice(purchaseInvoiceId: number) {
    return this.call<{ Status: string }>('GET', 'purchase-invoice', { invoiceId: purchaseInvoiceId }, null, 'json');
  }

  /** POST purchase-invoice/acceptRejectPurchaseInvoice {invoiceId, accepted, comment}. */
  acceptReject(purchaseInvoiceId: number, accepted: boolean, comment: string) {
    return this.call<unknown>(
      'POST',
      'purchase-invoice/acceptRejectPurchaseInvoice',
      {},
      { json: { invoiceId: purchaseInvoiceId, accepted, comment } },
      'json',
    );
  }

  /** POST Company/CheckIfCompanyRegisteredOnEfaktura {vatNumber, registrationNumber}. */
  companyRegistered(vatNumber: string, registrationNumber?: string | null) {
    return this.call<{ EFakturaRegisteredCompany?: boolean; eFakturaRegisteredCompany?: boolean }>(
      'POST',
      'Company/CheckIfCompanyRegisteredOnEfaktura',
      {},
      { json: { vatNumber, registrationNumber: registrationNumber ?? undefined } },
      'json',
    );
  }

  /** GET sales-invoice/getValueAddedTaxExemptionReasonList. */
  exemptionReasons() {
    return this.call<Array<Record<string, unknown>>>(
      'GET',
      'sales-invoice/getValueAddedTaxExemptionReasonList',
      {},
      null,
      'json',
    );
  }

  /** GET get-unit-measures. */
  unitMeasures() {
    return this.call<Array<Record<string, unknown>>>('GET', 'get-unit-measures', {}, null, 'json');
  }
}

/** SEF's registration flag, whichever casing it comes in. */
export function isRegistered(
  answer: { EFakturaRegisteredCompany?: boolean; eFakturaRegisteredCompany?: boolean } | null,
) {
  return Boolean(answer?.EFakturaRegisteredCompany ?? answer?.eFakturaRegisteredCompany);
}

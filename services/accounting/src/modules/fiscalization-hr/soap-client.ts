import { elementText, findElements, parseXml } from '../../lib/xml-tree.js';

/**
 * The Tax Administration's fiscalization SOAP services (Fiskalizacija 2.0). The WSDLs in
 * ../shared/einvoice/hr-fiscalization leave the address empty; the base URLs below are
 * configuration (FISCALIZATION_BASE_URL replaces both) and are to be confirmed with the Tax
 * Administration's technical specification before production (docs/accounting/fiscalization-hr.md).
 */
export const FISCALIZATION_BASE_URLS = {
  test: 'https://cistest.apis-it.hr:8449',
  production: 'https://cis.porezna-uprava.hr:8449',
} as const;
export type FiscalizationEnvironment = keyof typeof FISCALIZATION_BASE_URLS;

export const SERVICE_PATHS = {
  eRacun: '/FiskalizacijaService/eFiskalizacija',
  izvjestavanje: '/FiskalizacijaService/eIzvjestavanje',
} as const;

export type FiscalOutcome =
  | { ok: true; accepted: true; requestId: string | null; answeredAt: string | null }
  | {
      ok: true;
      accepted: false;
      requestId: string | null;
      answeredAt: string | null;
      errors: Array<{ code: string; message: string }>;
    }
  | { ok: false; retry: true; message: string };

const find = findElements;
const text = elementText;

/** Reads the service's answer (…Odgovor): accepted, or the errors (`greska`: `sifra`, `opis`). */
export function parseAnswer(xml: string): FiscalOutcome {
  const tree = parseXml(xml);
  const accepted = text(find(tree, 'prihvacenZahtjev')[0]);
  if (accepted === null) return { ok: false, retry: true, message: 'no answer (prihvacenZahtjev) in the response' };
  const requestId = text(find(tree, 'idZahtjeva')[0]);
  const answeredAt = text(find(tree, 'datumVrijemeSlanja')[0]);
  if (accepted === 'true') return { ok: true, accepted: true, requestId, answeredAt };
  const errors = find(tree, 'greska').map((g) => ({
    code: text(find(g, 'sifra')[0]) ?? '',
    message: text(find(g, 'opis')[0]) ?? '',
  }));
  return { ok: true, accepted: false, requestId, answeredAt, errors };
}

/** Posts a signed request inside a SOAP 1.1 envelope; network failures and 5xx are for a retry. */
export async function callService(
  url: string,
  signedRequest: string,
  opts: { timeoutMs: number; fetch?: typeof fetch },
): Promise<FiscalOutcome> {
  const body = signedRequest.replace(/^<\?xml[^>]*\?>\s*/, '');
  const envelope = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body: envelope,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    return { ok: false, retry: true, message: `fiscalization service unreachable: ${String(err)}` };
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 500 && !text.includes('prihvacenZahtjev'))
    return { ok: false, retry: true, message: `fiscalization service ${res.status}` };
  try {
    return parseAnswer(text);
  } catch {
    return { ok: false, retry: true, message: `unreadable answer (${res.status})` };
  }
}

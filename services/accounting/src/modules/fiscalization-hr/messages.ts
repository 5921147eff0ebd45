import { randomUUID } from 'node:crypto';
import { create } from 'xmlbuilder2';

/**
 * Croatian fiscalization messages (Fiskalizacija 2.0, CONTRACT D5, issue 28), built to the Tax
 * Administration's schemas (../shared/einvoice/hr-fiscalization: eFiskalizacijaSchema.xsd and
 * eIzvjestavanjeSchema.xsd; the XSD is the authority where its samples differ). The e-invoice
 * message is built from the CIUS-HR UBL the service produces (or received), so both report the same
 * data. Unsigned here; sign.ts adds the XML-DSig the schemas require as the last child.
 */
export const FIS_NS = 'http://www.porezna-uprava.gov.hr/fin/2024/types/eFiskalizacija';
export const EIZ_NS = 'http://www.porezna-uprava.gov.hr/fin/2024/types/eIzvjestavanje';

type Node = Record<string, unknown>;
function kids(node: unknown, name: string): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const out: unknown[] = [];
  for (const [k, v] of Object.entries(node as Node)) {
    if (k.startsWith('@') || k === '#') continue;
    if (k.replace(/^.*:/, '') === name) out.push(...(Array.isArray(v) ? v : [v]));
  }
  return out;
}
const kid = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((n, name) => kids(n, name)[0], node);
function text(node: unknown): string | null {
  if (node === undefined || node === null) return null;
  if (typeof node === 'string' || typeof node === 'number') return String(node).trim();
  if (typeof node === 'object' && '#' in (node as Node)) return text((node as Node)['#']);
  return null;
}
const attr = (node: unknown, name: string) =>
  node && typeof node === 'object' ? ((node as Node)[`@${name}`] as string | undefined) : undefined;
const oib = (v: string | null | undefined) => (v ? (/(\d{11})$/.exec(v.replace(/\s/g, ''))?.[1] ?? null) : null);
const d2 = (v: string | null | undefined) => Number(v ?? 0).toFixed(2);
/** decimal30i10: at most 10 decimals, written without trailing zeros. */
const dec = (v: string | null | undefined) => {
  const s = Number(v ?? 0).toFixed(10);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
};

/** The send time the schemas want: local Zagreb time with four decimals of seconds. */
export function sendTime(now = new Date()) {
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Zagreb',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(now);
  return `${parts.replace(' ', 'T')}.${String(now.getMilliseconds()).padStart(3, '0')}0`;
}

export interface FiscalERacun {
  brojDokumenta: string;
  datumIzdavanja: string;
  vrstaDokumenta: string;
  valuta: string;
  datumDospijeca: string | null;
  vrstaPoslovnogProcesa: string;
  datumIsporuke: string | null;
  prethodni: Array<{ broj: string; datum: string }>;
  izdavatelj: { ime: string; oib: string; oibOperatera: string };
  primatelj: { ime: string; oib: string };
  racunZaPlacanje: string | null;
  iznosi: {
    neto: string;
    iznosBezPdv: string;
    pdv: string;
    iznosSPdv: string;
    placeno: string | null;
    zaPlatiti: string;
  };
  raspodjela: Array<{
    kategorija: string;
    osnovica: string;
    porez: string;
    stopa: string | null;
    razlog: string | null;
    tekstRazloga: string | null;
    hr: string | null;
  }>;
  stavke: Array<{
    kolicina: string;
    jedinica: string;
    neto: string;
    cijena: string;
    kategorija: string;
    stopa: string | null;
    naziv: string;
    hr: string | null;
    kpd: string | null;
  }>;
}

/** Reads what the fiscalization message needs from a CIUS-HR UBL invoice or credit note. */
export function fiscalDataFromUbl(ubl: string): FiscalERacun {
  const tree = create(ubl).end({ format: 'object' }) as Node;
  const kind = kids(tree, 'Invoice').length ? 'Invoice' : 'CreditNote';
  const doc = kid(tree, kind);
  if (!doc) throw new Error('not a UBL Invoice or CreditNote');
  const seller = kid(doc, 'AccountingSupplierParty', 'Party');
  const buyer = kid(doc, 'AccountingCustomerParty', 'Party');
  const totals = kid(doc, 'LegalMonetaryTotal');
  const taxTotal = kids(doc, 'TaxTotal').find((t) => kids(t, 'TaxSubtotal').length);
  const lineName = kind === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const qtyName = kind === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  const partyOib = (p: unknown) =>
    oib(text(kid(p, 'PartyTaxScheme', 'CompanyID'))) ??
    oib(text(kid(p, 'PartyLegalEntity', 'CompanyID'))) ??
    oib(text(kid(p, 'EndpointID')));
  const name = (p: unknown) =>
    text(kid(p, 'PartyLegalEntity', 'RegistrationName')) ?? text(kid(p, 'PartyName', 'Name')) ?? '';
  const hrCategory = (cat: unknown) => {
    const n = text(kid(cat, 'Name'));
    return n?.startsWith('HR:') ? n : null;
  };
  return {
    brojDokumenta: text(kid(doc, 'ID')) ?? '',
    datumIzdavanja: text(kid(doc, 'IssueDate')) ?? '',
    vrstaDokumenta: text(kid(doc, kind === 'Invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode')) ?? '380',
    valuta: text(kid(doc, 'DocumentCurrencyCode')) ?? 'EUR',
    datumDospijeca: text(kid(doc, 'DueDate')) ?? text(kid(doc, 'PaymentMeans', 'PaymentDueDate')),
    vrstaPoslovnogProcesa: text(kid(doc, 'ProfileID')) ?? 'P1',
    datumIsporuke: text(kid(doc, 'Delivery', 'ActualDeliveryDate')),
    prethodni: kids(doc, 'BillingReference').map((b) => ({
      broj: text(kid(b, 'InvoiceDocumentReference', 'ID')) ?? '',
      datum: text(kid(b, 'InvoiceDocumentReference', 'IssueDate')) ?? '',
    })),
    izdavatelj: {
      ime: name(seller),
      oib: partyOib(seller) ?? '',
      oibOperatera:
        oib(text(kid(doc, 'AccountingSupplierParty', 'SellerContact', 'ID'))) ??
        oib(text(kid(seller, 'Contact', 'ID'))) ??
        '',
    },
    primatelj: { ime: name(buyer), oib: partyOib(buyer) ?? '' },
    racunZaPlacanje: text(kid(doc, 'PaymentMeans', 'PayeeFinancialAccount', 'ID')),
    iznosi: {
      neto: d2(text(kid(totals, 'LineExtensionAmount'))),
      iznosBezPdv: d2(text(kid(totals, 'TaxExclusiveAmount'))),
      pdv: d2(text(kid(taxTotal, 'TaxAmount'))),
      iznosSPdv: d2(text(kid(totals, 'TaxInclusiveAmount'))),
      placeno: text(kid(totals, 'PrepaidAmount')) ? d2(text(kid(totals, 'PrepaidAmount'))) : null,
      zaPlatiti: d2(text(kid(totals, 'PayableAmount'))),
    },
    raspodjela: kids(taxTotal, 'TaxSubtotal').map((st) => {
      const cat = kid(st, 'TaxCategory');
      const k = text(kid(cat, 'ID')) ?? 'S';
      return {
        kategorija: k,
        osnovica: d2(text(kid(st, 'TaxableAmount'))),
        porez: d2(text(kid(st, 'TaxAmount'))),
        stopa: k === 'O' ? null : dec(text(kid(cat, 'Percent'))),
        razlog: text(kid(cat, 'TaxExemptionReasonCode')),
        tekstRazloga: text(kid(cat, 'TaxExemptionReason')),
        hr: hrCategory(cat),
      };
    }),
    stavke: kids(doc, lineName).map((l) => {
      const cat = kid(l, 'Item', 'ClassifiedTaxCategory');
      const k = text(kid(cat, 'ID')) ?? 'S';
      const kpd = kids(kid(l, 'Item'), 'CommodityClassification')
        .map((c) => kid(c, 'ItemClassificationCode'))
        .find((c) => attr(c, 'listID') === 'CG');
      return {
        kolicina: dec(text(kid(l, qtyName))),
        jedinica: attr(kid(l, qtyName), 'unitCode') ?? 'H87',
        neto: d2(text(kid(l, 'LineExtensionAmount'))),
        cijena: dec(text(kid(l, 'Price', 'PriceAmount'))),
        kategorija: k,
        stopa: k === 'O' ? null : dec(text(kid(cat, 'Percent'))),
        naziv: text(kid(l, 'Item', 'Name')) ?? '',
        hr: hrCategory(cat),
        kpd: text(kpd),
      };
    }),
  };
}

const put = (el: ReturnType<typeof create>, name: string, value: string | null | undefined) => {
  if (value !== null && value !== undefined && value !== '') el.ele(FIS_NS, `fis:${name}`).txt(value);
};

/**
 * EvidentirajERacunZahtjev: `I` for an issued e-invoice, `U` for a received one. `id` is the
 * request's own identifier (kept to match the answer).
 */
export function eRacunRequest(data: FiscalERacun, direction: 'I' | 'U', opts: { id?: string; now?: Date } = {}) {
  const id = opts.id ?? randomUUID();
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(FIS_NS, 'fis:EvidentirajERacunZahtjev').att(FIS_NS, 'fis:id', id);
  const head = root.ele(FIS_NS, 'fis:Zaglavlje');
  put(head, 'datumVrijemeSlanja', sendTime(opts.now));
  put(head, 'vrstaERacuna', direction);
  const r = root.ele(FIS_NS, 'fis:ERacun');
  put(r, 'brojDokumenta', data.brojDokumenta);
  put(r, 'datumIzdavanja', data.datumIzdavanja);
  put(r, 'vrstaDokumenta', data.vrstaDokumenta);
  put(r, 'valutaERacuna', data.valuta);
  put(r, 'datumDospijecaPlacanja', data.datumDospijeca);
  put(r, 'vrstaPoslovnogProcesa', data.vrstaPoslovnogProcesa);
  put(r, 'datumIsporuke', data.datumIsporuke);
  for (const p of data.prethodni) {
    const e = r.ele(FIS_NS, 'fis:PrethodniERacun');
    put(e, 'brojDokumenta', p.broj);
    put(e, 'datumIzdavanja', p.datum);
  }
  const iz = r.ele(FIS_NS, 'fis:Izdavatelj');
  put(iz, 'ime', data.izdavatelj.ime);
  put(iz, 'oibPorezniBroj', data.izdavatelj.oib);
  put(iz, 'oibOperatera', data.izdavatelj.oibOperatera);
  const pr = r.ele(FIS_NS, 'fis:Primatelj');
  put(pr, 'ime', data.primatelj.ime);
  put(pr, 'oibPorezniBroj', data.primatelj.oib);
  if (data.racunZaPlacanje)
    put(r.ele(FIS_NS, 'fis:PrijenosSredstava'), 'identifikatorRacunaZaPlacanje', data.racunZaPlacanje);
  const uk = r.ele(FIS_NS, 'fis:DokumentUkupanIznos');
  put(uk, 'neto', data.iznosi.neto);
  put(uk, 'iznosBezPdv', data.iznosi.iznosBezPdv);
  put(uk, 'pdv', data.iznosi.pdv);
  put(uk, 'iznosSPdv', data.iznosi.iznosSPdv);
  put(uk, 'placeniIznos', data.iznosi.placeno);
  put(uk, 'iznosKojiDospijevaZaPlacanje', data.iznosi.zaPlatiti);
  for (const t of data.raspodjela) {
    const e = r.ele(FIS_NS, 'fis:RaspodjelaPdv');
    put(e, 'kategorijaPdv', t.kategorija);
    put(e, 'oporeziviIznos', t.osnovica);
    put(e, 'iznosPoreza', t.porez);
    put(e, 'stopa', t.stopa);
    put(e, 'razlogOslobodenja', t.razlog?.toUpperCase());
    put(e, 'tekstRazlogaOslobodenja', t.tekstRazloga);
    put(e, 'hrOznakaKategorijaPdv', t.hr);
  }
  for (const s of data.stavke) {
    const e = r.ele(FIS_NS, 'fis:StavkaERacuna');
    put(e, 'kolicina', s.kolicina);
    put(e, 'jedinicaMjere', s.jedinica);
    put(e, 'neto', s.neto);
    put(e, 'artiklNetoCijena', s.cijena);
    put(e, 'artiklKategorijaPdv', s.kategorija);
    put(e, 'artiklStopaPdv', s.stopa);
    put(e, 'artiklNaziv', s.naziv);
    put(e, 'artiklHrOznakaKategorijaPdv', s.hr);
    if (s.kpd) {
      const k = e.ele(FIS_NS, 'fis:ArtiklIdentifikatorKlasifikacija');
      put(k, 'identifikatorKlasifikacije', s.kpd);
      put(k, 'identifikatorSheme', 'CG');
    }
  }
  put(r, 'indikatorKopije', 'false');
  return { id, xml: doc.end({ headless: false }) };
}

const putE = (el: ReturnType<typeof create>, name: string, value: string | null | undefined) => {
  if (value !== null && value !== undefined && value !== '') el.ele(EIZ_NS, `eiz:${name}`).txt(value);
};

interface ReportedDocument {
  brojDokumenta: string;
  datumIzdavanja: string;
  oibIzdavatelja: string;
  oibPrimatelja: string;
}

/** EvidentirajNaplatuZahtjev (e-reporting): the issuer received payment of an e-invoice. */
export function naplataRequest(
  p: ReportedDocument & { datumNaplate: string; iznos: string; nacinPlacanja: 'T' | 'O' | 'Z' },
  opts: { id?: string; now?: Date } = {},
) {
  const id = opts.id ?? randomUUID();
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(EIZ_NS, 'eiz:EvidentirajNaplatuZahtjev').att(EIZ_NS, 'eiz:id', id);
  putE(root.ele(EIZ_NS, 'eiz:Zaglavlje'), 'datumVrijemeSlanja', sendTime(opts.now));
  const n = root.ele(EIZ_NS, 'eiz:Naplata');
  putE(n, 'brojDokumenta', p.brojDokumenta);
  putE(n, 'datumIzdavanja', p.datumIzdavanja);
  putE(n, 'oibPorezniBrojIzdavatelja', p.oibIzdavatelja);
  putE(n, 'oibPorezniBrojPrimatelja', p.oibPrimatelja);
  putE(n, 'datumNaplate', p.datumNaplate);
  putE(n, 'naplaceniIznos', d2(p.iznos));
  putE(n, 'nacinPlacanja', p.nacinPlacanja);
  return { id, xml: doc.end({ headless: false }) };
}

/** EvidentirajOdbijanjeZahtjev (e-reporting): the receiver rejected an e-invoice. */
export function odbijanjeRequest(
  p: ReportedDocument & { datumOdbijanja: string; vrstaRazloga: string; razlog: string },
  opts: { id?: string; now?: Date } = {},
) {
  const id = opts.id ?? randomUUID();
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(EIZ_NS, 'eiz:EvidentirajOdbijanjeZahtjev').att(EIZ_NS, 'eiz:id', id);
  putE(root.ele(EIZ_NS, 'eiz:Zaglavlje'), 'datumVrijemeSlanja', sendTime(opts.now));
  const n = root.ele(EIZ_NS, 'eiz:Odbijanje');
  putE(n, 'brojDokumenta', p.brojDokumenta);
  putE(n, 'datumIzdavanja', p.datumIzdavanja);
  putE(n, 'oibPorezniBrojIzdavatelja', p.oibIzdavatelja);
  putE(n, 'oibPorezniBrojPrimatelja', p.oibPrimatelja);
  putE(n, 'datumOdbijanja', p.datumOdbijanja);
  putE(n, 'vrstaRazlogaOdbijanja', p.vrstaRazloga);
  putE(n, 'razlogOdbijanja', p.razlog);
  return { id, xml: doc.end({ headless: false }) };
}

import { create } from 'xmlbuilder2';

/** A received UBL invoice (or credit note) as a purchase invoice keeps it (D4). */
export interface ParsedPurchase {
  invoiceNumber: string;
  issueDate: string | null;
  dueDate: string | null;
  supplierName: string;
  supplierVatNumber: string | null;
  supplierRegistrationNumber: string | null;
  currencyCode: string;
  netAmount: string;
  taxAmount: string;
  totalAmount: string;
  lines: Array<{
    description: string;
    quantity: string;
    unitCode: string | null;
    lineTotal: string;
    taxRate: string | null;
  }>;
}

type Node = Record<string, unknown>;

/** Children by local name (namespace prefixes differ between senders). */
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

/** SEF wraps the UBL in an envelope (DocumentEnvelope/DocumentBody); the document is found by name. */
function findDocument(node: unknown, depth = 0): { doc: Node; kind: 'Invoice' | 'CreditNote' } | null {
  if (!node || typeof node !== 'object' || depth > 6) return null;
  for (const [k, v] of Object.entries(node as Node)) {
    if (k.startsWith('@') || k === '#') continue;
    const local = k.replace(/^.*:/, '');
    const first = Array.isArray(v) ? v[0] : v;
    if ((local === 'Invoice' || local === 'CreditNote') && kids(first, 'ID').length)
      return { doc: first as Node, kind: local };
    const inner = findDocument(first, depth + 1);
    if (inner) return inner;
  }
  return null;
}

/** A Serbian PIB (9 digits) or a Croatian OIB (11 digits), with or without the country prefix. */
const PIB = /^(?:RS|HR|9934:)?(\d{9}|\d{11})$/;

/** Parses what SEF hands over; throws when it is no UBL invoice. */
export function parsePurchaseUbl(xml: string): ParsedPurchase {
  const tree = create(xml).end({ format: 'object' });
  const found = findDocument(tree);
  if (!found) throw new Error('no UBL Invoice or CreditNote in the document');
  const { doc, kind } = found;
  const supplier = kid(doc, 'AccountingSupplierParty', 'Party');
  const endpoint = text(kid(supplier, 'EndpointID'));
  const taxScheme = text(kid(supplier, 'PartyTaxScheme', 'CompanyID'));
  const vat = [taxScheme, endpoint].map((v) => (v ? PIB.exec(v.replace(/\s/g, ''))?.[1] : undefined)).find(Boolean);
  const totals = kid(doc, 'LegalMonetaryTotal');
  const lineName = kind === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const qtyName = kind === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  const taxTotal = kids(doc, 'TaxTotal').find((t) => kids(t, 'TaxSubtotal').length) ?? kids(doc, 'TaxTotal')[0];
  const qty = (l: unknown) => kid(l, qtyName) as Node | undefined;
  return {
    invoiceNumber: text(kid(doc, 'ID')) ?? '',
    issueDate: text(kid(doc, 'IssueDate')),
    dueDate: text(kid(doc, 'DueDate')) ?? text(kid(doc, 'PaymentMeans', 'PaymentDueDate')),
    supplierName:
      text(kid(supplier, 'PartyLegalEntity', 'RegistrationName')) ?? text(kid(supplier, 'PartyName', 'Name')) ?? '',
    supplierVatNumber: vat ?? null,
    supplierRegistrationNumber: text(kid(supplier, 'PartyLegalEntity', 'CompanyID')),
    currencyCode: text(kid(doc, 'DocumentCurrencyCode')) ?? 'RSD',
    netAmount: text(kid(totals, 'TaxExclusiveAmount')) ?? '0',
    taxAmount: text(kid(taxTotal, 'TaxAmount')) ?? '0',
    totalAmount: text(kid(totals, 'PayableAmount')) ?? text(kid(totals, 'TaxInclusiveAmount')) ?? '0',
    lines: kids(doc, lineName).map((l) => ({
      description: text(kid(l, 'Item', 'Name')) ?? '',
      quantity: text(qty(l)) ?? '0',
      unitCode: (qty(l)?.['@unitCode'] as string | undefined) ?? null,
      lineTotal: text(kid(l, 'LineExtensionAmount')) ?? '0',
      taxRate: text(kid(l, 'Item', 'ClassifiedTaxCategory', 'Percent')),
    })),
  };
}

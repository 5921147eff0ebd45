import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

/**
 * UBL 2.1 serialisation of an e-invoice (E3). Everything here is already decided and formatted
 * (amounts as decimal strings); this file only knows where each business term goes in UBL and
 * which profile adds what. The document is built as a tree (xmlbuilder2), never by string
 * concatenation, and every text goes through xmlText first.
 */
export type Profile = 'RS' | 'HR' | 'BA';

export interface UblParty {
  name: string;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
  /** VAT identifier with its country prefix (BT-31 / BT-48). */
  vatId: string | null;
  /** Legal registration number (BT-30 / BT-47). */
  companyId: string | null;
  endpoint: { scheme: string; id: string } | null;
}

export interface UblLine {
  id: string;
  name: string;
  quantity: string;
  unitCode: string;
  price: string;
  lineTotal: string;
  category: string;
  /** null for O (outside VAT): such a line has no rate (BR-O-05). */
  percent: string | null;
  /** CIUS-HR tax category name (HR:PDV25 ...). */
  hrName: string | null;
  /** CIUS-HR: an exempt line names its reason itself (HR-BR-36). */
  exemptionCode: string | null;
  classification: { code: string; listId: string } | null;
}

export interface UblBreakdown {
  category: string;
  percent: string | null;
  taxable: string;
  tax: string;
  exemptionCode: string | null;
  hrName: string | null;
}

export interface UblDocument {
  profile: Profile;
  kind: 'invoice' | 'credit-note';
  id: string;
  issueDate: string;
  issueTime: string | null;
  dueDate: string;
  supplyDate: string;
  currency: string;
  decimals: number;
  /** The VAT accounting currency (BT-6) and the VAT total in it (BT-111), when it differs from the document's. */
  taxCurrency: { code: string; taxAmount: string } | null;
  billingReference: { id: string; issueDate: string } | null;
  seller: UblParty;
  operator: { oib: string; name: string } | null;
  buyer: UblParty;
  payment: { account: string | null; paymentId: string | null };
  notes: string[];
  lines: UblLine[];
  breakdown: UblBreakdown[];
  lineTotal: string;
  taxTotal: string;
  taxInclusive: string;
  prepaid: string;
  payable: string;
  deliveryCountry: string | null;
  attachment: { id: string; filename: string; base64: string } | null;
}

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  hrextac: 'urn:mfin.gov.hr:schema:xsd:HRExtensionAggregateComponents-1',
};

export const CUSTOMIZATION: Record<Profile, string> = {
  RS: 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.rs:srbdt:2022',
  HR: 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0',
  BA: 'urn:cen.eu:en16931:2017',
};

/** SEF: the tax point is the date of supply (code 35), given as the actual delivery date (BT-72). */
const RS_TAX_POINT_CODE = '35';

type Node = XMLBuilder;

/** Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/FFFF). */
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text as the builder must be given it (issue 33 item 8). xmlbuilder2 escapes a bare `&`, `<`
 * and `>` but leaves what already looks like a reference (`&#60;`, `&name;`) alone, so a customer
 * `ACME &#60;b&#62;` became markup in the document: every `&` is escaped here, which the builder
 * then keeps as it is, and the characters XML cannot carry are dropped.
 */
export function xmlText(text: string): string {
  return text.replace(XML_INVALID, '').replace(/&/g, '&amp;');
}

const cbc = (parent: Node, name: string, text: string, attrs?: Record<string, string>) => {
  const safeAttrs = attrs && Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, xmlText(v)]));
  const e = parent.ele(NS.cbc, `cbc:${name}`, safeAttrs);
  e.txt(xmlText(text));
  return parent;
};
const cac = (parent: Node, name: string) => parent.ele(NS.cac, `cac:${name}`);

export function renderUbl(d: UblDocument): string {
  const isCredit = d.kind === 'credit-note';
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
    isCredit ? NS.creditNote : NS.invoice,
    isCredit ? 'CreditNote' : 'Invoice',
    {
      'xmlns:cac': NS.cac,
      'xmlns:cbc': NS.cbc,
      ...(d.profile === 'HR' ? { 'xmlns:ext': NS.ext, 'xmlns:hrextac': NS.hrextac } : {}),
    },
  );
  const money = (parent: Node, name: string, amount: string, currency = d.currency) =>
    cbc(parent, name, amount, { currencyID: currency });

  if (d.profile === 'HR') hrExtension(root, d);
  cbc(root, 'CustomizationID', CUSTOMIZATION[d.profile]);
  if (d.profile === 'HR') cbc(root, 'ProfileID', isCredit ? 'P10' : 'P1');
  cbc(root, 'ID', d.id);
  cbc(root, 'IssueDate', d.issueDate);
  if (d.issueTime) cbc(root, 'IssueTime', d.issueTime);
  if (!isCredit) cbc(root, 'DueDate', d.dueDate);
  cbc(root, isCredit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode', isCredit ? '381' : '380');
  for (const note of d.notes) cbc(root, 'Note', note);
  cbc(root, 'DocumentCurrencyCode', d.currency);
  if (d.taxCurrency) cbc(root, 'TaxCurrencyCode', d.taxCurrency.code);
  if (d.profile === 'RS') cbc(cac(root, 'InvoicePeriod'), 'DescriptionCode', RS_TAX_POINT_CODE);
  if (d.billingReference) {
    const ref = cac(cac(root, 'BillingReference'), 'InvoiceDocumentReference');
    cbc(ref, 'ID', d.billingReference.id);
    cbc(ref, 'IssueDate', d.billingReference.issueDate);
  }
  if (d.attachment) {
    const ref = cac(root, 'AdditionalDocumentReference');
    cbc(ref, 'ID', d.attachment.id);
    cac(ref, 'Attachment')
      .ele(NS.cbc, 'cbc:EmbeddedDocumentBinaryObject', {
        mimeCode: 'application/pdf',
        filename: xmlText(d.attachment.filename),
      })
      .txt(d.attachment.base64);
  }

  const supplier = cac(root, 'AccountingSupplierParty');
  party(cac(supplier, 'Party'), d.seller);
  if (d.operator) {
    const contact = cac(supplier, 'SellerContact');
    cbc(contact, 'ID', d.operator.oib);
    cbc(contact, 'Name', d.operator.name);
  }
  party(cac(cac(root, 'AccountingCustomerParty'), 'Party'), d.buyer);

  const delivery = cac(root, 'Delivery');
  cbc(delivery, 'ActualDeliveryDate', d.supplyDate);
  if (d.deliveryCountry)
    cbc(cac(cac(cac(delivery, 'DeliveryLocation'), 'Address'), 'Country'), 'IdentificationCode', d.deliveryCountry);

  // Payment means only with the account to pay to (BR-61: a credit transfer names its account).
  if (d.payment.account) {
    const means = cac(root, 'PaymentMeans');
    cbc(means, 'PaymentMeansCode', '30');
    if (isCredit) cbc(means, 'PaymentDueDate', d.dueDate);
    if (d.payment.paymentId) cbc(means, 'PaymentID', d.payment.paymentId);
    cbc(cac(means, 'PayeeFinancialAccount'), 'ID', d.payment.account);
  }

  const taxTotal = cac(root, 'TaxTotal');
  money(taxTotal, 'TaxAmount', d.taxTotal);
  for (const b of d.breakdown) {
    const sub = cac(taxTotal, 'TaxSubtotal');
    money(sub, 'TaxableAmount', b.taxable);
    money(sub, 'TaxAmount', b.tax);
    const cat = cac(sub, 'TaxCategory');
    cbc(cat, 'ID', b.category);
    if (b.percent !== null) cbc(cat, 'Percent', b.percent);
    if (b.exemptionCode) cbc(cat, 'TaxExemptionReasonCode', b.exemptionCode);
    cbc(cac(cat, 'TaxScheme'), 'ID', 'VAT');
  }
  if (d.taxCurrency) money(cac(root, 'TaxTotal'), 'TaxAmount', d.taxCurrency.taxAmount, d.taxCurrency.code);

  const totals = cac(root, 'LegalMonetaryTotal');
  money(totals, 'LineExtensionAmount', d.lineTotal);
  money(totals, 'TaxExclusiveAmount', d.lineTotal);
  money(totals, 'TaxInclusiveAmount', d.taxInclusive);
  if (!/^0+(\.0+)?$/.test(d.prepaid)) money(totals, 'PrepaidAmount', d.prepaid);
  money(totals, 'PayableAmount', d.payable);

  for (const l of d.lines) {
    const line = cac(root, isCredit ? 'CreditNoteLine' : 'InvoiceLine');
    cbc(line, 'ID', l.id);
    cbc(line, isCredit ? 'CreditedQuantity' : 'InvoicedQuantity', l.quantity, { unitCode: l.unitCode });
    money(line, 'LineExtensionAmount', l.lineTotal);
    const item = cac(line, 'Item');
    cbc(item, 'Name', l.name);
    if (l.classification)
      cbc(cac(item, 'CommodityClassification'), 'ItemClassificationCode', l.classification.code, {
        listID: l.classification.listId,
      });
    const cat = cac(item, 'ClassifiedTaxCategory');
    cbc(cat, 'ID', l.category);
    if (l.hrName) cbc(cat, 'Name', l.hrName);
    if (l.percent !== null) cbc(cat, 'Percent', l.percent);
    if (l.exemptionCode) cbc(cat, 'TaxExemptionReasonCode', l.exemptionCode);
    cbc(cac(cat, 'TaxScheme'), 'ID', 'VAT');
    money(cac(line, 'Price'), 'PriceAmount', l.price);
  }
  return root.end({ prettyPrint: true });
}

function party(p: Node, x: UblParty) {
  if (x.endpoint) cbc(p, 'EndpointID', x.endpoint.id, { schemeID: x.endpoint.scheme });
  cbc(cac(p, 'PartyName'), 'Name', x.name);
  const address = cac(p, 'PostalAddress');
  if (x.street) cbc(address, 'StreetName', x.street);
  if (x.city) cbc(address, 'CityName', x.city);
  if (x.postalCode) cbc(address, 'PostalZone', x.postalCode);
  cbc(cac(address, 'Country'), 'IdentificationCode', x.country);
  if (x.vatId) {
    const scheme = cac(p, 'PartyTaxScheme');
    cbc(scheme, 'CompanyID', x.vatId);
    cbc(cac(scheme, 'TaxScheme'), 'ID', 'VAT');
  }
  const legal = cac(p, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', x.name);
  if (x.companyId) cbc(legal, 'CompanyID', x.companyId);
}

/**
 * CIUS-HR extension (HR-BG-2, HR-BG-3): the VAT breakdown with the HR category names and the
 * totals, out-of-scope amount 0 (the service issues no out-of-scope lines).
 */
function hrExtension(root: Node, d: UblDocument) {
  const data = root
    .ele(NS.ext, 'ext:UBLExtensions')
    .ele(NS.ext, 'ext:UBLExtension')
    .ele(NS.ext, 'ext:ExtensionContent')
    .ele(NS.hrextac, 'hrextac:HRFISK20Data');
  const total = data.ele(NS.hrextac, 'hrextac:HRTaxTotal');
  cbc(total, 'TaxAmount', d.taxTotal, { currencyID: d.currency });
  for (const b of d.breakdown) {
    const sub = total.ele(NS.hrextac, 'hrextac:HRTaxSubtotal');
    cbc(sub, 'TaxableAmount', b.taxable, { currencyID: d.currency });
    cbc(sub, 'TaxAmount', b.tax, { currencyID: d.currency });
    const cat = sub.ele(NS.hrextac, 'hrextac:HRTaxCategory');
    cbc(cat, 'ID', b.category);
    if (b.hrName) cbc(cat, 'Name', b.hrName);
    if (b.percent !== null) cbc(cat, 'Percent', b.percent);
    if (b.exemptionCode) cbc(cat, 'TaxExemptionReasonCode', b.exemptionCode);
    cat.ele(NS.hrextac, 'hrextac:HRTaxScheme').ele(NS.cbc, 'cbc:ID').txt('VAT');
  }
  const monetary = data.ele(NS.hrextac, 'hrextac:HRLegalMonetaryTotal');
  cbc(monetary, 'TaxExclusiveAmount', d.lineTotal, { currencyID: d.currency });
  monetary.ele(NS.hrextac, 'hrextac:OutOfScopeOfVATAmount', { currencyID: d.currency }).txt((0).toFixed(d.decimals));
}

import { type Static, Type } from 'typebox';
import { listQuery, Paginated } from '../../lib/pagination.js';
import { CurrencyCodeInput, IsoDate, literalUnion, Uuid } from '../../lib/schemas.js';
import { FiscalState } from './fiscal-state.js';
import { IntermediaryState, IntermediaryStatusSchema } from './intermediary-state.js';
import { SefState } from './sef-state.js';

export const INVOICE_STATUSES = ['draft', 'sent', 'viewed', 'paid', 'overdue', 'cancelled'] as const;
export const InvoiceStatus = literalUnion(INVOICE_STATUSES);

const Text = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);

// Numbers are checked for finiteness, sign and decimals by the service, which answers with the
// catalog's own codes (SVC-3007, SVC-3008) and the item's path (items[0].unitPrice).
export const ItemBody = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 500 }),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  // A decimal string is accepted too, so an item read back (taxRate "20") can be sent again as is.
  taxRate: Type.Union([Type.Number(), Type.String({ pattern: '^-?[0-9]{1,20}([.][0-9]{1,20})?$' })], {
    description: "percent: 0 or one of the organization's rates (GET /settings/tax-rates), compared as numbers",
  }),
  accountId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  unitCode: Type.Optional(
    Type.String({ pattern: '^[A-Z0-9]{1,3}$', description: 'UN/ECE Recommendation 20 unit code; default H87 (piece)' }),
  ),
  classificationCode: Type.Optional(
    Type.Union([
      Type.String({
        pattern: '^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$',
        description: 'HR: KPD 2025 code of the line (required for Croatian e-invoices)',
      }),
      Type.Null(),
    ]),
  ),
  vatExemptionCode: Type.Optional(
    Type.Union([
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$',
        description: 'with taxRate 0: a PDV-RS-... code (RS) or an EN 16931 VATEX code (HR, BA), e.g. VATEX-EU-132',
      }),
      Type.Null(),
    ]),
  ),
});

export const InvoiceBody = Type.Object({
  customerId: Uuid,
  invoiceDate: IsoDate,
  dueDate: IsoDate,
  supplyDate: Type.Optional(
    Type.Union([IsoDate, Type.Null()], { description: 'date of supply; default the invoice date' }),
  ),
  currencyCode: Type.Optional(CurrencyCodeInput),
  items: Type.Array(ItemBody, { maxItems: 200 }),
  discountAmount: Type.Optional(Type.Number()),
  notes: Type.Optional(Text(5000)),
  terms: Type.Optional(Text(5000)),
});
export type InvoiceBody = Static<typeof InvoiceBody>;

export const StatusBody = Type.Object({
  // Issue 25 item 6: an unknown action is 422 SVC-9003 listing these; a known one refused in the
  // invoice's status is 400 SVC-3004.
  action: literalUnion(['send', 'mark-paid', 'cancel']),
  paidAt: Type.Optional(Type.String({ maxLength: 40 })),
  bankAccountId: Type.Optional(Type.Union([Uuid, Type.Null()])),
});
export type StatusBody = Static<typeof StatusBody>;

export const SendBody = Type.Object({
  to: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  cc: Type.Optional(Type.Array(Type.String({ format: 'email', maxLength: 254 }), { maxItems: 10 })),
  subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  message: Type.Optional(Type.String({ maxLength: 5000 })),
});
export type SendBody = Static<typeof SendBody>;

export const SendResponse = Type.Object({ sentAt: Type.String(), sentTo: Type.String(), emailId: Type.String() });

export const InvoiceItem = Type.Object({
  id: Type.String(),
  lineNumber: Type.Integer(),
  description: Type.String(),
  quantity: Type.String(),
  unitPrice: Type.String(),
  taxRate: Type.String(),
  lineTotal: Type.String(),
  accountId: Type.Union([Type.String(), Type.Null()]),
  unitCode: Type.String(),
  classificationCode: Type.Union([Type.String(), Type.Null()]),
  vatExemptionCode: Type.Union([Type.String(), Type.Null()]),
});

export const InvoiceSummary = Type.Object({
  id: Type.String(),
  invoiceNumber: Type.String(),
  customerId: Type.String(),
  customerName: Type.String(),
  invoiceDate: Type.String(),
  dueDate: Type.String(),
  currencyCode: Type.String(),
  totalAmount: Type.String(),
  status: InvoiceStatus,
  createdAt: Type.String(),
  // Issue 28: the e-invoice's delivery state on each list item, the status only (the detail has the rest).
  sef: Type.Union([Type.Object({ status: Type.String() }), Type.Null()], {
    description: "RS: the invoice's SEF status (SEF's own, or Pending / Failed); null when never queued for SEF",
  }),
  fiscalization: Type.Union([Type.Object({ status: FiscalState.properties.status }), Type.Null()], {
    description: "HR: the e-invoice's fiscalization status (Pending, Fiscalized, Failed); null when not fiscalized",
  }),
  intermediary: Type.Union([Type.Object({ status: IntermediaryStatusSchema }), Type.Null()], {
    description: "HR: the e-invoice's delivery through the information intermediary; null when never queued",
  }),
});

const NullableString = Type.Union([Type.String(), Type.Null()]);

// The full invoice is the list item plus the amounts, items and document fields.
export const Invoice = Type.Object({
  ...InvoiceSummary.properties,
  exchangeRate: Type.String(),
  subtotal: Type.String(),
  taxAmount: Type.String(),
  discountAmount: Type.String(),
  baseAmount: Type.String(),
  supplyDate: Type.String(),
  paymentReference: Type.Union([Type.String(), Type.Null()], {
    description:
      'RS: model 97 ("97 " + check digits + number); HR: model HR01 ("HR01 " + year-sequence + control digit); BA: null',
  }),
  items: Type.Array(InvoiceItem),
  notes: NullableString,
  terms: NullableString,
  pdfUrl: NullableString,
  createdBy: NullableString,
  updatedAt: Type.String(),
  sentAt: NullableString,
  paidAt: NullableString,
  // CONTRACT D2 (issue 28): shown by GET /invoices/:id; null until queued for SEF.
  sef: Type.Optional(Type.Union([SefState, Type.Null()])),
  // CONTRACT D5 (issue 28): the Croatian fiscalization of the issued e-invoice; null until recorded.
  fiscalization: Type.Optional(Type.Union([FiscalState, Type.Null()])),
  // Issue 28: the e-invoice's delivery through the Croatian information intermediary; null until queued.
  intermediary: Type.Optional(Type.Union([IntermediaryState, Type.Null()])),
});

export const INVOICE_SORTS = ['invoiceDate', 'dueDate', 'invoiceNumber', 'totalAmount', 'createdAt', 'status'] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

export const InvoicesQuery = listQuery(INVOICE_SORTS, {
  status: Type.Optional(InvoiceStatus),
  customerId: Type.Optional(Uuid),
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
  search: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'part of the invoice number or of the customer name, any case (blank: no filter)',
    }),
  ),
});
export type InvoicesQuery = Static<typeof InvoicesQuery>;

export const InvoiceList = Paginated(InvoiceSummary);
export const TokenParams = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) });

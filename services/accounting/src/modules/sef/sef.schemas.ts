import { type Static, Type } from 'typebox';
import { listQuery, Paginated } from '../../lib/pagination.js';
import { IsoDate, literalUnion, Uuid } from '../../lib/schemas.js';
import { FiscalState } from '../invoices/fiscal-state.js';
import { Invoice } from '../invoices/invoices.schemas.js';
import { SefState } from '../invoices/sef-state.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SefEnvironmentSchema = literalUnion(['demo', 'production']);

/** GET/PUT /organization/sef (D1): the key is never returned. */
export const SefSettings = Type.Object({
  environment: SefEnvironmentSchema,
  enabled: Type.Boolean(),
  apiKeySet: Type.Boolean(),
  lastSyncAt: Nullable(Type.String({ format: 'date-time' })),
  webhookUrl: Type.Optional(
    Nullable(Type.String({ description: 'owner and admin only: the URL to give SEF for notifications' })),
  ),
});

export const PutSefSettingsBody = Type.Object(
  {
    apiKey: Type.Optional(Type.String({ minLength: 8, maxLength: 200, pattern: '^\\S+$' })),
    environment: Type.Optional(SefEnvironmentSchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PutSefSettingsBody = Static<typeof PutSefSettingsBody>;

export const InvoiceWithSef = Type.Object({
  ...Invoice.properties,
  sef: Nullable(SefState),
  creditNoteSef: Nullable(SefState),
});

export const ReasonBody = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 1000 }),
    stornoNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ReasonBody = Static<typeof ReasonBody>;

export const CommentBody = Type.Object(
  {
    comment: Type.String({ minLength: 1, maxLength: 1000 }),
    reasonType: Type.Optional(
      Type.Union([Type.Literal('N'), Type.Literal('U'), Type.Literal('O')], {
        description:
          'HR rejection report (vrstaRazlogaOdbijanja): N data not affecting the tax, U data affecting the tax, O other (default)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ExpenseFromPurchaseBody = Type.Object(
  { category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);

const PurchaseFields = {
  id: Uuid,
  source: literalUnion(['sef', 'hr-intermediary']),
  externalId: Type.String(),
  status: Type.String({ description: "SEF's status of the received invoice (New, Seen, Approved, Rejected, ...)" }),
  invoiceNumber: Type.String(),
  issueDate: Nullable(IsoDate),
  dueDate: Nullable(IsoDate),
  supplierName: Type.String(),
  supplierVatNumber: Nullable(Type.String()),
  currencyCode: Type.String(),
  netAmount: Type.String(),
  taxAmount: Type.String(),
  totalAmount: Type.String(),
  comment: Nullable(Type.String()),
  vendorId: Nullable(Uuid),
  expenseId: Nullable(Uuid),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};
export const PurchaseInvoiceSummary = Type.Object(PurchaseFields);
export const PurchaseInvoice = Type.Object({
  ...PurchaseFields,
  lines: Type.Array(
    Type.Object({
      description: Type.String(),
      quantity: Type.String(),
      unitCode: Nullable(Type.String()),
      lineTotal: Type.String(),
      taxRate: Nullable(Type.String()),
    }),
  ),
  ublUrl: Type.String(),
  // HR (issue 28): the received e-invoice's fiscalization (U) and its rejection report; null for SEF's.
  fiscalization: Type.Optional(
    Nullable(Type.Object({ received: Nullable(FiscalState), rejection: Nullable(FiscalState) })),
  ),
});
export const PurchaseInvoiceList = Paginated(PurchaseInvoiceSummary);

export const PURCHASE_SORTS = ['issueDate', 'createdAt', 'totalAmount'] as const;
export const PurchaseQuery = listQuery(PURCHASE_SORTS, {
  status: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
});

export const WebhookParams = Type.Object({
  token: Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export const WebhookEvent = Type.Object(
  {
    SalesInvoiceId: Type.Optional(Type.Integer()),
    PurchaseInvoiceId: Type.Optional(Type.Integer()),
    NewInvoiceStatus: Type.Optional(Type.String({ maxLength: 40 })),
    Status: Type.Optional(Type.String({ maxLength: 40 })),
    EventId: Type.Optional(Type.Integer()),
    Date: Type.Optional(Type.String({ maxLength: 40 })),
    Comment: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: true },
);
export const WebhookBody = Type.Union([WebhookEvent, Type.Array(WebhookEvent, { maxItems: 500 })]);

export const CodeLists = Type.Array(
  Type.Object({
    name: Type.String(),
    fetchedAt: Type.String({ format: 'date-time' }),
    entries: Type.Array(Type.Unknown()),
  }),
);

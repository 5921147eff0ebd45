import { Type } from 'typebox';
import { pageQuery } from '../../lib/pagination.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const CONSENT_TYPES = ['terms', 'privacy', 'marketing', 'cookies_analytics', 'cookies_marketing'] as const;
export const COMPLAINT_CATEGORIES = ['transaction', 'service', 'fees', 'privacy', 'technical', 'other'] as const;
export const COMPLAINT_SUBJECT_MAX = 200;
export const COMPLAINT_DESCRIPTION_MAX = 2000;
export const COMPLAINT_COMMITMENT = 'We will reply to your complaint within 15 business days.';

export const ConsentBody = Type.Object({
  consentType: Type.Union(CONSENT_TYPES.map((t) => Type.Literal(t))),
  granted: Type.Boolean(),
});

export const ConsentRecord = Type.Object({
  id: Type.String(),
  consent_type: Type.Enum(CONSENT_TYPES),
  granted: Type.Boolean(),
  granted_at: NullableString,
  withdrawn_at: NullableString,
  ip_address: NullableString,
});

export const ConsentEventRecord = Type.Object({
  id: Type.String(),
  consent_id: Type.String(),
  consent_type: Type.String(),
  granted: Type.Boolean({ description: 'true: granted; false: withdrawn' }),
  ip_address: NullableString,
  created_at: Type.String(),
});
export const ConsentHistoryQuery = Type.Object(pageQuery(50, 100));
export const ConsentHistoryResponse = Type.Object({
  data: Type.Array(ConsentEventRecord),
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  }),
});

export const ConsentResponse = Type.Object({ data: ConsentRecord });
export const ConsentListResponse = Type.Object({ data: Type.Array(ConsentRecord) });

// Raw input may be longer than the limits: they apply to the text left after sanitizing. The
// bounds here only stop absurd bodies early.
export const ComplaintBody = Type.Object({
  category: Type.Union(COMPLAINT_CATEGORIES.map((c) => Type.Literal(c))),
  subject: Type.String({
    maxLength: 10 * COMPLAINT_SUBJECT_MAX,
    description: `at most ${COMPLAINT_SUBJECT_MAX} characters after sanitizing`,
  }),
  description: Type.String({
    maxLength: 10 * COMPLAINT_DESCRIPTION_MAX,
    description: `at most ${COMPLAINT_DESCRIPTION_MAX} characters after sanitizing`,
  }),
});

export const ComplaintRecord = Type.Object({
  id: Type.String(),
  category: Type.Enum(COMPLAINT_CATEGORIES),
  subject: Type.String(),
  description: Type.String(),
  // No CHECK on the column: the spec names only `received` and leaves the others open.
  status: Type.String({ description: 'received for a new complaint' }),
  resolution: NullableString,
  created_at: Type.String(),
  resolved_at: NullableString,
});

export const ComplaintIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const ComplaintResponse = Type.Object({ data: ComplaintRecord });
export const ComplaintCreatedResponse = Type.Object({ data: ComplaintRecord, commitmentNote: Type.String() });

export const ComplaintListQuery = Type.Object(pageQuery(10, 100));
export const ComplaintListResponse = Type.Object({
  data: Type.Array(ComplaintRecord),
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  }),
});

const Rows = Type.Array(Type.Object({}, { additionalProperties: true }));
const OneRow = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);

export const DataExportResponse = Type.Object({
  data: Type.Object(
    {
      user: Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'id, email, first_name, last_name, phone, date_of_birth, kyc_status, role, created_at ...',
        },
      ),
      transactions: Rows,
      recipients: Rows,
      bankAccounts: Rows,
      settings: OneRow,
      merchant: OneRow,
      paymentInitiations: Rows,
      idempotencyKeys: Rows,
      consents: Rows,
      consentHistory: Rows,
      notifications: Rows,
      complaints: Rows,
      sessions: Type.Array(Type.Object({}, { additionalProperties: true }), {
        description: 'session metadata, without token hashes',
      }),
      openBankingConsents: Rows,
      dataAccessRequests: Rows,
      cards: Rows,
      cardSpendingLimits: Rows,
    },
    { additionalProperties: true },
  ),
  exportedAt: Type.String(),
});

export const ErasureResponse = Type.Object({ message: Type.String(), retentionNote: Type.String() });

import { Type } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const CONSENT_STATUSES = ['pending', 'active', 'expired', 'revoked'] as const;
export const CONSENT_SCOPES = ['AISP', 'PISP', 'AISP+PISP'] as const;
const ConsentStatus = Type.Enum(CONSENT_STATUSES);

export const ConsentIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const AccountIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 alpha-2 (either case)' });

export const BankRef = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'as GET /open-banking/banks names it' }),
  country: CountryCode,
});

export const CreateConsentBody = Type.Object({
  scope: Type.Optional(
    Type.Union([Type.Literal('AISP'), Type.Literal('PISP'), Type.Literal('AISP+PISP')], { default: 'AISP+PISP' }),
  ),
  bank: Type.Optional(
    Type.Object(BankRef.properties, {
      description:
        "the bank to link, one of GET /open-banking/banks; without it the provider's default bank (422 when it has none)",
    }),
  ),
});

export const BanksQuery = Type.Object({ country: Type.Optional({ ...CountryCode, default: 'NO' }) });

export const Bank = Type.Object({
  name: Type.String(),
  country: Type.String(),
  logo: Nullable(Type.String({ description: "the bank's logo at the provider" })),
  bic: Nullable(Type.String()),
  beta: Type.Boolean({ description: "the provider's connection to this bank is in beta" }),
});
export const BankListResponse = Type.Object({ data: Type.Array(Bank) });

export const CreateConsentResponse = Type.Object({
  data: Type.Object({ consentId: Type.String(), redirectUrl: Type.String() }),
});

export const Consent = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  status: ConsentStatus,
  scope: Type.Enum(CONSENT_SCOPES),
  bankAccountId: Nullable(Type.String()),
  grantedAt: Nullable(Type.String()),
  expiresAt: Nullable(Type.String()),
  revokedAt: Nullable(Type.String()),
  renewalDue: Type.Boolean({
    description:
      'active and expiring within the renewal window (CONSENT_RENEWAL_WINDOW, 7 days by default): offer POST /open-banking/consents/{id}/renew',
  }),
  reauthorizationRequired: Type.Boolean({
    description:
      'active here, but the bank answered that it is no longer valid (expired or revoked at the bank): renew it (POST /open-banking/consents/{id}/renew)',
  }),
  renewsConsentId: Nullable(Type.String({ description: 'the consent this one renewed (replaced at its callback)' })),
  bank: Type.Union([BankRef, Type.Null()], {
    description: 'the bank the consent was given at (null: given before the bank chooser, at the default bank)',
  }),
  unattendedReadsToday: Type.Integer(),
});

export const ConsentResponse = Type.Object({ data: Consent });
export const ConsentListResponse = Type.Object({ data: Type.Array(Consent) });

export const BankAccount = Type.Object({
  id: Type.String(),
  bankName: Type.String(),
  accountName: Nullable(Type.String()),
  accountNumber: Type.String(),
  balance: Type.Number({ description: 'last balance read from the bank' }),
  currency: Type.String(),
  isPrimary: Type.Boolean(),
  balanceUpdatedAt: Nullable(Type.String()),
  consentId: Type.String(),
  consentStatus: ConsentStatus,
  consentExpiresAt: Nullable(Type.String()),
  renewalDue: Type.Boolean({ description: 'the consent expires within the renewal window: offer a renewal' }),
  reauthorizationRequired: Type.Boolean({
    description: 'the bank no longer accepts the consent: renew it (POST /open-banking/consents/{consentId}/renew)',
  }),
  stale: Type.Boolean({ description: 'true when the consent no longer allows reading the balance' }),
});

export const BankAccountListResponse = Type.Object({ data: Type.Array(BankAccount), totalBalance: Type.Number() });
export const BankAccountResponse = Type.Object({ data: BankAccount, warning: Type.Optional(Type.String()) });

export const BankCallbackQuery = Type.Object({
  consentId: Type.String({ maxLength: 64 }),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  /** Enable Banking's authorization code (exchanged for a session at POST /sessions). */
  code: Type.Optional(Type.String({ maxLength: 2048 })),
});

export const SandboxAuthorizeQuery = Type.Object({
  consent: Type.String({ maxLength: 64 }),
  decision: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('deny')])),
});

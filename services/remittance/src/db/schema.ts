import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Kysely view of the tables in ./migrations (numeric as string, date as 'YYYY-MM-DD'). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
// Written as decimal strings only: a JS number would round before PostgreSQL saw it.
type Numeric = ColumnType<string, string, string>;

export interface UsersTable {
  id: string;
  email: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  phone: string | null;
  date_of_birth: string | null;
  kyc_status: Generated<string>;
  kyc_method: string | null;
  auth_provider: string | null;
  national_id_hash: string | null;
  password_hash: Generated<string>;
  role: Generated<'user' | 'merchant'>;
  last_login_at: Timestamp | null;
  deleted_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  surface: 'web' | 'api';
  expires_at: Timestamp;
  revoked: Generated<number>;
  revoked_at: Timestamp | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: DefaultTimestamp;
}

export interface EidAuthRequestsTable {
  state: string;
  nonce: string;
  code_verifier: string;
  platform: 'web' | 'mobile';
  redirect_uri: string;
  expires_at: Timestamp;
  created_at: DefaultTimestamp;
}

export interface EidMockCodesTable {
  code: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  nonce: string | null;
  claims: ColumnType<Record<string, unknown>, string, string>;
  expires_at: Timestamp;
  created_at: DefaultTimestamp;
}

export type NotificationType = 'transaction_complete' | 'qr_payment' | 'security' | 'rate_update' | 'system' | 'promotional';

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: NotificationType;
  title: string;
  body: string;
  read: Generated<number>;
  created_at: DefaultTimestamp;
}

export type ConsentStatus = 'pending' | 'active' | 'expired' | 'revoked';
export type ConsentScope = 'AISP' | 'PISP' | 'AISP+PISP';

export interface ObConsentsTable {
  id: string;
  user_id: string;
  bank_account_id: string | null;
  provider: string;
  external_consent_id: string | null;
  status: ConsentStatus;
  scope: ConsentScope;
  surface: 'web' | 'api';
  callback_state: string;
  granted_at: Timestamp | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  access_count_today: Generated<number>;
  last_access_date: string | null;
  created_at: DefaultTimestamp;
}

export interface BankAccountsTable {
  id: string;
  user_id: string;
  consent_id: string;
  provider: string;
  external_account_id: string;
  bank_name: string;
  account_name: string | null;
  account_number: string;
  balance: Numeric;
  currency: Generated<string>;
  is_primary: Generated<boolean>;
  balance_updated_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface SandboxBankConsentsTable {
  id: string;
  customer_ref: string;
  scope: string;
  redirect_uri: string;
  state: string;
  status: 'received' | 'valid' | 'revoked';
  created_at: DefaultTimestamp;
}

export interface SandboxBankAccountsTable {
  id: string;
  customer_ref: string;
  name: string;
  account_number: string;
  balance: Numeric;
  currency: Generated<string>;
  is_checking: boolean;
  created_at: DefaultTimestamp;
}

export interface SandboxBankPaymentsTable {
  id: string;
  account_id: string;
  amount: Numeric;
  currency: string;
  creditor_account: string;
  creditor_name: string;
  reference: string | null;
  status: 'pending' | 'completed' | 'rejected';
  settles_at: Timestamp;
  created_at: DefaultTimestamp;
}

export interface ExchangeRatesTable {
  currency: string;
  rate: Numeric;
  source: string;
  updated_at: Timestamp;
}

export type GdprConsentType = 'terms' | 'privacy' | 'marketing' | 'cookies_analytics' | 'cookies_marketing';

export interface GdprConsentsTable {
  id: string;
  user_id: string;
  consent_type: GdprConsentType;
  granted: number;
  granted_at: Timestamp | null;
  withdrawn_at: Timestamp | null;
  ip_address: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface GdprConsentEventsTable {
  id: string;
  user_id: string;
  consent_id: string;
  consent_type: GdprConsentType;
  granted: number;
  ip_address: string | null;
  created_at: DefaultTimestamp;
}

export type ComplaintCategory = 'transaction' | 'service' | 'fees' | 'privacy' | 'technical' | 'other';

export interface ComplaintsTable {
  id: string;
  user_id: string;
  category: ComplaintCategory;
  subject: string;
  description: string;
  status: Generated<string>;
  resolution: string | null;
  created_at: DefaultTimestamp;
  resolved_at: Timestamp | null;
}

export interface DataAccessRequestsTable {
  id: string;
  user_id: string;
  type: 'export' | 'erasure';
  status: Generated<'completed'>;
  ip_address: string | null;
  created_at: DefaultTimestamp;
  completed_at: Timestamp | null;
}

export type CardType = 'virtual' | 'physical';
export type CardStatus = 'active' | 'frozen' | 'cancelled';
export type CardLimitType = 'daily' | 'weekly' | 'monthly' | 'transaction';

export interface CardsTable {
  id: string;
  user_id: string;
  type: CardType;
  status: Generated<CardStatus>;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  pin_hash: string | null;
  pin_set_at: Timestamp | null;
  shipping_address: string | null;
  physical_requested_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface CardSpendingLimitsTable {
  card_id: string;
  user_id: string;
  limit_type: CardLimitType;
  amount: Numeric;
  currency: Generated<string>;
  updated_at: DefaultTimestamp;
}

export interface RecipientsTable {
  id: string;
  user_id: string;
  name: string;
  country: string;
  currency: string;
  bank_account: string;
  bank_name: string | null;
  deleted_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface MerchantsTable {
  id: string;
  user_id: string;
  business_name: string;
  org_number: string;
  address: string | null;
  bank_account: string;
  created_at: DefaultTimestamp;
}

export type TransactionType = 'remittance' | 'qr_payment';
export type TransactionStatus = 'processing' | 'completed' | 'failed';

export interface TransactionsTable {
  id: string;
  user_id: string;
  type: TransactionType;
  status: TransactionStatus;
  bank_account_id: string;
  recipient_id: string | null;
  merchant_id: string | null;
  recipient_name: string;
  recipient_country: string | null;
  from_account: string;
  send_amount: Numeric;
  send_currency: string;
  receive_amount: Numeric;
  receive_currency: string;
  exchange_rate: Numeric;
  fee: Numeric;
  total: Numeric;
  reference: string;
  eta: string | null;
  completed_at: Timestamp | null;
  failed_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface PaymentInitiationsTable {
  transaction_id: string;
  user_id: string;
  provider: string;
  external_payment_id: string;
  amount: Numeric;
  created_at: DefaultTimestamp;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response: ColumnType<unknown, string | null, string | null>;
  created_at: DefaultTimestamp;
}

export interface UserSettingsTable {
  user_id: string;
  currency: Generated<string>;
  language: Generated<string>;
  push_enabled: Generated<boolean>;
  email_enabled: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  eid_auth_requests: EidAuthRequestsTable;
  eid_mock_codes: EidMockCodesTable;
  notifications: NotificationsTable;
  ob_consents: ObConsentsTable;
  bank_accounts: BankAccountsTable;
  sandbox_bank_consents: SandboxBankConsentsTable;
  sandbox_bank_accounts: SandboxBankAccountsTable;
  sandbox_bank_payments: SandboxBankPaymentsTable;
  exchange_rates: ExchangeRatesTable;
  gdpr_consents: GdprConsentsTable;
  gdpr_consent_events: GdprConsentEventsTable;
  complaints: ComplaintsTable;
  data_access_requests: DataAccessRequestsTable;
  cards: CardsTable;
  card_spending_limits: CardSpendingLimitsTable;
  recipients: RecipientsTable;
  merchants: MerchantsTable;
  transactions: TransactionsTable;
  payment_initiations: PaymentInitiationsTable;
  idempotency_keys: IdempotencyKeysTable;
  user_settings: UserSettingsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Consent = Selectable<ObConsentsTable>;
export type BankAccount = Selectable<BankAccountsTable>;
export type GdprConsent = Selectable<GdprConsentsTable>;
export type Complaint = Selectable<ComplaintsTable>;
export type Card = Selectable<CardsTable>;
export type Recipient = Selectable<RecipientsTable>;
export type Merchant = Selectable<MerchantsTable>;
export type Transaction = Selectable<TransactionsTable>;

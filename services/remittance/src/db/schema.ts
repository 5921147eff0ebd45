import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Kysely view of the tables in ./migrations (numeric as string, date as 'YYYY-MM-DD'). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Numeric = ColumnType<string, string | number, string | number>;

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
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Consent = Selectable<ObConsentsTable>;
export type BankAccount = Selectable<BankAccountsTable>;

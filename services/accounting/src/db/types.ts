import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** numeric: read as a decimal string, written as a string (never a JS float). */
type Numeric = ColumnType<string, string, string>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  registration_number: string | null;
  vat_number: string | null;
  base_currency: string;
  country: string;
  language: string;
  fiscal_year_start: string;
  default_vat_rate: ColumnType<string, string | undefined, string>;
  address_line1: Generated<string | null>;
  city: Generated<string | null>;
  postal_code: Generated<string | null>;
  iban: Generated<string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<string>;
  organization_id: string;
  email: string;
  full_name: string;
  role: 'owner' | 'admin' | 'accountant' | 'viewer';
  password_hash: string | null;
  is_active: Generated<boolean>;
  two_factor_enabled: Generated<boolean>;
  two_factor_secret: string | null;
  two_factor_last_step: number | null;
  last_login_at: Date | null;
  operator_oib: Generated<string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  organization_id: string;
  user_id: string;
  remember: boolean;
  revoked_at: Date | null;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  organization_id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  remember: boolean;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
  created_at: CreatedAt;
}

export interface InvitationsTable {
  id: Generated<string>;
  organization_id: string;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface TaxRatesTable {
  id: Generated<string>;
  organization_id: string;
  position: number;
  name: string;
  rate: Numeric;
  description: string;
}

export interface AccountTypesTable {
  id: number;
  name: string;
  normal_balance: 'debit' | 'credit';
}

export interface AccountsTable {
  id: Generated<string>;
  organization_id: string;
  code: string;
  name: string;
  account_type_id: number;
  currency_code: string;
  parent_account_id: string | null;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AccountBalancesTable {
  account_id: string;
  organization_id: string;
  debit_total: ColumnType<string, string | undefined, string>;
  credit_total: ColumnType<string, string | undefined, string>;
  posting_count: ColumnType<number, number | undefined, number>;
}

export interface LedgerTransactionsTable {
  id: Generated<string>;
  organization_id: string;
  transaction_date: string;
  description: string;
  notes: string | null;
  debit_account_id: string;
  credit_account_id: string;
  amount: Numeric;
  currency_code: string;
  exchange_rate: Numeric;
  base_amount: Numeric;
  reference_type: 'invoice' | 'expense' | 'payment' | 'manual' | null;
  reference_id: string | null;
  reversal_of: string | null;
  locked: Generated<boolean>;
  reconciled: Generated<boolean>;
  reconciled_at: Date | null;
  created_by: string | null;
  /** amount as text at scale 4, generated (leakproof equality for RLS-filtered candidate reads). */
  amount_key: ColumnType<string, never, never>;
  created_at: CreatedAt;
}

export interface LoggedActionsTable {
  id: Generated<number>;
  organization_id: string;
  table_name: string;
  action: 'INSERT' | 'UPDATE' | 'DELETE';
  record_id: string | null;
  user_id: string | null;
  request_id: string | null;
  old_values: unknown;
  new_values: unknown;
  created_at: CreatedAt;
}

// Books (migration 20261121000200_books.sql) ---------------------------------------------------

export interface CurrenciesTable {
  code: string;
  name: string;
  symbol: string | null;
  decimal_places: number;
  is_active: Generated<boolean>;
}

export interface ExchangeRatesTable {
  id: Generated<string>;
  organization_id: string | null;
  base_currency: string;
  target_currency: string;
  rate: Numeric;
  effective_date: string;
  source: 'nbs' | 'ecb' | 'cbbh' | 'hnb' | 'third-party' | 'manual';
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface JobRunsTable {
  job: string;
  run_date: string;
  finished_at: Timestamp;
  detail: string | null;
}

export interface ContactsTable {
  id: Generated<string>;
  organization_id: string;
  type: 'customer' | 'vendor' | 'both';
  name: string;
  email: string | null;
  phone: string | null;
  registration_number: string | null;
  vat_number: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
  currency_code: string;
  payment_terms: Generated<number>;
  notes: string | null;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  invitations: InvitationsTable;
  tax_rates: TaxRatesTable;
  account_types: AccountTypesTable;
  accounts: AccountsTable;
  account_balances: AccountBalancesTable;
  ledger_transactions: LedgerTransactionsTable;
  logged_actions: LoggedActionsTable;
  currencies: CurrenciesTable;
  exchange_rates: ExchangeRatesTable;
  job_runs: JobRunsTable;
  contacts: ContactsTable;
}

// Invoices (issue 4) ------------------------------------------------------------------------------
export type InvoiceStatus = 'draft' | 'sent' | 'viewed' | 'paid' | 'overdue' | 'cancelled';

export interface InvoiceCountersTable {
  organization_id: string;
  year: number;
  last_number: number;
}

export interface InvoicesTable {
  id: Generated<string>;
  organization_id: string;
  invoice_number: string;
  customer_id: string;
  customer_name: string;
  invoice_date: string;
  due_date: string;
  currency_code: string;
  exchange_rate: Numeric;
  subtotal: Numeric;
  tax_amount: Numeric;
  discount_amount: Numeric;
  total_amount: Numeric;
  base_amount: Numeric;
  status: ColumnType<InvoiceStatus, InvoiceStatus | undefined, InvoiceStatus>;
  notes: string | null;
  terms: string | null;
  pdf_key: string | null;
  token_hash: string | null;
  sent_at: Date | null;
  sent_to: string | null;
  email_id: string | null;
  send_claimed_at: Generated<Date | null>;
  viewed_at: Date | null;
  paid_at: string | null;
  paid_bank_account_id: string | null;
  cancelled_at: Date | null;
  supply_date: Generated<string | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface InvoiceItemsTable {
  id: Generated<string>;
  organization_id: string;
  invoice_id: string;
  line_number: number;
  description: string;
  quantity: Numeric;
  unit_price: Numeric;
  tax_rate: Numeric;
  line_total: Numeric;
  line_tax: Numeric;
  account_id: string | null;
  unit_code: Generated<string>;
  classification_code: Generated<string | null>;
  vat_exemption_code: Generated<string | null>;
}

export interface AlertsTable {
  id: Generated<string>;
  organization_id: string;
  type: string;
  message: string;
  reference_type: string | null;
  reference_id: string | null;
  created_at: CreatedAt;
}

// Declaration merging keeps these additions out of the shared DB block above.
export interface DB {
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_items: InvoiceItemsTable;
  alerts: AlertsTable;
}

// Expenses and banking (issue 10) -------------------------------------------------------------------
export type ExpenseStatus = 'pending' | 'approved' | 'paid' | 'rejected';

export interface ExpenseCountersTable {
  organization_id: string;
  year: number;
  last_number: number;
}

export interface ExpensesTable {
  id: Generated<string>;
  organization_id: string;
  expense_number: string;
  vendor_id: string | null;
  vendor_name: string | null;
  expense_date: string;
  category: string;
  amount: Numeric;
  tax_amount: Numeric;
  currency_code: string;
  exchange_rate: Numeric;
  base_amount: Numeric;
  payment_method: string | null;
  account_id: string | null;
  description: string | null;
  status: ColumnType<ExpenseStatus, ExpenseStatus | undefined, ExpenseStatus>;
  receipt_key: string | null;
  receipt_content_type: string | null;
  created_by: string | null;
  approved_by: string | null;
  approved_at: Date | null;
  rejected_by: string | null;
  rejected_at: Date | null;
  rejection_reason: string | null;
  paid_at: string | null;
  paid_bank_account_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BankAccountsTable {
  id: Generated<string>;
  organization_id: string;
  account_id: string;
  bank_name: string;
  account_number: string | null;
  iban: string | null;
  currency_code: string;
  opening_balance: Numeric;
  current_balance: Numeric;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BankTransactionsTable {
  id: Generated<string>;
  organization_id: string;
  bank_account_id: string;
  transaction_date: string;
  amount: Numeric;
  description: ColumnType<string, string | undefined, string>;
  reference: ColumnType<string, string | undefined, string>;
  occurrence: ColumnType<number, number | undefined, number>;
  reconciled: Generated<boolean>;
  matched_transaction_id: string | null;
  reconciled_at: Date | null;
  created_at: CreatedAt;
}

export interface DB {
  expense_counters: ExpenseCountersTable;
  expenses: ExpensesTable;
  bank_accounts: BankAccountsTable;
  bank_transactions: BankTransactionsTable;
}

// Reports (issue 12) -----------------------------------------------------------------------------
export interface AccountPeriodSumsTable {
  organization_id: string;
  grain: 'day' | 'month';
  period_start: string;
  account_id: string;
  counter_account_id: string;
  debit_total: ColumnType<string, string | undefined, string>;
  credit_total: ColumnType<string, string | undefined, string>;
  posting_count: ColumnType<number, number | undefined, number>;
}

export interface DB {
  account_period_sums: AccountPeriodSumsTable;
}

import type { DB } from '../../db/types.js';

/**
 * Every table that holds a user's rows, and how the data export carries it (spec GDPR, R16).
 * `columns` are exported; `withheld` names each column left out and why, so a column added later
 * has to be classified too. test/data-rights.test.ts compares this list with the database
 * catalog: a table with a user-id column that is missing here fails it.
 */
export interface ExportedTable {
  table: keyof DB;
  /** Key of the section in the export's `data`. */
  section: string;
  /** The column holding the user's id. */
  userColumn: string;
  columns: readonly string[];
  withheld: Readonly<Record<string, string>>;
  orderBy: string;
  /** One row at most (settings, merchant profile): exported as an object or null. */
  single?: boolean;
}

const OWNER = 'the user id (the export is of that user)';
const SEQ = 'insertion order among rows created in the same instant (internal, no information of the user)';

export const EXPORTED_TABLES: readonly ExportedTable[] = [
  {
    table: 'user_settings',
    section: 'settings',
    userColumn: 'user_id',
    columns: ['currency', 'language', 'push_enabled', 'email_enabled', 'updated_at'],
    withheld: { user_id: OWNER },
    orderBy: 'updated_at',
    single: true,
  },
  {
    table: 'recipients',
    section: 'recipients',
    userColumn: 'user_id',
    columns: ['id', 'name', 'country', 'currency', 'bank_account', 'bank_name', 'deleted_at', 'created_at'],
    withheld: { user_id: OWNER, seq: SEQ },
    orderBy: 'created_at',
  },
  {
    table: 'transactions',
    section: 'transactions',
    userColumn: 'user_id',
    columns: [
      'id',
      'type',
      'status',
      'bank_account_id',
      'recipient_id',
      'merchant_id',
      'recipient_name',
      'recipient_country',
      'recipient_account',
      'from_account',
      'send_amount',
      'send_currency',
      'receive_amount',
      'receive_currency',
      'exchange_rate',
      'fee',
      'total',
      'reference',
      'eta',
      'completed_at',
      'failed_at',
      'failure_reason',
      'created_at',
    ],
    withheld: {
      user_id: OWNER,
      seq: SEQ,
      change_seq: "the version of the user's history the server keeps pages by (internal, no information of the user)",
    },
    orderBy: 'created_at',
  },
  {
    table: 'payment_initiations',
    section: 'paymentInitiations',
    userColumn: 'user_id',
    columns: [
      'transaction_id',
      'provider',
      'external_payment_id',
      'end_to_end_id',
      'amount',
      'bank_status',
      'idempotency_key',
      'surface',
      'created_at',
      'updated_at',
    ],
    withheld: {
      user_id: OWNER,
      payment_order: 'a copy of the order sent to the bank; its amounts and creditor are in transactions',
      callback_state: 'a one-time secret naming the payment in the bank redirect, meaningless afterwards',
      authorization_url: "the bank's one-time authorization page for the payment",
      attempts: 'how many times the bank was called, internal bookkeeping',
      lease_until: 'when the next call or status check may run, internal bookkeeping',
    },
    orderBy: 'created_at',
  },
  {
    table: 'merchants',
    section: 'merchant',
    userColumn: 'user_id',
    columns: ['id', 'business_name', 'org_number', 'address', 'bank_account', 'created_at'],
    withheld: { user_id: OWNER },
    orderBy: 'created_at',
    single: true,
  },
  {
    table: 'idempotency_keys',
    section: 'idempotencyKeys',
    userColumn: 'user_id',
    columns: ['key', 'status_code', 'created_at'],
    withheld: {
      user_id: OWNER,
      request_hash: 'a hash of the request body, meaningless on its own',
      response: 'a stored copy of a payment response; the payment itself is in transactions',
    },
    orderBy: 'created_at',
  },
  {
    table: 'bank_accounts',
    section: 'bankAccounts',
    userColumn: 'user_id',
    columns: [
      'id',
      'bank_name',
      'account_name',
      'account_number',
      'balance',
      'currency',
      'is_primary',
      'balance_updated_at',
      'consent_id',
      'provider',
      'created_at',
    ],
    withheld: { user_id: OWNER, external_account_id: "the provider's internal reference" },
    orderBy: 'created_at',
  },
  {
    table: 'gdpr_consents',
    section: 'consents',
    userColumn: 'user_id',
    columns: ['id', 'consent_type', 'granted', 'granted_at', 'withdrawn_at', 'ip_address', 'created_at', 'updated_at'],
    withheld: { user_id: OWNER },
    orderBy: 'consent_type',
  },
  {
    table: 'gdpr_consent_events',
    section: 'consentHistory',
    userColumn: 'user_id',
    columns: ['id', 'consent_id', 'consent_type', 'granted', 'ip_address', 'created_at'],
    withheld: { user_id: OWNER, seq: SEQ },
    orderBy: 'created_at',
  },
  {
    table: 'notifications',
    section: 'notifications',
    userColumn: 'user_id',
    columns: ['id', 'type', 'title', 'body', 'read', 'created_at'],
    withheld: { user_id: OWNER, seq: SEQ },
    orderBy: 'created_at',
  },
  {
    table: 'complaints',
    section: 'complaints',
    userColumn: 'user_id',
    columns: ['id', 'category', 'subject', 'description', 'status', 'resolution', 'created_at', 'resolved_at'],
    withheld: { user_id: OWNER, seq: SEQ },
    orderBy: 'created_at',
  },
  {
    table: 'sessions',
    section: 'sessions',
    userColumn: 'user_id',
    columns: [
      'id',
      'surface',
      'created_at',
      'expires_at',
      'revoked',
      'revoked_at',
      'revoked_reason',
      'authenticated_at',
      'ip_address',
      'user_agent',
    ],
    withheld: {
      user_id: OWNER,
      token_hash: 'a credential (hash of the session token)',
      login_id: 'an internal key tying refreshed sessions to one sign-in (authenticated_at shows it)',
    },
    orderBy: 'created_at',
  },
  {
    table: 'ob_consents',
    section: 'openBankingConsents',
    userColumn: 'user_id',
    columns: [
      'id',
      'provider',
      'external_consent_id',
      'status',
      'scope',
      'bank_account_id',
      'surface',
      'granted_at',
      'expires_at',
      'revoked_at',
      'access_count_today',
      'last_access_date',
      'created_at',
      'renews_consent_id',
      'reauthorization_required_at',
      'renewal_notified_for',
      'aspsp_name',
      'aspsp_country',
    ],
    withheld: { user_id: OWNER, callback_state: 'a one-time secret of the bank redirect', seq: SEQ },
    orderBy: 'created_at',
  },
  {
    table: 'data_access_requests',
    section: 'dataAccessRequests',
    userColumn: 'user_id',
    columns: ['id', 'type', 'status', 'ip_address', 'created_at', 'completed_at'],
    withheld: { user_id: OWNER },
    orderBy: 'created_at',
  },
  {
    table: 'cards',
    section: 'cards',
    userColumn: 'user_id',
    columns: [
      'id',
      'type',
      'status',
      'last4',
      'expiry_month',
      'expiry_year',
      'pin_set_at',
      'shipping_address',
      'physical_requested_at',
      'cancelled_at',
      'created_at',
    ],
    withheld: { user_id: OWNER, pin_hash: 'a credential (bcrypt hash of the PIN)' },
    orderBy: 'created_at',
  },
  {
    table: 'card_spending_limits',
    section: 'cardSpendingLimits',
    userColumn: 'user_id',
    columns: ['card_id', 'limit_type', 'amount', 'currency', 'updated_at'],
    withheld: { user_id: OWNER },
    orderBy: 'updated_at',
  },
];

/** The users row itself is the export's `user` object. */
export const USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'date_of_birth',
  'kyc_status',
  'kyc_method',
  'auth_provider',
  'role',
  'last_login_at',
  'deleted_at',
  'retain_until',
  'created_at',
] as const;
export const USER_WITHHELD: Readonly<Record<string, string>> = {
  national_id_hash: 'a hash of the national id, which the user already holds; kept out of files that travel',
  password_hash: 'a credential marker (EIDONLY)',
  national_id_hash_version: 'which keyed hash national_id_hash is (internal bookkeeping of the hash above)',
};

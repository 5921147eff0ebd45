/**
 * Who may call each authenticated operation, written from the specification and not from the
 * routes' config (issue 34, item 4): the security suite checks every route's answers against this
 * table, and an operation missing here (a new route) fails it.
 *
 * Sources, in order (CONTRACT.md wins over the specification):
 * - /work/shared/spec/accounting-service.md, "Endpoints" route tables (Roles column) and
 *   "Authentication" 3-4: 'all' means owner, admin, accountant, viewer; "Bearer" (the auth routes)
 *   means any signed-in user; "Reports (all GET, all roles)".
 * - /work/shared/CONTRACT.md: A6 (POST /exchange-rates: owner, admin), A10 (GET /alerts: owner,
 *   admin), A12 (expense reject and pay: owner, admin), A13 (the receipt of an expense),
 *   audit log (GET /audit-log: owner, admin), 2FA and PUT /auth/password (Bearer), E1 (PUT /auth/me),
 *   E3 (GET /invoices/:id/ubl: all roles), E4 (payment code).
 * Operations neither names a role for are marked "not in the spec" with the rule the table applies:
 * a read of a record answers the roles that may read its list; a write answers the roles that may
 * write that kind of record.
 */
export type Role = 'owner' | 'admin' | 'accountant' | 'viewer';

const ALL: readonly Role[] = ['owner', 'admin', 'accountant', 'viewer'];
const OWNER_ADMIN: readonly Role[] = ['owner', 'admin'];
const WRITERS: readonly Role[] = ['owner', 'admin', 'accountant'];
const OWNER: readonly Role[] = ['owner'];

export const ROLE_POLICY: Readonly<Record<string, readonly Role[]>> = {
  // Auth (spec "Auth": Bearer; CONTRACT 2FA, PUT /auth/password, E1 PUT /auth/me): any signed-in user.
  'POST /api/v1/auth/logout': ALL,
  'GET /api/v1/auth/me': ALL,
  'PUT /api/v1/auth/me': ALL,
  'PUT /api/v1/auth/password': ALL,
  'POST /api/v1/auth/2fa/setup': ALL,
  'POST /api/v1/auth/2fa/enable': ALL,
  'POST /api/v1/auth/2fa/disable': ALL,

  // Organization (spec table).
  'GET /api/v1/organization': ALL,
  'PUT /api/v1/organization': OWNER_ADMIN,

  // Users (spec table; Authentication 4: only the owner changes roles or removes users).
  'GET /api/v1/users': OWNER_ADMIN,
  'POST /api/v1/users/invite': OWNER_ADMIN,
  'PUT /api/v1/users/:id/role': OWNER,
  'DELETE /api/v1/users/:id': OWNER,

  // CONTRACT, audit log: owner, admin.
  'GET /api/v1/audit-log': OWNER_ADMIN,

  // Settings, currencies, rates (spec table; CONTRACT A6 for the manual rate).
  'GET /api/v1/currencies': ALL,
  'GET /api/v1/exchange-rates': ALL,
  'POST /api/v1/exchange-rates': OWNER_ADMIN,
  'GET /api/v1/settings/tax-rates': ALL,
  'PUT /api/v1/settings/tax-rates': OWNER_ADMIN,

  // Contacts (spec table).
  'GET /api/v1/contacts': ALL,
  'POST /api/v1/contacts': WRITERS,
  'GET /api/v1/contacts/:id': ALL,
  'PUT /api/v1/contacts/:id': WRITERS,
  'DELETE /api/v1/contacts/:id': OWNER_ADMIN,

  // Chart of accounts (spec table). GET /accounts/:id: not in the spec; a read, as GET /accounts.
  'GET /api/v1/accounts': ALL,
  'GET /api/v1/accounts/:id': ALL,
  'POST /api/v1/accounts': OWNER_ADMIN,
  'PUT /api/v1/accounts/:id': OWNER_ADMIN,
  // DELETE /accounts/:id: not in the spec; a change of the chart, as POST and PUT.
  'DELETE /api/v1/accounts/:id': OWNER_ADMIN,

  // Ledger transactions (spec table). GET /transactions/:id: not in the spec; a read, as the list.
  // POST /transactions/:id/reverse: not in the spec; a manual journal write, as POST /transactions.
  'GET /api/v1/transactions': ALL,
  'GET /api/v1/transactions/:id': ALL,
  'POST /api/v1/transactions': WRITERS,
  // POST /transactions/entries: not in the spec; several lines of one manual entry, as POST /transactions.
  'POST /api/v1/transactions/entries': WRITERS,
  'POST /api/v1/transactions/:id/reverse': WRITERS,
  // GET /transactions/entries/:id and its reverse: not in the spec; a journal entry read (as the list)
  // and reversed whole (as one posting's reverse).
  'GET /api/v1/transactions/entries/:id': ALL,
  'POST /api/v1/transactions/entries/:id/reverse': WRITERS,

  // Invoices (spec table; CONTRACT E3 for the UBL documents, E4 for the payment code: reads of the
  // invoice, all roles as GET /invoices/:id/pdf).
  'GET /api/v1/invoices': ALL,
  'POST /api/v1/invoices': WRITERS,
  'GET /api/v1/invoices/:id': ALL,
  'PUT /api/v1/invoices/:id': WRITERS,
  'PATCH /api/v1/invoices/:id/status': WRITERS,
  'POST /api/v1/invoices/:id/send': WRITERS,
  'GET /api/v1/invoices/:id/pdf': ALL,
  'GET /api/v1/invoices/:id/ubl': ALL,
  'GET /api/v1/invoices/:id/credit-note/ubl': ALL,
  'GET /api/v1/invoices/:id/payment-code': ALL,

  // CONTRACT A10: alerts, owner and admin.
  'GET /api/v1/alerts': OWNER_ADMIN,

  // Expenses (spec table: approve and delete owner, admin, "accountant refused"; CONTRACT A12 reject
  // and pay: owner, admin; A13 the receipt: a read of the expense, all roles as GET /expenses/:id).
  'GET /api/v1/expenses': ALL,
  'POST /api/v1/expenses': WRITERS,
  'GET /api/v1/expenses/:id': ALL,
  'PUT /api/v1/expenses/:id': WRITERS,
  'DELETE /api/v1/expenses/:id': OWNER_ADMIN,
  'PATCH /api/v1/expenses/:id/approve': OWNER_ADMIN,
  'PATCH /api/v1/expenses/:id/reject': OWNER_ADMIN,
  'PATCH /api/v1/expenses/:id/pay': OWNER_ADMIN,
  'GET /api/v1/expenses/:id/receipt': ALL,

  // Bank accounts (spec table).
  'GET /api/v1/bank-accounts': ALL,
  'POST /api/v1/bank-accounts': OWNER_ADMIN,
  'GET /api/v1/bank-accounts/:id/transactions': ALL,
  'POST /api/v1/bank-accounts/:id/import': WRITERS,
  'POST /api/v1/bank-accounts/:id/reconcile': WRITERS,
  'POST /api/v1/bank-accounts/:id/unreconcile': WRITERS,

  // Reports (spec: "all GET, all roles").
  'GET /api/v1/reports/dashboard': ALL,
  'GET /api/v1/reports/profit-loss': ALL,
  'GET /api/v1/reports/balance-sheet': ALL,
  'GET /api/v1/reports/cash-flow': ALL,
  'GET /api/v1/reports/vat': ALL,
  'GET /api/v1/reports/trial-balance': ALL,

  // E-invoice delivery (CONTRACT D1-D5). D1: SEF settings read by all roles, changed by owner and
  // admin; D3: queueing by owner, admin, accountant (cancel and storno, not named, as queueing: the
  // roles that write invoices); D4: purchase invoices read by all roles (not named: as the other
  // lists), accepted, rejected and turned into an expense by owner, admin, accountant; D5: the
  // certificate by the owner, its settings read by all roles (not named: as GET /organization/sef),
  // an invoice fiscalized by the roles that write invoices.
  'GET /api/v1/organization/sef': ALL,
  'PUT /api/v1/organization/sef': OWNER_ADMIN,
  'GET /api/v1/sef/code-lists': ALL,
  'GET /api/v1/invoices/:id/sef': ALL,
  'POST /api/v1/invoices/:id/sef': WRITERS,
  'POST /api/v1/invoices/:id/credit-note/sef': WRITERS,
  'POST /api/v1/invoices/:id/sef/cancel': WRITERS,
  'POST /api/v1/invoices/:id/sef/storno': WRITERS,
  'GET /api/v1/purchase-invoices': ALL,
  'GET /api/v1/purchase-invoices/:id': ALL,
  'GET /api/v1/purchase-invoices/:id/ubl': ALL,
  'POST /api/v1/purchase-invoices/:id/accept': WRITERS,
  'POST /api/v1/purchase-invoices/:id/reject': WRITERS,
  'POST /api/v1/purchase-invoices/:id/expense': WRITERS,
  'GET /api/v1/organization/fiscalization': ALL,
  'PUT /api/v1/organization/fiscalization': OWNER,
  'GET /api/v1/invoices/:id/fiscalization': ALL,
  'POST /api/v1/invoices/:id/fiscalization': WRITERS,
  // Issue 28, HR exchange (not in the spec): the intermediary account as the SEF settings (owner,
  // admin change it, all read it; the password is never returned); the recipient look-up is a read.
  'GET /api/v1/organization/intermediary': ALL,
  'PUT /api/v1/organization/intermediary': OWNER_ADMIN,
  'GET /api/v1/organization/intermediary/recipient': ALL,
  // Sending through the intermediary as sending to SEF: the state read by all roles, queueing by
  // the roles that write invoices.
  'GET /api/v1/invoices/:id/intermediary': ALL,
  'POST /api/v1/invoices/:id/intermediary': WRITERS,
  'POST /api/v1/invoices/:id/credit-note/intermediary': WRITERS,
};

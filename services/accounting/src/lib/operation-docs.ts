import type { OperationDoc } from '@app/shared/openapi';

const IDS = {
  user: '2634dc1d-632c-4e55-8aae-e2e7d137706d',
  organization: 'a36a16cd-b1bd-4521-ab45-d2c0d96977f3',
  customer: '0b6f4a1e-6c0e-4b7a-9a51-3f3f7d1c2a10',
  invoice: '6fb1ffbd-2b8b-4f56-8b9c-780e1fdd9752',
  item: '31839141-ae94-473f-9f00-d30dc0d6972d',
  expense: 'f1386742-8359-4a65-8092-b8748f189ae3',
};
const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyNjM0ZGMxZCJ9.c2lnbmF0dXJl';

/** An invoice as the list shows it. */
const INVOICE_SUMMARY = {
  id: IDS.invoice,
  invoiceNumber: 'INV-2026-0001',
  customerId: IDS.customer,
  customerName: 'Kupac d.o.o.',
  invoiceDate: '2026-03-10',
  dueDate: '2026-04-09',
  currencyCode: 'RSD',
  totalAmount: '3600.00',
  status: 'draft',
  createdAt: '2026-03-10T09:12:44.120Z',
};

/** The invoice INVOICE_EXAMPLE creates, as the API answers it. */
const INVOICE_ANSWER = {
  ...INVOICE_SUMMARY,
  exchangeRate: '1.000000',
  subtotal: '3000.00',
  taxAmount: '600.00',
  discountAmount: '0.00',
  baseAmount: '3600.00',
  supplyDate: '2026-03-10',
  paymentReference: '97 0420260001',
  items: [
    {
      id: IDS.item,
      lineNumber: 1,
      description: 'Konsultantske usluge',
      quantity: '2',
      unitPrice: '1500',
      taxRate: '20',
      lineTotal: '3000.00',
      accountId: null,
      unitCode: 'H87',
      classificationCode: null,
      vatExemptionCode: null,
    },
  ],
  notes: 'Hvala na saradnji.',
  terms: null,
  pdfUrl: null,
  createdBy: IDS.user,
  updatedAt: '2026-03-10T09:12:44.120Z',
  sentAt: null,
  paidAt: null,
};

const PERIOD = { from: '2026-01-01', to: '2026-03-31' };

const INVOICE_EXAMPLE = {
  customerId: '0b6f4a1e-6c0e-4b7a-9a51-3f3f7d1c2a10',
  invoiceDate: '2026-03-10',
  dueDate: '2026-04-09',
  currencyCode: 'RSD',
  items: [{ description: 'Konsultantske usluge', quantity: 2, unitPrice: 1500, taxRate: 20 }],
  notes: 'Hvala na saradnji.',
};

/**
 * The summary and description of every operation of the API (issue 25 item 6), keyed by
 * `METHOD /path` as the router knows it; the main operations carry an example request and answer.
 * The OpenAPI walk (test/openapi-docs.test.ts) fails on an operation missing here.
 */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  'GET /health': {
    summary: 'Health check',
    description: 'Answers 200 when the database answers, 503 when it does not (G11).',
  },
  'POST /api/v1/auth/register': {
    summary: 'Register an organization and its owner',
    description:
      'Creates the organization, its default chart of accounts and tax rates, and the owner; answers the tokens and sets the refresh cookie.',
    requestExample: {
      organizationName: 'Primer d.o.o.',
      country: 'RS',
      baseCurrency: 'RSD',
      language: 'sr',
      email: 'vlasnik@primer.rs',
      password: 'Correct-Horse-9',
      fullName: 'Petar Petrović',
    },
    responseExample: {
      user: { id: IDS.user, email: 'vlasnik@primer.rs', fullName: 'Petar Petrović', role: 'owner' },
      organization: { id: IDS.organization, name: 'Primer d.o.o.', country: 'RS', baseCurrency: 'RSD' },
      tokens: {
        accessToken: ACCESS_TOKEN,
        refreshToken: 'A_W9BTOw9naD8k6GqtR063Xi6crL-g-E5WQAokJJqew',
        expiresIn: 900,
      },
    },
  },
  'POST /api/v1/auth/login': {
    summary: 'Sign in',
    description:
      'E-mail and password (and a 2FA code when enabled); answers an access token and sets the refresh cookie.',
    requestExample: { email: 'vlasnik@primer.rs', password: 'Correct-Horse-9' },
    responseExample: {
      user: {
        id: IDS.user,
        email: 'vlasnik@primer.rs',
        fullName: 'Petar Petrović',
        role: 'owner',
        organizationId: IDS.organization,
        organizationName: 'Primer d.o.o.',
      },
      tokens: { accessToken: ACCESS_TOKEN, expiresIn: 900 },
    },
  },
  'POST /api/v1/auth/verify-2fa': {
    summary: 'Sign in with a two-factor code',
    description: 'Like login, with the TOTP code; a code is never accepted twice.',
  },
  'POST /api/v1/auth/refresh': {
    summary: 'Rotate the refresh token',
    description: 'Issues a new access token and refresh token; a rotated-out token revokes the whole login.',
  },
  'POST /api/v1/auth/logout': { summary: 'Sign out', description: 'Revokes the login the request was made with.' },
  'GET /api/v1/auth/me': { summary: 'The signed-in user', description: 'The user, their role and organization.' },
  'PUT /api/v1/auth/me': {
    summary: 'Update the signed-in user',
    description: 'Full name and, for Croatian organizations, the operator OIB used on e-invoices.',
  },
  'PUT /api/v1/auth/password': {
    summary: 'Change the password',
    description: 'Needs the current password; revokes every refresh token of the user.',
  },
  'POST /api/v1/auth/2fa/setup': {
    summary: 'Start two-factor setup',
    description: 'Answers a new TOTP secret and its otpauth URL.',
  },
  'POST /api/v1/auth/2fa/enable': {
    summary: 'Enable two-factor sign-in',
    description: 'Confirms the secret with a current code.',
  },
  'POST /api/v1/auth/2fa/disable': { summary: 'Disable two-factor sign-in', description: 'Needs a current code.' },
  'POST /api/v1/auth/accept-invite': {
    summary: 'Accept an invitation',
    description: 'Sets the invited user’s password and signs them in (201).',
  },
  'GET /api/v1/organization': {
    summary: 'The organization',
    description: 'Name, country, base currency, language and seller data.',
  },
  'PUT /api/v1/organization': {
    summary: 'Update the organization',
    description: 'Owner and admin; the base currency cannot change once postings exist.',
  },
  'GET /api/v1/users': {
    summary: 'List users',
    description: 'Active users of the organization, invited ones included.',
  },
  'POST /api/v1/users/invite': {
    summary: 'Invite a user',
    description: 'Answers the invitation link; an e-mail address registered anywhere is 409.',
    requestExample: { email: 'knjigovodja@primer.rs', fullName: 'Ana Anić', role: 'accountant' },
  },
  'PUT /api/v1/users/:id/role': { summary: 'Change a user’s role', description: 'The owner’s role never changes.' },
  'DELETE /api/v1/users/:id': {
    summary: 'Remove a user',
    description: 'Deactivates the user and revokes their logins.',
  },
  'GET /api/v1/audit-log': {
    summary: 'Audit log',
    description:
      'Every insert, update and delete on the organization’s tables, paginated and filtered (owner, admin). sessions=false leaves out the sign-in records (sessions, refresh tokens).',
  },
  'GET /api/v1/currencies': { summary: 'List currencies', description: 'Codes, names and decimal places.' },
  'GET /api/v1/exchange-rates': {
    summary: 'Exchange rate on a date',
    description: 'The rate in force on the date (the latest on or before it); 404 when none exists.',
  },
  'POST /api/v1/exchange-rates': { summary: 'Record a manual rate', description: 'Owner and admin; source manual.' },
  'GET /api/v1/contacts': {
    summary: 'List contacts',
    description: 'Customers and vendors, paginated, filtered and searched.',
  },
  'POST /api/v1/contacts': {
    summary: 'Create a contact',
    description: 'A customer, vendor or both; RS and HR tax numbers are checked.',
    requestExample: {
      type: 'customer',
      name: 'Kupac d.o.o.',
      email: 'kupac@example.rs',
      country: 'RS',
      paymentTerms: 30,
    },
    responseExample: {
      id: IDS.customer,
      type: 'customer',
      name: 'Kupac d.o.o.',
      email: 'kupac@example.rs',
      phone: null,
      registrationNumber: null,
      vatNumber: null,
      addressLine1: null,
      addressLine2: null,
      city: null,
      postalCode: null,
      country: 'RS',
      currencyCode: 'RSD',
      paymentTerms: 30,
      isActive: true,
      createdAt: '2026-03-01T08:30:00.000Z',
      updatedAt: '2026-03-01T08:30:00.000Z',
      notes: null,
    },
  },
  'GET /api/v1/contacts/:id': { summary: 'Get a contact', description: 'One contact of the organization.' },
  'PUT /api/v1/contacts/:id': { summary: 'Update a contact', description: 'Changes the fields sent.' },
  'DELETE /api/v1/contacts/:id': {
    summary: 'Delete a contact',
    description: 'Refused while it has invoices that are not cancelled or expenses that are not rejected.',
  },
  'GET /api/v1/accounts': { summary: 'Chart of accounts', description: 'Accounts with their current balances.' },
  'GET /api/v1/accounts/:id': { summary: 'Get an account', description: 'One account with its balance.' },
  'POST /api/v1/accounts': { summary: 'Create an account', description: 'Code unique in the organization.' },
  'PUT /api/v1/accounts/:id': {
    summary: 'Update an account',
    description:
      'Renames, (de)activates or moves it under another parent of its type. An account with postings cannot be deactivated.',
  },
  'DELETE /api/v1/accounts/:id': {
    summary: 'Delete an account',
    description:
      'Refused (400 SVC-8004, the details say why) while it has postings, reversed ones too, or sub-accounts, is one the automatic postings use (1100, 1200, 1300, 2110, 2300, 4000, 5000), or is named by an invoice line, an expense or a bank account. Deactivate it instead to keep it out of new entries.',
  },
  'GET /api/v1/transactions': {
    summary: 'List ledger postings',
    description:
      'Paginated and filtered by date, account and reference: its type, and the document (`referenceId`), e.g. the payment posting of an invoice just marked paid.',
  },
  'GET /api/v1/transactions/:id': { summary: 'Get a posting', description: 'One ledger posting.' },
  'POST /api/v1/transactions': {
    summary: 'Post a manual entry',
    description: 'One debit and one credit account; the rate is the one in force on the date.',
  },
  'POST /api/v1/transactions/entries': {
    summary: 'Post a journal entry of several lines',
    description:
      'Lines with an account and a debit or a credit; the debits must equal the credits. Saved as the postings that settle the debits against the credits in line order, all in one database transaction: every posting or none. The answer carries the entry id, which each posting also carries (entryId, and referenceId).',
  },
  'GET /api/v1/transactions/entries/:id': {
    summary: 'Get a journal entry',
    description:
      'The postings of a manual journal entry and their reversals, oldest first. A lone manual posting (POST /transactions) is an entry of its own: its id is the entry id. 404 for a document posting (invoice, expense, payment).',
  },
  'POST /api/v1/transactions/entries/:id/reverse': {
    summary: 'Reverse a journal entry',
    description:
      'Reverses every posting of the entry not reversed yet (debit and credit swapped, on transactionDate, default today), in one database transaction; answers the reversals. 422 SVC-9003 when nothing is left to reverse.',
  },
  'POST /api/v1/transactions/:id/reverse': {
    summary: 'Reverse a posting',
    description:
      'Writes a new posting with debit and credit swapped. A manual posting only: a document’s posting is reversed through its document, and a posting of a journal entry of several postings with its entry (POST /transactions/entries/:id/reverse).',
  },
  'GET /api/v1/settings/tax-rates': { summary: 'Tax rates', description: 'The organization’s VAT rates.' },
  'PUT /api/v1/settings/tax-rates': { summary: 'Replace the tax rates', description: 'Owner and admin.' },
  'GET /api/v1/invoices': {
    summary: 'List invoices',
    description: 'Paginated, filtered by status, customer, dates and a search of the number and the customer name.',
    responseExample: {
      data: [{ ...INVOICE_SUMMARY, sef: { status: 'Sent' }, fiscalization: null, intermediary: null }],
      meta: { total: 1, page: 1, perPage: 20, totalPages: 1 },
    },
  },
  'POST /api/v1/invoices': {
    summary: 'Create an invoice',
    description:
      'A draft with its items; totals are computed per line and rounded half-up, the number is INV-<year>-<sequence>.',
    requestExample: INVOICE_EXAMPLE,
    responseExample: INVOICE_ANSWER,
  },
  'GET /api/v1/invoices/:id': {
    summary: 'Get an invoice',
    description: 'The invoice with its items and totals.',
    responseExample: INVOICE_ANSWER,
  },
  'PUT /api/v1/invoices/:id': {
    summary: 'Update a draft invoice',
    description: 'Only drafts; totals and the exchange rate are recomputed.',
    requestExample: INVOICE_EXAMPLE,
  },
  'PATCH /api/v1/invoices/:id/status': {
    summary: 'Change an invoice’s status',
    description:
      'action send (posts the sale), mark-paid (posts the payment; paidAt required) or cancel (reverses the postings). An unknown action is 422; a known one not allowed in the status is 400 SVC-3004. Send takes no other field.',
    requestExample: { action: 'mark-paid', paidAt: '2026-04-01' },
  },
  'POST /api/v1/invoices/:id/send': {
    summary: 'E-mail an invoice',
    description: 'Sends a draft (the send transition) or re-sends a sent one; the body is optional.',
    requestExample: { to: 'kupac@example.rs', subject: 'Faktura INV-2026-0001' },
  },
  'GET /api/v1/invoices/:id/pdf': {
    summary: 'Invoice PDF',
    description: 'The A4 invoice in the organization’s language.',
  },
  'GET /api/v1/invoices/:id/ubl': {
    summary: 'E-invoice (UBL)',
    description: 'SEF srbdt (RS), CIUS-HR (HR) or EN 16931 (BA), from sent on; 422 names missing data.',
  },
  'GET /api/v1/invoices/:id/credit-note/ubl': {
    summary: 'Credit note (UBL)',
    description: 'For a cancelled invoice that had been sent: type 381 referring to it.',
  },
  'GET /api/v1/invoices/:id/payment-code': {
    summary: 'Payment code image',
    description: 'NBS IPS QR (RS) or HUB-3A PDF417 (HR) as PNG.',
  },
  'GET /api/v1/public/invoices/:token': {
    summary: 'Public invoice link',
    description: 'The PDF for the customer’s e-mail link (no sign-in); marks a sent invoice viewed.',
  },
  'GET /api/v1/alerts': {
    summary: 'Alerts',
    description: 'Failures the organization should know about (owner, admin).',
  },
  'GET /api/v1/expenses': { summary: 'List expenses', description: 'Paginated and filtered.' },
  'POST /api/v1/expenses': {
    summary: 'Record an expense',
    description:
      'JSON, or a multipart form with the same fields and the receipt in receiptFile (scanned, typed by content, at most 10 MB).',
    requestExample: {
      expenseDate: '2026-05-04',
      category: 'Travel',
      amount: 118.8,
      taxAmount: 19.8,
      description: 'Taxi',
    },
    responseExample: {
      id: IDS.expense,
      expenseNumber: 'EXP-2026-0001',
      vendorId: null,
      vendorName: null,
      expenseDate: '2026-05-04',
      category: 'Travel',
      amount: '118.80',
      currencyCode: 'RSD',
      status: 'pending',
      receiptUrl: null,
      createdAt: '2026-05-04T17:02:11.000Z',
      exchangeRate: '1.000000',
      baseAmount: '118.80',
      taxAmount: '19.80',
      paymentMethod: null,
      accountId: null,
      description: 'Taxi',
      createdBy: IDS.user,
      updatedAt: '2026-05-04T17:02:11.000Z',
      approvedBy: null,
      approvedAt: null,
      rejectedAt: null,
      rejectionReason: null,
      paidAt: null,
      paidBankAccountId: null,
    },
  },
  'GET /api/v1/expenses/:id': { summary: 'Get an expense', description: 'One expense.' },
  'PUT /api/v1/expenses/:id': {
    summary: 'Update a pending expense',
    description: 'JSON or multipart (a new receipt replaces the old one).',
  },
  'DELETE /api/v1/expenses/:id': { summary: 'Delete an expense', description: 'Pending or rejected expenses only.' },
  'PATCH /api/v1/expenses/:id/approve': { summary: 'Approve an expense', description: 'Posts it to the ledger.' },
  'PATCH /api/v1/expenses/:id/reject': { summary: 'Reject an expense', description: 'With an optional reason.' },
  'PATCH /api/v1/expenses/:id/pay': {
    summary: 'Pay an expense',
    description: 'Posts the payment from a bank account.',
  },
  'GET /api/v1/expenses/:id/receipt': { summary: 'Expense receipt', description: 'The stored receipt file.' },
  'GET /api/v1/bank-accounts': { summary: 'List bank accounts', description: 'With their balances.' },
  'POST /api/v1/bank-accounts': { summary: 'Add a bank account', description: 'Linked to a ledger account.' },
  'GET /api/v1/bank-accounts/:id/transactions': {
    summary: 'Bank transactions',
    description: 'Imported transactions with reconciliation suggestions for the page.',
  },
  'POST /api/v1/bank-accounts/:id/import': {
    summary: 'Import a bank statement',
    description:
      'Multipart form with one CSV file (at most 5 MB); rows with errors are reported and skipped, duplicates counted.',
    multipartFile: 'file',
  },
  'POST /api/v1/bank-accounts/:id/reconcile': {
    summary: 'Reconcile a bank transaction',
    description:
      "Matches it with a ledger posting (transactionId), or pays and matches in one transaction: with invoiceId the invoice (money in), with expenseId the approved expense (money out; owner or admin) is marked paid on the line's date from this bank account and its payment posting matched. With entry {accountId, description}: a new manual posting of the line's date and amount between the bank's ledger account and accountId, matched at once. A refusal writes nothing: the document stays unpaid, no posting is left, the line stays unmatched.",
  },
  'POST /api/v1/bank-accounts/:id/unreconcile': {
    summary: "Undo a bank transaction's match",
    description:
      "The line and the posting it was matched with are unmatched and offered for matching again (422 when the line is not matched). What the match wrote stays: an invoice or expense paid by it stays paid, a posting made by it stays in the ledger; undo those where they were made (the document's actions, a reversing entry).",
  },
  'GET /api/v1/reports/dashboard': {
    summary: 'Dashboard',
    description: 'Month-to-date figures, receivables aging, 12 months of P&L.',
    responseExample: {
      asOfDate: '2026-03-31',
      baseCurrency: 'RSD',
      cashBalance: '125000.00',
      revenueMTD: '3000.00',
      unpaidInvoices: '3600.00',
      expensesMTD: '99.00',
      profitMTD: '2901.00',
      cashFlowChange: 12.5,
      monthlyPL: [
        { month: '2026-02', revenue: '0.00', expenses: '0.00', profit: '0.00' },
        { month: '2026-03', revenue: '3000.00', expenses: '99.00', profit: '2901.00' },
      ],
      receivablesAging: { current: '3600.00', days30: '0.00', days60: '0.00', days90plus: '0.00' },
      expensesByCategory: [{ category: 'Travel', amount: '99.00', currencyCode: 'RSD' }],
    },
  },
  'GET /api/v1/reports/profit-loss': {
    summary: 'Profit and loss',
    description: 'Revenue and expenses per account in a period (from, to; JSON, CSV or PDF).',
    responseExample: {
      period: PERIOD,
      baseCurrency: 'RSD',
      revenue: {
        total: '3000.00',
        accounts: [{ accountCode: '6140', accountName: 'Prihodi od prodaje usluga', amount: '3000.00' }],
      },
      expenses: {
        total: '99.00',
        accounts: [{ accountCode: '5520', accountName: 'Troškovi putovanja', amount: '99.00' }],
      },
      netProfit: '2901.00',
    },
  },
  'GET /api/v1/reports/balance-sheet': {
    summary: 'Balance sheet',
    description: 'Balances on a date (date; JSON, CSV or PDF).',
    responseExample: {
      asOfDate: '2026-03-31',
      baseCurrency: 'RSD',
      assets: {
        total: '3600.00',
        current: {
          total: '3600.00',
          accounts: [{ accountCode: '2040', accountName: 'Kupci u zemlji', balance: '3600.00' }],
        },
        fixed: { total: '0.00', accounts: [] },
      },
      liabilities: {
        total: '600.00',
        current: {
          total: '600.00',
          accounts: [{ accountCode: '4700', accountName: 'Obaveze za PDV', balance: '600.00' }],
        },
        longTerm: { total: '0.00', accounts: [] },
      },
      equity: {
        total: '3000.00',
        accounts: [{ accountCode: null, accountName: 'Dobit tekuće godine', balance: '3000.00' }],
      },
    },
  },
  'GET /api/v1/reports/cash-flow': {
    summary: 'Cash flow',
    description: 'Cash and bank movements in a period (from, to; JSON, CSV or PDF).',
    responseExample: {
      period: PERIOD,
      baseCurrency: 'RSD',
      operating: {
        total: '3501.00',
        items: [
          { description: 'Naplata od kupaca', accountCode: '2040', amount: '3600.00' },
          { description: 'Troškovi putovanja', accountCode: '5520', amount: '-99.00' },
        ],
      },
      investing: { total: '0.00', items: [] },
      financing: { total: '0.00', items: [] },
      netCashFlow: '3501.00',
      openingBalance: '121499.00',
      closingBalance: '125000.00',
    },
  },
  'GET /api/v1/reports/vat': {
    summary: 'VAT report',
    description: 'Output and input VAT in a period (from, to; JSON, CSV or PDF).',
    responseExample: {
      period: PERIOD,
      country: 'RS',
      baseCurrency: 'RSD',
      outputVAT: {
        total: '600.00',
        invoices: [
          {
            invoiceNumber: 'INV-2026-0001',
            customerName: 'Kupac d.o.o.',
            invoiceDate: '2026-03-10',
            baseAmount: '3000.00',
            vatAmount: '600.00',
            vatRate: '20',
          },
        ],
      },
      inputVAT: {
        total: '19.80',
        expenses: [
          {
            expenseNumber: 'EXP-2026-0001',
            vendorName: null,
            expenseDate: '2026-03-04',
            baseAmount: '99.00',
            vatAmount: '19.80',
            vatRate: '20',
          },
        ],
      },
      netVAT: '580.20',
      reconciliationStatus: { allInvoicesPaid: false, allExpensesApproved: true, unmatchedTransactions: 0 },
    },
  },
  'GET /api/v1/reports/trial-balance': {
    summary: 'Trial balance',
    description: 'Each account’s balance on a date (date; JSON, CSV or PDF).',
    responseExample: {
      asOfDate: '2026-03-31',
      baseCurrency: 'RSD',
      accounts: [
        {
          accountCode: '2040',
          accountName: 'Kupci u zemlji',
          accountType: 'Asset',
          debitTotal: '3600.00',
          creditTotal: '0.00',
          balance: '3600.00',
        },
        {
          accountCode: '4700',
          accountName: 'Obaveze za PDV',
          accountType: 'Liability',
          debitTotal: '0.00',
          creditTotal: '600.00',
          balance: '-600.00',
        },
        {
          accountCode: '6140',
          accountName: 'Prihodi od prodaje usluga',
          accountType: 'Revenue',
          debitTotal: '0.00',
          creditTotal: '3000.00',
          balance: '-3000.00',
        },
      ],
      totals: { debit: '3600.00', credit: '3600.00' },
      balanced: true,
    },
  },
};

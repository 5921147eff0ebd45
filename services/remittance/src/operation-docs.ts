import type { OperationDoc } from '@app/shared/openapi';

const USER_ID = 'usr_e0bf939d86c521760b489d07';
const RECIPIENT_ID = 'rcp_4ea59b73da2be23bb6e616e7';
const MERCHANT_ID = 'mer_203c366d4ebfb2e3';
const CREATED_AT = '2026-03-10T09:12:44.120Z';

const GONE: OperationDoc = {
  summary: 'Password sign-in (gone)',
  description: 'Sign-in is by national eID only: 410 gone.',
};

/**
 * The summary and description of every operation (issue 25 item 6), keyed by `METHOD /path` without
 * the surface prefix: each route exists under /api (cookie) and /v1 (Bearer), R1. The main
 * operations carry an example request. test/openapi-docs.test.ts fails on an operation missing here.
 */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  'GET /health': { summary: 'Health check', description: '200 when the database answers, 503 when it does not (G11).' },
  'GET /rates': { summary: 'Exchange rates', description: 'NOK rates of every corridor currency, with their age.' },
  'GET /rates/:currency': {
    summary: 'One exchange rate',
    description: 'The NOK rate and fee of a currency; unknown: 404.',
  },
  'GET /auth/eid': { summary: 'Start eID sign-in (web)', description: 'Redirects to the eID provider (302).' },
  'GET /auth/eid/initiate': {
    summary: 'Start eID sign-in (mobile)',
    description: 'Answers the provider URL to open; the app returns through its callback.',
  },
  'GET /auth/eid/callback': {
    summary: 'eID callback (web)',
    description: 'Ends in 302 /dashboard with the app_token cookie, or /login?error=<code>.',
  },
  'POST /auth/eid/callback': {
    summary: 'eID callback (mobile)',
    description: 'Exchanges code and state for a token; errors as JSON (R3).',
    requestExample: {
      code: 'c0d3',
      state: 's7a7e',
      platform: 'mobile',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    },
    responseExample: {
      token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOiJ1c3JfZTBiZjkzOWQifQ.c2lnbmF0dXJl',
      data: {
        id: USER_ID,
        email: null,
        firstName: 'Kari',
        lastName: 'Nordmann',
        dateOfBirth: '1970-01-02',
        kycStatus: 'approved',
        role: 'user',
        createdAt: CREATED_AT,
      },
    },
  },
  'GET /auth/eid/mock/authorize': {
    summary: 'Mock eID provider',
    description: 'Development only (EID_MOCK): answers 302 to the redirect URI with a code.',
  },
  'GET /auth/me': {
    summary: 'The signed-in user',
    description: 'The user with their bank accounts.',
    responseExample: {
      data: {
        id: USER_ID,
        email: 'kari@example.no',
        firstName: 'Kari',
        lastName: 'Nordmann',
        role: 'user',
        totalBalance: 51500,
        bankAccounts: [
          {
            id: 'bac_b1b0b711446c18d6fa263f12',
            bankName: 'Sandbox Bank',
            accountNumber: '99992966056',
            balance: 50000,
            currency: 'NOK',
            isPrimary: true,
          },
          {
            id: 'bac_1b35385bc069b663e63651a6',
            bankName: 'Sandbox Bank',
            accountNumber: '99995859021',
            balance: 1500,
            currency: 'NOK',
            isPrimary: false,
          },
        ],
        kycStatus: 'approved',
        createdAt: CREATED_AT,
      },
    },
  },
  'POST /auth/logout': { summary: 'Sign out', description: 'Revokes every session and clears the cookie.' },
  'POST /auth/refresh': {
    summary: 'Renew the token',
    description: 'Revokes the presented session and issues a new one.',
  },
  'POST /auth/login': GONE,
  'POST /auth/register': GONE,
  'POST /auth/verify-otp': GONE,
  'POST /open-banking/consents': {
    summary: 'Link a bank',
    description:
      'Creates a consent at the bank chosen (`bank`, one of GET /open-banking/banks; without it the provider’s default bank, 422 when there is none) and answers the bank’s authorize URL. Payments from the accounts it links, and its renewal, go to the same bank. Linking again (the user has had a consent before, e.g. one that expired or was revoked) needs an eID sign-in from the last REAUTH_MAX_AGE (default 10 minutes): older sessions answer 403 reauthentication_required.',
    requestExample: { scope: 'AISP+PISP', bank: { name: 'DNB', country: 'NO' } },
  },
  'GET /open-banking/banks': {
    summary: 'Banks to link',
    description:
      'The banks a consent can be given at, for personal accounts with account information, in `country` (default NO), by name: the bank chooser. With Enable Banking its GET /aspsps, kept an hour; with the sandbox, the sandbox bank. 502 bank_unavailable when the provider does not answer.',
  },
  'GET /open-banking/consents': { summary: 'Bank consents', description: 'The user’s consents and their states.' },
  'POST /open-banking/consents/:id/renew': {
    summary: 'Renew a consent',
    description:
      'Starts a new authorization at the same bank with the same scope (before the consent expires, after it expired, or after the bank revoked it: `renewalDue` or `reauthorizationRequired`) and answers the bank’s authorize URL. At the callback the new consent replaces this one and keeps its bank accounts (matched by account number), so recipients and payments keep working. Needs an eID sign-in from the last REAUTH_MAX_AGE (default 10 minutes): older sessions answer 403 reauthentication_required.',
  },
  'DELETE /open-banking/consents/:id': {
    summary: 'Revoke a consent',
    description: 'The bank’s balances stop refreshing.',
  },
  'GET /open-banking/callback': {
    summary: 'Bank consent callback',
    description: 'Activates the consent, links the accounts and redirects to the app.',
  },
  'GET /payments/callback': {
    summary: 'Bank payment callback',
    description:
      'Where the bank sends the user after authorizing a payment: asks the bank, moves the payment on and redirects to the transaction.',
  },
  'GET /open-banking/sandbox/authorize': {
    summary: 'Sandbox bank consent page',
    description: 'Development only: approves the consent and redirects to the callback.',
  },
  'GET /bank-accounts': {
    summary: 'Bank accounts',
    description: 'Linked accounts with cached balances (stale when the consent ended).',
  },
  'POST /bank-accounts/:id/primary': { summary: 'Make an account primary', description: 'Payments use it by default.' },
  'POST /bank-accounts/:id/refresh': {
    summary: 'Refresh a balance',
    description: 'Reads the balance from the bank now.',
  },
  'GET /consents': { summary: 'Privacy consents', description: 'The user’s GDPR consents.' },
  'GET /consents/history': {
    summary: 'Consent history',
    description:
      'Every grant and withdrawal with its time and IP address, newest first, paged (limit 1-100, default 50).',
  },
  'POST /consents': { summary: 'Grant or withdraw a consent', description: 'One record per consent type.' },
  'GET /complaints': { summary: 'Complaints', description: 'The user’s complaints.' },
  'GET /complaints/:id': { summary: 'One complaint', description: 'A complaint of the user.' },
  'POST /complaints': {
    summary: 'File a complaint',
    description: 'Category, subject and description; stored as plain text.',
    requestExample: { category: 'transaction', subject: 'Late transfer', description: 'Sent on Monday, not arrived.' },
  },
  'GET /user/data-export': {
    summary: 'Export my data',
    description: 'Every personal record of the user (GDPR access).',
  },
  'GET /user/data-export/download': { summary: 'Download my data', description: 'The export as a JSON file.' },
  'DELETE /user/account': {
    summary: 'Erase my account',
    description: 'Soft delete; sessions and consents revoked (R6).',
  },
  'GET /cards': { summary: 'Cards', description: 'Feature-flagged (FEATURE_CARDS).' },
  'POST /cards': { summary: 'Issue a card', description: 'A virtual card (FEATURE_CARDS).' },
  'GET /cards/:id': { summary: 'One card', description: 'Masked number and security code (FEATURE_CARDS).' },
  'PATCH /cards/:id': { summary: 'Freeze or unfreeze a card', description: 'FEATURE_CARDS.' },
  'DELETE /cards/:id': { summary: 'Cancel a card', description: 'Final (FEATURE_CARDS).' },
  'POST /cards/:id/physical': { summary: 'Order a physical card', description: 'FEATURE_PHYSICAL_CARDS.' },
  'POST /cards/:id/pin': { summary: 'Set the PIN', description: 'FEATURE_CARD_PIN; never returned.' },
  'GET /cards/:id/limits': { summary: 'Spending limits', description: 'FEATURE_SPENDING_LIMITS.' },
  'PUT /cards/:id/limits': { summary: 'Set a spending limit', description: 'FEATURE_SPENDING_LIMITS.' },
  'GET /recipients': { summary: 'Recipients', description: 'Saved recipients with masked accounts.' },
  'POST /recipients': {
    summary: 'Add a recipient',
    description: 'Country and currency of a corridor (R10); the IBAN’s checksum is verified.',
    requestExample: { name: 'Marko Marković', country: 'RS', currency: 'RSD', bankAccount: 'RS35260005601001611379' },
    responseExample: {
      data: {
        id: RECIPIENT_ID,
        name: 'Marko Marković',
        country: 'RS',
        currency: 'RSD',
        bankAccount: '******************1379',
        bankName: null,
        createdAt: CREATED_AT,
      },
    },
  },
  'PATCH /recipients/:id': {
    summary: 'Edit a recipient',
    description:
      'Only the fields given change, checked as on creation (a new country needs an IBAN of it). Past transactions keep the name, country, currency and account they were made with.',
    requestExample: { bankAccount: 'RS35260005601001611379', bankName: 'Banca Intesa' },
  },
  'DELETE /recipients/:id': { summary: 'Remove a recipient', description: 'Past transactions keep their data.' },
  'POST /transactions/remittance': {
    summary: 'Send money abroad',
    description:
      'Reserves amount plus a 0.5 % fee atomically and records the payment (initiating) before the bank is called; Idempotency-Key makes a retry safe (R9). When the bank needs the user, status stays initiating and authorizationUrl is where the user authorizes it. KYC approved required.',
    requestExample: { recipientId: RECIPIENT_ID, amount: 1000 },
    responseExample: {
      data: {
        id: 'tx_rem_4f7f1e3ec251c965',
        type: 'remittance',
        status: 'processing',
        sendAmount: 1000,
        sendCurrency: 'NOK',
        receiveAmount: 9997,
        receiveCurrency: 'RSD',
        exchangeRate: 9.997,
        fee: 5,
        feePercent: 0.5,
        total: 1005,
        recipientName: 'Marko Marković',
        recipientCountry: 'RS',
        fromAccount: 'Sandbox Bank',
        eta: '2-4 business days',
        createdAt: CREATED_AT,
      },
    },
  },
  'POST /transactions/qr-payment': {
    summary: 'Pay a merchant by QR',
    description: 'Debits amount plus a 1 % fee from the primary account; completes at once.',
    requestExample: { merchantId: MERCHANT_ID, amount: 250 },
    responseExample: {
      data: {
        id: 'tx_qr_ba9c9828d2155bb3',
        type: 'qr_payment',
        status: 'completed',
        amount: 250,
        currency: 'NOK',
        fee: 2.5,
        feePercent: 1,
        merchantName: 'Kafé Nord AS',
        merchantId: MERCHANT_ID,
        fromAccount: 'Sandbox Bank',
        createdAt: CREATED_AT,
      },
    },
  },
  'POST /transactions/disclosure': {
    summary: 'Fee and rate disclosure',
    description: 'What a payment would cost and deliver; recipientId is required for a remittance (400 without it).',
    requestExample: { type: 'remittance', amount: 1000, recipientId: RECIPIENT_ID },
    responseExample: {
      amount: 1000,
      fee: 5,
      feePercentage: 0.5,
      exchangeRate: 9.997,
      receiveAmount: 9997,
      receiveCurrency: 'RSD',
      estimatedDelivery: '2-4 business days',
      totalCost: 1005,
    },
  },
  'GET /transactions': {
    summary: 'Transactions',
    description: 'Paginated, filtered by type and status.',
    responseExample: {
      data: [
        {
          id: 'tx_qr_ba9c9828d2155bb3',
          type: 'qr_payment',
          status: 'completed',
          amount: -250,
          currency: 'NOK',
          recipientName: 'Kafé Nord AS',
          createdAt: '2026-03-10T09:14:02.311Z',
        },
        {
          id: 'tx_rem_4f7f1e3ec251c965',
          type: 'remittance',
          status: 'processing',
          amount: -1000,
          currency: 'NOK',
          recipientName: 'Marko Marković',
          createdAt: CREATED_AT,
        },
      ],
      pagination: { page: 1, limit: 20, total: 2 },
    },
  },
  'GET /transactions/summary': { summary: 'Transaction summary', description: 'Totals of the user’s transactions.' },
  'GET /transactions/:id': { summary: 'One transaction', description: 'A transaction of the user.' },
  'GET /transactions/:id/receipt': { summary: 'Receipt', description: 'The receipt data of a transaction.' },
  'GET /transactions/:id/receipt.pdf': { summary: 'Receipt PDF', description: 'The receipt as a PDF.' },
  'POST /merchants/register': {
    summary: 'Become a merchant',
    description: 'Norwegian organization number checked (mod 11); answers the QR value.',
    requestExample: { businessName: 'Kafé Nord AS', orgNumber: '923609016', bankAccount: 'NO9386011117947' },
  },
  'GET /merchants/dashboard': {
    summary: 'Merchant dashboard',
    description: 'Revenue, fees and next payout (Oslo time).',
  },
  'GET /merchants/qr': { summary: 'Merchant QR value', description: 'The app://pay/<merchantId> URI.' },
  'GET /merchants/qr.png': { summary: 'Merchant QR (PNG)', description: 'The QR code rendered as PNG.' },
  'GET /merchants/qr.svg': { summary: 'Merchant QR (SVG)', description: 'The QR code rendered as SVG.' },
  'GET /merchants/:merchantId': {
    summary: 'The merchant a QR code names',
    description:
      "For the payer, before paying: the business name and whether it is the caller's own merchant (which cannot be paid). Unknown or erased: 404.",
  },
  'GET /merchants/transactions': { summary: 'Merchant payments', description: 'QR payments received.' },
  'GET /notifications': { summary: 'Notifications', description: 'In Norwegian (R13); 404 when the feature is off.' },
  'PATCH /notifications': { summary: 'Mark notifications read', description: 'Answers how many were updated.' },
  'GET /settings': { summary: 'Settings', description: 'Language, currency and notification preferences.' },
  'PATCH /settings': { summary: 'Change settings', description: 'Values from fixed lists (400 otherwise).' },
};

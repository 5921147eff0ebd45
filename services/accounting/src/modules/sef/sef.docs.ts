import type { OperationDoc } from '@app/shared/openapi';

/** Summaries and descriptions of the SEF and purchase-invoice operations (issue 28). */
export const SEF_OPERATION_DOCS: Record<string, OperationDoc> = {
  'GET /api/v1/organization/sef': {
    summary: 'SEF settings',
    description:
      'Environment, enabled flag, whether an API key is stored and when SEF was last synced; the key is never returned. Owners and admins also see the notification URL to register in SEF. RS organizations only.',
  },
  'PUT /api/v1/organization/sef': {
    summary: 'Change the SEF settings',
    description:
      'Owner or admin. `apiKey` (from SEF: Podešavanja, Upravljanje API) is stored encrypted; enabling needs a key. RS organizations only (others 422).',
    requestExample: { apiKey: '00000000-0000-0000-0000-000000000000', environment: 'demo', enabled: true },
  },
  'GET /api/v1/invoices/:id/sef': {
    summary: "The invoice's SEF state",
    description:
      "The invoice with `sef` and `creditNoteSef`: null until queued, then SEF's status (or Pending / Failed), the requestId, SEF's invoice id and the last error.",
  },
  'POST /api/v1/invoices/:id/sef': {
    summary: 'Send the invoice to SEF',
    description:
      "Queues the e-invoice with a requestId fixed and committed before SEF is called, then tries once; 202 with the invoice. Network failures, 429 and 5xx are retried by a job with backoff; a refusal shows as Failed with SEF's message. Queueing twice changes nothing.",
  },
  'POST /api/v1/invoices/:id/credit-note/sef': {
    summary: 'Send the credit note to SEF',
    description: 'As for the invoice, for the credit note (381) of an invoice cancelled after it was sent.',
  },
  'POST /api/v1/invoices/:id/sef/cancel': {
    summary: 'Cancel the invoice in SEF',
    description:
      "Before the buyer acted (SEF: cancel); the reason goes to SEF. SEF's refusal is 422 with its message, SEF down 503.",
    requestExample: { reason: 'Pogrešan kupac' },
  },
  'POST /api/v1/invoices/:id/sef/storno': {
    summary: 'Storno the invoice in SEF',
    description:
      'After it was sent, approved or rejected (SEF: storno), with the reason and an optional storno number.',
    requestExample: { reason: 'Povrat robe', stornoNumber: 'ST-2026-1' },
  },
  'GET /api/v1/purchase-invoices': {
    summary: 'Purchase invoices',
    description: 'Received in SEF and fetched by the sync job; filters status, fromDate, toDate (issue date).',
  },
  'GET /api/v1/purchase-invoices/:id': {
    summary: 'A purchase invoice',
    description: 'With the lines parsed from its UBL.',
  },
  'GET /api/v1/purchase-invoices/:id/ubl': {
    summary: 'The received UBL',
    description: 'The document as SEF handed it over (application/xml).',
  },
  'POST /api/v1/purchase-invoices/:id/accept': {
    summary: 'Accept in SEF',
    description: "Tells SEF first; only SEF's yes is recorded. A comment is required.",
    requestExample: { comment: 'U redu' },
  },
  'POST /api/v1/purchase-invoices/:id/reject': {
    summary: 'Reject in SEF',
    description: 'Tells SEF first, with the comment (the reason the supplier sees).',
    requestExample: { comment: 'Pogrešan iznos' },
  },
  'POST /api/v1/purchase-invoices/:id/expense': {
    summary: 'Make the expense',
    description:
      "A pending expense for the invoice's total and VAT; the vendor is the contact with the supplier's PIB, or is created.",
  },
  'GET /api/v1/sef/code-lists': {
    summary: "SEF's code lists",
    description: 'VAT exemption reasons and units as SEF publishes them, fetched at most once a day.',
  },
  'POST /api/v1/sef/webhook/:token': {
    summary: 'SEF notification',
    description:
      "SEF's status change of a sales or purchase invoice, for the organization whose secret URL it is (404 for an unknown one).",
  },
  'GET /api/v1/organization/fiscalization': {
    summary: 'Fiscalization settings (HR)',
    description:
      'Environment, enabled flag and the stored certificate (subject, expiry); never the key or the password. HR organizations only.',
  },
  'PUT /api/v1/organization/fiscalization': {
    summary: 'Upload the fiscalization certificate (HR)',
    description:
      'Owner. `certificate`: the PKCS#12 file (base64) with `password`; the key is kept encrypted, the file and the password are not kept. 422 when the password does not open it or it expired.',
  },
  'GET /api/v1/invoices/:id/fiscalization': {
    summary: "The invoice's fiscalization messages (HR)",
    description:
      "`fiscalization` (the e-invoice, recorded on send), `creditNote` (on cancel of a sent invoice), `payment` (on mark-paid): each null until recorded, then Pending (tried again with backoff, `lastError`, `nextAttemptAt`), Fiscalized, or Failed with the Tax Administration's error codes.",
  },
  'POST /api/v1/invoices/:id/fiscalization': {
    summary: 'Fiscalize again (HR)',
    description:
      'Body `{message?: eracun | credit-note | payment}` (default eracun). Records the message when it was never recorded or was refused (Failed; then with a new request id) and makes the attempt now; Fiscalized or Pending ones are unchanged. Sending, mark-paid and cancel record their messages by themselves.',
  },
  'GET /api/v1/organization/intermediary': {
    summary: 'Information intermediary account (HR)',
    description:
      'The Moj-eRačun account the organization exchanges e-invoices through: environment, enabled, username, business unit, SoftwareId, last intake; never the password.',
  },
  'PUT /api/v1/organization/intermediary': {
    summary: 'Set the information intermediary account (HR)',
    description:
      'Owner or admin. The password is kept encrypted (omit it to keep the stored one). With `enabled`, received e-invoices are fetched into purchase invoices by the intake job.',
  },
  'GET /api/v1/organization/intermediary/recipient': {
    summary: 'Recipient look-up (HR)',
    description:
      '`?oib=`: whether the OIB is registered to receive e-invoices, as the intermediary answers. 503 when the intermediary does not answer.',
  },
};

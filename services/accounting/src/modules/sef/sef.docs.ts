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
    summary: 'Accept in SEF (or through the HR intermediary)',
    description:
      'Tells SEF first (an HR e-invoice: Moj-eRačun, UpdateDokumentProcessStatus approved); only its yes is recorded. A comment is required. The intermediary or SEF down: 503; its refusal: 422 with its message.',
    requestExample: { comment: 'U redu' },
  },
  'POST /api/v1/purchase-invoices/:id/reject': {
    summary: 'Reject in SEF (or through the HR intermediary)',
    description:
      'Tells SEF first (an HR e-invoice: Moj-eRačun, UpdateDokumentProcessStatus rejected), with the comment (the reason the supplier sees); for an HR e-invoice the rejection report to the Tax Administration is recorded with it.',
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
      'Owner or admin. The password is kept encrypted (omit it to keep the stored one). With `enabled`, received e-invoices are fetched into purchase invoices by the intake job and sent invoices go through the intermediary. `fiscalizationBy` (default `intermediary`): who fiscalizes the e-invoices exchanged through it; Moj-eRačun fiscalizes what it sends and receives, so with `intermediary` this service records no fiscalization of its own for them; `service` only when Moj-eRačun is set not to.',
    requestExample: {
      environment: 'demo',
      enabled: true,
      username: '1083',
      password: 'lozinka',
      softwareId: 'Ledgerline-001',
      fiscalizationBy: 'intermediary',
    },
  },
  'GET /api/v1/invoices/:id/intermediary': {
    summary: "The invoice's delivery through the intermediary (HR)",
    description:
      "`intermediary` (the e-invoice) and `creditNoteIntermediary`: null until queued, then Pending (retried with backoff: `lastError`, `nextAttemptAt`), Failed (refused, with the intermediary's message), Sent, Delivered, Accepted or Rejected by the buyer (`statusReason`), Undeliverable; with the idempotency key, the number the intermediary knows it by and its ElectronicId (`documentId`).",
  },
  'POST /api/v1/invoices/:id/intermediary': {
    summary: 'Send the e-invoice through the intermediary (HR)',
    description:
      "Queues the e-invoice (an idempotency key fixed and committed before Moj-eRačun is called), then tries once; 202 with the delivery. Network failures, 429 and 5xx are retried by a job with backoff; a retry first looks the number up in Moj-eRačun's outbox, so a document that arrived is never sent twice; a refusal shows as Failed with the message. Queueing twice changes nothing; a Failed one is queued again with a new key. `send` does this by itself when the intermediary is enabled.",
  },
  'POST /api/v1/invoices/:id/credit-note/intermediary': {
    summary: 'Send the credit note through the intermediary (HR)',
    description: 'As for the invoice, for the credit note (381) of an invoice cancelled after it was sent.',
  },
  'GET /api/v1/organization/intermediary/recipient': {
    summary: 'Recipient look-up (HR)',
    description:
      '`?oib=`: whether the OIB is registered to receive e-invoices, as the intermediary answers. 503 when the intermediary does not answer.',
  },
};

/**
 * Exchange of Croatian e-invoices through an information intermediary (informacijski posrednik,
 * issue 28): what the service needs from any provider, so one adapter per provider's API fits
 * behind it (docs/accounting/exchange-hr.md). Every call is made outside database transactions.
 */
export type IntermediaryResult<T> =
  | { ok: true; value: T }
  /** retry: the provider was unreachable, timed out, or answered 429/5xx (try again later). */
  | { ok: false; retry: boolean; status: number | null; message: string; retryAfterMs?: number | null };

export interface SentDocument {
  /** The provider's id of the document (for its status and for reports about it). */
  documentId: string;
  status: string;
}

/** A sent document as the provider reports it (its delivery and the recipient's business status). */
export interface SentStatus {
  /** The provider's status name (Moj-eRačun: "Poslan", "Preuzet", ...). */
  status: string;
  /** Where delivery stands, as this service classifies it. */
  delivery: 'sent' | 'delivered' | 'undeliverable';
  /** The recipient's business decision, when it made one (approved or paid: accepted). */
  decision: 'accepted' | 'rejected' | null;
  /** The recipient's reason for a rejection. */
  reason: string | null;
}

/** A payment of a sent e-invoice, for the intermediary to report (eIzvještavanje o naplati). */
export interface PaymentToReport {
  /** YYYY-MM-DD */
  paidAt: string;
  /** The amount paid, as a decimal string. */
  amount: string;
  /** T: to a bank account (transakcijski račun); O: other; Z: set off (as EvidentirajNaplatu). */
  method: 'T' | 'O' | 'Z';
}

export interface ReceivedSummary {
  documentId: string;
  documentNumber: string | null;
  senderVatNumber: string | null;
  senderName: string | null;
  status: string;
}

export interface IntermediaryAdapter {
  readonly provider: string;
  /** Sends a UBL e-invoice (the provider delivers it to the recipient's intermediary). */
  send(ublXml: string): Promise<IntermediaryResult<SentDocument>>;
  /** The provider's status of a document it sent for us. */
  status(documentId: string): Promise<IntermediaryResult<SentStatus>>;
  /**
   * A document we sent earlier, found by its number (and the year it was sent): how a retry after
   * an unanswered send learns that the first one arrived (the provider has no idempotency key).
   */
  findSent(documentNumber: string, year: number): Promise<IntermediaryResult<SentDocument | null>>;
  /** Tells the sender, through the provider, our business decision on a received document. */
  updateProcessStatus(
    documentId: string,
    decision: 'accepted' | 'rejected',
    reason: string | null,
  ): Promise<IntermediaryResult<null>>;
  /** E-invoices addressed to us not yet confirmed as imported. */
  inbox(): Promise<IntermediaryResult<ReceivedSummary[]>>;
  /** One received document, as the UBL XML it was delivered as. */
  receive(documentId: string): Promise<IntermediaryResult<string>>;
  /** Confirms a received document was imported (it is not listed as new again). */
  confirmImported(documentId: string): Promise<IntermediaryResult<null>>;
  /**
   * Reports the payment of a document it sent and fiscalized for us (when it fiscalizes, the
   * payment report is its too); answers its fiscalization time when it says one.
   */
  markPaid(documentId: string, payment: PaymentToReport): Promise<IntermediaryResult<{ fiscalizedAt: string | null }>>;
  /** Whether the OIB is registered to receive e-invoices (the recipient look-up); null: unknown. */
  recipientRegistered(oib: string): Promise<IntermediaryResult<boolean>>;
}

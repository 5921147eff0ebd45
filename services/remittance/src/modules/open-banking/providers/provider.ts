import type { Kysely } from 'kysely';
import type { ConsentScope, DB } from '../../../db/types.js';

export interface ProviderAccount {
  externalId: string;
  bankName: string;
  name: string;
  accountNumber: string;
  currency: string;
  /** Decimal string, two places. */
  balance: string;
  /** The bank's current (checking) account: becomes the primary source of funds. */
  isChecking: boolean;
}

export type ProviderPaymentStatus = 'pending' | 'completed' | 'rejected';

export interface PaymentOrder {
  externalAccountId: string;
  /** Decimal string, two places. */
  amount: string;
  currency: string;
  creditorAccount: string;
  creditorName: string;
  reference: string;
}

/** Raised by a provider for a refused operation (insufficient funds, consent not valid...). */
export class ProviderError extends Error {
  constructor(
    readonly reason: 'consent_invalid' | 'insufficient_funds' | 'unknown_account' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The caller's open database transaction. A payment is initiated inside the transaction that
 * debits and records it (R9): if the bank refuses, nothing is recorded. The sandbox, whose books
 * are tables of this database, writes its side there too; a provider over HTTP ignores it.
 */
export interface ProviderCall {
  db?: Kysely<DB>;
}

/**
 * An open banking provider (aggregator or bank API) behind which sit the user's banks (R8).
 * The sandbox implements it for development; a real aggregator plugs in by implementing it.
 */
export interface OpenBankingProvider {
  readonly name: string;
  /** Starts consent at the bank; the user is sent to redirectUrl and comes back to redirectUri. */
  createConsent(input: {
    customerRef: string;
    scope: ConsentScope;
    redirectUri: string;
    state: string;
  }): Promise<{ externalConsentId: string; redirectUrl: string }>;
  /**
   * Checks the bank's callback; true (or the consent's new external id, when the provider names the
   * authorized consent only now, e.g. Enable Banking's session id) when the user approved it.
   */
  completeConsent(
    externalConsentId: string,
    callbackParams: Record<string, string | undefined>,
  ): Promise<boolean | { externalConsentId: string }>;
  listAccounts(externalConsentId: string): Promise<ProviderAccount[]>;
  readBalance(externalConsentId: string, externalAccountId: string): Promise<{ amount: string; currency: string }>;
  initiatePayment(
    externalConsentId: string,
    order: PaymentOrder,
    call?: ProviderCall,
  ): Promise<{ paymentId: string; status: ProviderPaymentStatus }>;
  paymentStatus(paymentId: string, call?: ProviderCall): Promise<ProviderPaymentStatus>;
  revokeConsent(externalConsentId: string): Promise<void>;
}

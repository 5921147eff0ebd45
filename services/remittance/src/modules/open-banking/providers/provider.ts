import type { ConsentScope } from '../../../db/types.js';

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

/**
 * Where a payment stands at the bank: `received` (created, waiting for the user's authorization
 * at the bank), `pending` (accepted by the bank, not yet settled), `completed`, `rejected`.
 */
export type ProviderPaymentStatus = 'received' | 'pending' | 'completed' | 'rejected';

/** A payment's state at the bank, with the bank's own status code and reason (ISO 20022 where it has them). */
export interface PaymentState {
  status: ProviderPaymentStatus;
  /** The bank's status code (e.g. RCVD, ACCP, ACSC, RJCT), for logs and the failure reason. */
  bankStatus: string;
  /** The bank's reason for a rejection, when it gave one. */
  reason: string | null;
}

/** A payment created at the bank. */
export interface InitiatedPayment extends PaymentState {
  paymentId: string;
  /** Where the user authorizes the payment at the bank; null when the bank needs nobody (the sandbox). */
  authorizationUrl: string | null;
}

/** A bank (ASPSP) the user can link, as the provider lists it; name and country identify it at the provider. */
export interface ProviderBank {
  name: string;
  /** ISO 3166 alpha-2, upper case. */
  country: string;
  /** The bank's logo (the provider's URL), when it has one. */
  logo: string | null;
  bic: string | null;
  /** The provider marks its connection to this bank as beta. */
  beta: boolean;
}

/** The bank a consent is given at (and a payment from its accounts goes to): name and country. */
export type BankRef = Pick<ProviderBank, 'name' | 'country'>;

export interface PaymentOrder {
  externalAccountId: string;
  /** Decimal string, two places. */
  amount: string;
  currency: string;
  creditorAccount: string;
  creditorName: string;
  reference: string;
  /**
   * Ours, fixed when the intent is recorded and sent with every attempt: the same id is the same
   * payment at the bank (the sandbox answers the first payment again; see the docs for Enable Banking).
   */
  endToEndId: string;
  /** The bank of the paying account's consent; absent for consents given before the bank chooser (the default bank). */
  bank?: BankRef;
}

/** Raised by a provider for a refused operation (insufficient funds, consent not valid...). */
export class ProviderError extends Error {
  constructor(
    /**
     * `refused`: the bank or aggregator refused this request for good (a wrong parameter, a limit);
     * `unavailable`: no answer, a timeout, 5xx or a rate limit: the outcome may be unknown, try again.
     */
    readonly reason: 'consent_invalid' | 'insufficient_funds' | 'unknown_account' | 'refused' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Where the bank sends the user back after the payment's authorization: the callback URL and the
 * one-time state that names the payment there.
 */
export interface PaymentRedirect {
  redirectUri: string;
  state: string;
}

/**
 * An open banking provider (aggregator or bank API) behind which sit the user's banks (R8).
 * The sandbox implements it for development; a real aggregator plugs in by implementing it.
 */
export interface OpenBankingProvider {
  readonly name: string;
  /**
   * The banks a user in `country` can link (personal accounts, account information): what the bank
   * chooser shows. Answers ProviderError('unavailable') when the provider cannot be reached.
   */
  listBanks(country: string): Promise<ProviderBank[]>;
  /** The bank a consent starts at when the request names none (null: the user must choose). */
  readonly defaultBank: BankRef | null;
  /**
   * Starts consent at the bank (`bank`, one of listBanks; the default bank when absent); the user is
   * sent to redirectUrl and comes back to redirectUri.
   */
  createConsent(input: {
    customerRef: string;
    scope: ConsentScope;
    redirectUri: string;
    state: string;
    bank?: BankRef;
  }): Promise<{ externalConsentId: string; redirectUrl: string }>;
  /**
   * Checks the bank's callback; true (or the consent's new external id, when the provider names the
   * authorized consent only now, e.g. Enable Banking's session id) when the user approved it.
   * `validUntil`: the end of the access the bank actually granted, when it says (it may grant less
   * than asked); the consent then expires at the earlier of it and our 90 days.
   */
  completeConsent(
    externalConsentId: string,
    callbackParams: Record<string, string | undefined>,
  ): Promise<boolean | { externalConsentId: string; validUntil?: Date }>;
  listAccounts(externalConsentId: string): Promise<ProviderAccount[]>;
  readBalance(externalConsentId: string, externalAccountId: string): Promise<{ amount: string; currency: string }>;
  /**
   * Creates the payment at the bank; never called inside a database transaction (the intent is
   * committed first). Called again with the same order (same endToEndId) when an earlier call's
   * answer was lost.
   */
  initiatePayment(externalConsentId: string, order: PaymentOrder, redirect: PaymentRedirect): Promise<InitiatedPayment>;
  paymentStatus(paymentId: string): Promise<PaymentState>;
  revokeConsent(externalConsentId: string): Promise<void>;
}

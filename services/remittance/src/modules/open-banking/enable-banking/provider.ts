import { D as Decimal } from '@app/shared/money';
import type {
  BankRef,
  InitiatedPayment,
  OpenBankingProvider,
  PaymentOrder,
  PaymentRedirect,
  PaymentState,
  ProviderAccount,
  ProviderBank,
  ProviderPaymentStatus,
} from '../providers/provider.js';
import { createEnableBankingClient, EnableBankingError, type EnableBankingSettings } from './client.js';

/** The fields of the API's AccountResource the service reads. */
interface AccountResource {
  uid?: string;
  account_id?: { iban?: string; other?: { identification: string; scheme_name: string } } | null;
  all_account_ids?: { identification: string; scheme_name: string }[];
  name?: string;
  details?: string;
  product?: string;
  cash_account_type?: string;
  currency?: string;
}

interface BalanceResource {
  name?: string;
  balance_amount: { amount: string; currency: string };
  balance_type?: string;
}

interface SessionAnswer {
  session_id: string;
  accounts: AccountResource[];
  aspsp?: { name: string; country: string };
  /** The access the bank granted (AuthorizeSessionResponse.access): it may end before what POST /auth asked. */
  access?: { valid_until?: string };
}

/** The fields of the API's ASPSPData the bank chooser shows (GET /aspsps). */
interface AspspData {
  name: string;
  country: string;
  logo?: string;
  bic?: string | null;
  beta?: boolean;
  psu_types?: string[];
}

/** How long a country's bank list is kept: banks join or leave the aggregator rarely. */
const BANK_LIST_MS = 60 * 60_000;

/** How long the accounts answered by POST /sessions serve listAccounts (the callback reads them at once). */
const CACHE_MS = 10 * 60_000;

/** Which balance counts as "what the user can spend": available before booked, interim before closing. */
const BALANCE_PREFERENCE = ['ITAV', 'CLAV', 'XPCD', 'OPAV', 'ITBD', 'CLBD', 'OPBD'];

/**
 * ISO 20022 payment statuses as the API reports them: settled, refused, and accepted by the bank
 * (the user authorized it; the bank has taken it on). Anything else (RCVD, PATC, or a code we do
 * not know) is a payment still waiting for the user's authorization at the bank.
 */
const COMPLETED = new Set(['ACSC', 'ACCC']);
const REJECTED = new Set(['RJCT', 'CANC']);
const ACCEPTED = new Set(['ACTC', 'ACCP', 'ACSP', 'ACWC', 'ACFC', 'ACWP', 'PDNG', 'PART']);

export function mapPaymentStatus(status: string | undefined): ProviderPaymentStatus {
  if (status && COMPLETED.has(status)) return 'completed';
  if (status && REJECTED.has(status)) return 'rejected';
  if (status && ACCEPTED.has(status)) return 'pending';
  return 'received';
}

/** The API's status reason (`status_reason_information`), as one line. */
interface StatusReason {
  status_reason_code?: string;
  status_reason_description?: string[] | string;
}
function reasonText(info: StatusReason | undefined, bankStatus: string): string | null {
  if (!info) return bankStatus === 'RJCT' ? 'Rejected by the bank (RJCT)' : null;
  const description = Array.isArray(info.status_reason_description)
    ? info.status_reason_description.join(' ')
    : info.status_reason_description;
  const text = [info.status_reason_code, description].filter(Boolean).join(': ');
  return text ? text.slice(0, 300) : null;
}

function pickBalance(balances: BalanceResource[]): { amount: string; currency: string } {
  const chosen = BALANCE_PREFERENCE.map((t) => balances.find((b) => b.balance_type === t)).find(Boolean) ?? balances[0];
  if (!chosen) throw new EnableBankingError('unavailable', 'the bank gave no balance for the account', 200, null);
  return {
    amount: new Decimal(chosen.balance_amount.amount).toFixed(2),
    currency: chosen.balance_amount.currency,
  };
}

function accountNumber(a: AccountResource): string {
  return a.account_id?.iban ?? a.account_id?.other?.identification ?? a.all_account_ids?.[0]?.identification ?? '';
}

/** Creditor identification: an IBAN (two letters, two digits) or the domestic (BBAN) number. */
function creditorAccount(account: string): { scheme_name: string; identification: string } {
  const compact = account.replace(/\s/g, '').toUpperCase();
  return /^[A-Z]{2}\d{2}/.test(compact)
    ? { scheme_name: 'IBAN', identification: compact }
    : { scheme_name: 'BBAN', identification: compact };
}

/**
 * Enable Banking (api.enablebanking.com) behind the service's provider interface. The consent is
 * an AIS authorization (POST /auth, the user authorizes at the bank, POST /sessions with the
 * returned code); the session id becomes the consent's external id at the callback. Payments are
 * authorized by the user at the bank, one by one: `initiatePayment` answers the bank's URL, the
 * user comes back to the payment callback, and `paymentStatus` tells where the payment stands
 * (docs/remittance/open-banking.md).
 */
export function createEnableBankingProvider(
  settings: EnableBankingSettings & { consentDays: number },
  fetchImpl: typeof fetch = fetch,
) {
  const api = createEnableBankingClient(settings, fetchImpl);
  /** Accounts and bank of a session just authorized: listAccounts right after the callback reads them here. */
  const justAuthorized = new Map<string, { accounts: AccountResource[]; bankName: string; at: number }>();
  /** GET /aspsps per country, kept BANK_LIST_MS (one request in flight per country). */
  const bankLists = new Map<string, { banks: Promise<ProviderBank[]>; at: number }>();

  function bankOf(chosen: BankRef | undefined, what: string): BankRef {
    const bank = chosen ?? settings.aspsp;
    if (!bank) throw new EnableBankingError('refused', `no bank named for the ${what}`, 0, 'WRONG_ASPSP_PROVIDED');
    return { name: bank.name, country: bank.country };
  }

  async function balanceOf(uid: string) {
    const res = await api.request<{ balances?: BalanceResource[] }>(
      'GET',
      `accounts/${encodeURIComponent(uid)}/balances`,
    );
    return pickBalance(res.balances ?? []);
  }

  async function sessionAccounts(sessionId: string): Promise<{ accounts: AccountResource[]; bankName: string }> {
    const fresh = justAuthorized.get(sessionId);
    if (fresh) {
      justAuthorized.delete(sessionId);
      if (Date.now() - fresh.at < CACHE_MS) return fresh;
    }
    const session = await api.request<{ status?: string; accounts?: string[]; aspsp?: { name: string } }>(
      'GET',
      `sessions/${encodeURIComponent(sessionId)}`,
    );
    if (session.status && session.status !== 'AUTHORIZED')
      throw new EnableBankingError('consent_invalid', `the bank session is ${session.status}`, 200, null);
    const accounts: AccountResource[] = [];
    for (const uid of session.accounts ?? []) {
      const details = await api.request<AccountResource>('GET', `accounts/${encodeURIComponent(uid)}/details`);
      accounts.push({ ...details, uid });
    }
    return { accounts, bankName: session.aspsp?.name ?? settings.aspsp?.name ?? 'Bank' };
  }

  const provider = {
    name: 'enablebanking',
    defaultBank: settings.aspsp,

    /**
     * GET /aspsps for personal accounts with account information in the country: the banks a
     * consent can start at. A failed read is not kept (the next request asks again).
     */
    async listBanks(country: string): Promise<ProviderBank[]> {
      const key = country.toUpperCase();
      const kept = bankLists.get(key);
      if (kept && Date.now() - kept.at < BANK_LIST_MS) return kept.banks;
      const query = new URLSearchParams({ country: key, psu_type: 'personal', service: 'AIS' });
      const banks = api.request<{ aspsps?: AspspData[] }>('GET', `aspsps?${query}`).then((res) =>
        (res.aspsps ?? [])
          .filter((a) => a.name && a.country === key && (a.psu_types ?? ['personal']).includes('personal'))
          .map((a) => ({
            name: a.name,
            country: a.country,
            logo: a.logo ?? null,
            bic: a.bic ?? null,
            beta: a.beta === true,
          }))
          .sort((x, y) => x.name.localeCompare(y.name, 'nb')),
      );
      bankLists.set(key, { banks, at: Date.now() });
      banks.catch(() => bankLists.delete(key));
      return banks;
    },

    async createConsent({ customerRef, redirectUri, state, bank }) {
      const validUntil = new Date(Date.now() + settings.consentDays * 86_400_000);
      const res = await api.request<{ url: string; authorization_id: string }>('POST', 'auth', {
        access: { valid_until: validUntil.toISOString(), balances: true },
        aspsp: bankOf(bank, 'consent'),
        state,
        redirect_url: redirectUri,
        psu_type: 'personal',
        // An anonymised id of our user: the API stores only its hash (matches sessions of one user).
        psu_id: customerRef,
      });
      if (!res.url || !res.authorization_id)
        throw new EnableBankingError('unavailable', 'the bank aggregator gave no authorization URL', 200, null);
      return { externalConsentId: res.authorization_id, redirectUrl: res.url };
    },

    async completeConsent(_authorizationId, params) {
      if (params.error || !params.code) return false;
      const session = await api.request<SessionAnswer>('POST', 'sessions', { code: params.code });
      // Entries nobody read (a PISP-only consent) do not pile up.
      for (const [id, entry] of justAuthorized) if (Date.now() - entry.at >= CACHE_MS) justAuthorized.delete(id);
      justAuthorized.set(session.session_id, {
        accounts: session.accounts ?? [],
        bankName: session.aspsp?.name ?? settings.aspsp?.name ?? 'Bank',
        at: Date.now(),
      });
      const validUntil = session.access?.valid_until ? new Date(session.access.valid_until) : null;
      return Number.isNaN(validUntil?.getTime() ?? Number.NaN)
        ? { externalConsentId: session.session_id }
        : { externalConsentId: session.session_id, validUntil: validUntil! };
    },

    async listAccounts(sessionId): Promise<ProviderAccount[]> {
      const { accounts, bankName } = await sessionAccounts(sessionId);
      const out: ProviderAccount[] = [];
      // Accounts without a uid cannot be read (blocked or closed at the bank): not linked.
      for (const a of accounts.filter((x) => x.uid)) {
        const balance = await balanceOf(a.uid!);
        out.push({
          externalId: a.uid!,
          bankName,
          name: a.details || a.product || a.name || 'Account',
          accountNumber: accountNumber(a),
          currency: a.currency ?? balance.currency,
          balance: balance.amount,
          isChecking: a.cash_account_type === 'CACC',
        });
      }
      // The checking (current) account first, as the sandbox does: it becomes the primary one.
      return out.sort((x, y) => Number(y.isChecking) - Number(x.isChecking));
    },

    async readBalance(_sessionId, accountUid) {
      return balanceOf(accountUid);
    },

    /**
     * POST /payments: the payment with our end-to-end id (`payment_id.end_to_end_id` and
     * `instruction_id`) and the bank's authorization redirect; the user approves it at `url`.
     */
    async initiatePayment(
      _sessionId: string,
      order: PaymentOrder,
      redirect: PaymentRedirect & { paymentType?: string },
    ): Promise<InitiatedPayment> {
      const res = await api.request<{ payment_id: string; status?: string; url?: string }>('POST', 'payments', {
        payment_type: redirect.paymentType ?? 'DOMESTIC',
        payment_request: {
          credit_transfer_transaction: [
            {
              beneficiary: {
                creditor_account: creditorAccount(order.creditorAccount),
                creditor: { name: order.creditorName.slice(0, 70) },
              },
              instructed_amount: { amount: new Decimal(order.amount).toFixed(2), currency: order.currency },
              reference_number: order.reference.slice(0, 35),
              payment_id: {
                end_to_end_id: order.endToEndId.slice(0, 35),
                instruction_id: order.endToEndId.slice(0, 35),
              },
            },
          ],
        },
        aspsp: bankOf(order.bank, 'payment'),
        state: redirect.state,
        redirect_url: redirect.redirectUri,
        psu_type: 'personal',
      });
      if (!res.payment_id || !res.url)
        throw new EnableBankingError('unavailable', 'the bank aggregator gave no payment authorization URL', 200, null);
      const bankStatus = res.status ?? 'RCVD';
      return {
        paymentId: res.payment_id,
        status: mapPaymentStatus(bankStatus),
        bankStatus,
        reason: null,
        authorizationUrl: res.url,
      };
    },

    async paymentStatus(paymentId): Promise<PaymentState> {
      const res = await api.request<{ status?: string; status_reason_information?: StatusReason }>(
        'GET',
        `payments/${encodeURIComponent(paymentId)}`,
      );
      const bankStatus = res.status ?? 'RCVD';
      return {
        status: mapPaymentStatus(bankStatus),
        bankStatus,
        reason: reasonText(res.status_reason_information, bankStatus),
      };
    },

    async revokeConsent(sessionId) {
      await api.request('DELETE', `sessions/${encodeURIComponent(sessionId)}`);
    },
  } satisfies OpenBankingProvider & Record<string, unknown>;
  return provider;
}

export type EnableBankingProvider = ReturnType<typeof createEnableBankingProvider>;

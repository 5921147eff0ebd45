import { randomBytes } from 'node:crypto';
import { D, type Dec } from '@app/shared/money';
import { newId } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { AppError, badRequest, notFound, unauthorized, validationError } from '../../errors.js';
import { remittanceEta } from '../../lib/corridors.js';
import { checkAmount, toNumber } from '../../lib/validation.js';
import { isLiveSession, type SessionProof } from '../auth/sessions.repository.js';
import { texts } from '../notifications/notification-texts.js';
import { insertNotification } from '../notifications/notifications.repository.js';
import {
  type InitiatedPayment,
  type OpenBankingProvider,
  type PaymentState,
  ProviderError,
} from '../open-banking/providers/provider.js';
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
  type StoredResponse,
  storeIdempotentResponse,
} from './idempotency.js';
import type { NewTransaction, PaymentRow, StoredOrder } from './payments.repository.js';
import * as repo from './payments.repository.js';

export const REMITTANCE_FEE_RATE = '0.005';
export const QR_FEE_RATE = '0.01';
export const REMITTANCE_BOUNDS = { min: '100', max: '50000' } as const;
export const QR_BOUNDS = { min: '1', max: '100000' } as const;

const noBankAccount = (message = 'Link a bank account first (open banking consent)') =>
  new AppError('no_bank_account', message);
const insufficientBalance = () =>
  new AppError('insufficient_balance', 'The bank account balance does not cover the amount and the fee');
const money = (v: Dec) => v.toDecimalPlaces(2, D.ROUND_HALF_UP);
const nokOnly = (currency: string | undefined) => {
  if (currency !== undefined && currency !== 'NOK') {
    throw validationError('Unsupported currency', [{ field: 'currency', message: 'payments are sent in NOK' }]);
  }
};

export interface RemittanceInput {
  recipientId: string;
  amount: number;
  currency?: string;
  bankAccountId?: string;
}

export interface QrInput {
  merchantId: string;
  amount: number;
}

export interface DisclosureInput {
  type: 'remittance' | 'qr_payment';
  amount: number;
  currency?: string;
  recipientId?: string;
}

/** The paying account must exist and its consent must allow payment initiation now. */
function usableAccount<
  T extends {
    account_id: string | null;
    consent_status: string | null;
    consent_scope: string | null;
    consent_expires_at: Date | string | null;
    external_consent_id: string | null;
    consent_reauthorization?: boolean | null;
  },
>(row: T, now: Date) {
  if (!row.account_id) return null;
  if (row.consent_reauthorization)
    throw noBankAccount('The bank no longer accepts the open banking consent; renew it (re-authorize at the bank)');
  if (row.consent_status !== 'active' || !row.consent_scope?.includes('PISP') || !row.external_consent_id) {
    throw noBankAccount("The bank account's consent does not allow payments; renew the open banking consent");
  }
  if (row.consent_expires_at && new Date(row.consent_expires_at) <= now)
    throw noBankAccount('The open banking consent has expired; renew it');
  return row as T & { account_id: string; external_consent_id: string };
}

/** "Ola Nordmann" -> "Ola N." (how a merchant sees its customers). */
export function shortName(first: string, last: string): string {
  const initial = last.trim().charAt(0);
  return initial ? `${first.trim()} ${initial}.` : first.trim();
}

/**
 * What the payment functions need (issue 30: plain functions taking their deps, accounting's form).
 * Payments run in the payer's UserScope up to the intent; the bank is then called outside any
 * transaction, and its answer is recorded on the system connection (the login role, which
 * row-level security does not restrict), as the callback and the jobs, which have no user, do too.
 */
export interface PaymentDeps {
  system: Kysely<DB>;
  provider: OpenBankingProvider;
  /** Told a user's balances moved, after the commit (the kept GET /auth/me profile is dropped). */
  balancesMoved: (userId: string) => void;
  /** Where the bank sends the user back after authorizing a payment (GET /api/payments/callback). */
  callbackUrl: string;
  timing: PaymentTiming;
  /**
   * The bank refused a payment because the consent is no longer valid there: the consent is marked
   * for re-authorization and the user notified (open-banking.service consentRefusedByBank).
   */
  consentRefused?: (userId: string, externalConsentId: string) => Promise<unknown>;
}

export interface PaymentTiming {
  /** How long one provider call is leased: nobody else calls for this intent before it runs out. */
  leaseMs: number;
  /** How often a payment waiting at the bank (authorization or settlement) is asked for its status. */
  pollMs: number;
  /** How long a payment may wait for the user's authorization at the bank before it fails. */
  authorizationTtlMs: number;
  /** Attempts at creating the payment at the bank (the first included) before it fails. */
  maxAttempts: number;
}

export const DEFAULT_TIMING: PaymentTiming = {
  leaseMs: 60_000,
  pollMs: 5_000,
  authorizationTtlMs: 30 * 60_000,
  maxAttempts: 8,
};

/** The payment's answer: what the route sends with 201 (and the Idempotency-Key replays). */
type Answer = StoredResponse;

/** Fee and rate disclosure before paying (not wrapped in data). */
export async function disclosure(user: UserScope, input: DisclosureInput) {
  nokOnly(input.currency);
  if (!Number.isFinite(input.amount) || input.amount <= 0)
    throw validationError('Invalid amount', [{ field: 'amount', message: 'must be a positive number' }]);
  const amount = new D(String(input.amount));
  if (input.type === 'qr_payment') {
    const fee = money(amount.times(QR_FEE_RATE));
    return {
      amount: toNumber(amount),
      fee: toNumber(fee),
      feePercentage: 1,
      exchangeRate: 1,
      receiveAmount: toNumber(amount),
      receiveCurrency: 'NOK',
      estimatedDelivery: 'Instant',
      totalCost: toNumber(money(amount).plus(fee)),
    };
  }
  const recipientId = input.recipientId;
  // R2: a missing field is 400 bad_request, a conditionally required one too (issue 25 item 3).
  if (!recipientId)
    throw badRequest('recipientId is required for a remittance', [
      { field: 'recipientId', message: 'is required when type is remittance' },
    ]);
  const ctx = await user.run((db) => repo.remitContext(db, user.userId, recipientId, null));
  if (!ctx?.recipient_id || !ctx.recipient_country || !ctx.recipient_currency) throw notFound('Recipient not found');
  if (!ctx.rate)
    throw validationError('Unsupported corridor', [
      { field: 'recipientId', message: `no rate for ${ctx.recipient_currency}` },
    ]);
  const fee = money(amount.times(REMITTANCE_FEE_RATE));
  return {
    amount: toNumber(amount),
    fee: toNumber(fee),
    feePercentage: 0.5,
    exchangeRate: Number(ctx.rate),
    receiveAmount: toNumber(money(amount.times(ctx.rate))),
    receiveCurrency: ctx.recipient_currency,
    estimatedDelivery: remittanceEta(ctx.recipient_country),
    totalCost: toNumber(money(amount).plus(fee)),
  };
}

/**
 * What the request that committed an intent calls the bank with: the order, end-to-end id and
 * callback state it has just stored (so it does not read them back; recovery reads them).
 */
export interface IntentCall {
  order: StoredOrder;
  endToEndId: string;
  callbackState: string;
}

/** The intent step's result: a stored answer to replay, or the payment to drive (and how to answer it). */
type IntentResult = { replay: StoredResponse } | { transactionId: string; call: IntentCall };

/**
 * A remittance (spec steps, R9; issue 30). The intent, in one transaction: the Idempotency-Key
 * taken first (with a SessionProof, the session checked before it can replay anything), the
 * checks (one precompiled look-up), and one statement with the conditional debit, the
 * 'initiating' transaction and its initiation (COMMIT in the same round trip). Then the bank is
 * called outside any transaction, and its answer recorded (driveIntent). Any refusal before the
 * intent rolls all of it back.
 */
export async function remit(
  deps: PaymentDeps,
  user: UserScope,
  input: RemittanceInput,
  idempotencyKey: string | null,
  proof: SessionProof | null = null,
  surface: 'web' | 'api' = 'web',
): Promise<Answer> {
  const intent = await remittanceIntent(deps, user, input, idempotencyKey, proof, surface);
  return finishRequest(deps, user, idempotencyKey, intent);
}

/**
 * The intent of a remittance, committed (exported for the crash tests: a process that dies right
 * after it leaves exactly this behind).
 */
export async function remittanceIntent(
  deps: PaymentDeps,
  user: UserScope,
  input: RemittanceInput,
  idempotencyKey: string | null,
  proof: SessionProof | null = null,
  surface: 'web' | 'api' = 'web',
): Promise<IntentResult> {
  const userId = user.userId;
  nokOnly(input.currency);
  const amount = checkAmount('amount', input.amount, REMITTANCE_BOUNDS.min, REMITTANCE_BOUNDS.max);
  const fee = money(amount.times(REMITTANCE_FEE_RATE));
  const total = amount.plus(fee);
  const hash = idempotencyKey ? requestHash('remittance', input) : '';

  return user.transaction(async (trx, end) => {
    if (idempotencyKey) {
      if (proof && !(await isLiveSession(trx, userId, proof))) throw unauthorized('Session revoked or expired');
      const first = await claimIdempotencyKey(trx, userId, idempotencyKey, hash, new Date());
      if (first) return { replay: first };
    }
    const ctx = await repo.remitContext(
      trx,
      userId,
      input.recipientId,
      input.bankAccountId ?? null,
      idempotencyKey ? null : proof,
    );
    if (!ctx?.session_live) throw unauthorized('Session revoked or expired');
    if (!ctx.recipient_id || !ctx.recipient_name || !ctx.recipient_country || !ctx.recipient_currency) {
      throw notFound('Recipient not found');
    }
    if (!ctx.recipient_account) throw notFound('Recipient not found');
    if (ctx.kyc_status !== 'approved')
      throw new AppError('kyc_required', 'Identity verification (KYC) is required before sending money');
    const account = usableAccount(ctx, new Date());
    if (!account) {
      if (input.bankAccountId) throw notFound('Bank account not found');
      throw noBankAccount();
    }
    if (!ctx.rate)
      throw validationError('Unsupported corridor', [
        { field: 'recipientId', message: `no rate for ${ctx.recipient_currency}` },
      ]);
    // The cached balance answers before anything is written; the conditional debit decides.
    if (new D(account.balance!).lt(total)) throw insufficientBalance();
    const id = newId('tx_rem', 8);
    const eta = remittanceEta(ctx.recipient_country);
    const record: NewTransaction = {
      id,
      type: 'remittance',
      bankAccountId: account.account_id,
      recipientId: ctx.recipient_id,
      merchantId: null,
      recipientName: ctx.recipient_name,
      recipientCountry: ctx.recipient_country,
      fromAccount: account.bank_name!,
      sendAmount: amount.toFixed(2),
      receiveAmount: money(amount.times(ctx.rate)).toFixed(2),
      receiveCurrency: ctx.recipient_currency,
      exchangeRate: ctx.rate,
      fee: fee.toFixed(2),
      total: total.toFixed(2),
      eta,
    };
    const order = orderOf(account, record, ctx.recipient_account, ctx.recipient_name);
    const intent = intentOf(deps, id, order, idempotencyKey, surface);
    const write = () => repo.recordIntent(trx, userId, record, intent);
    // Without a key the intent's statement carries the COMMIT; with one, a refused debit must roll
    // the key back too (a retry after topping up is a new payment).
    const createdAt = idempotencyKey ? await write() : await end.commitWith(write);
    if (!createdAt) throw insufficientBalance();
    return { transactionId: id, call: callOf(intent) };
  });
}

/** A QR payment to a merchant (R9, R12): completed when the bank accepts it; the payer pays the 1 % fee. */
export async function payQr(
  deps: PaymentDeps,
  user: UserScope,
  input: QrInput,
  idempotencyKey: string | null,
  surface: 'web' | 'api' = 'web',
): Promise<Answer> {
  const intent = await qrIntent(deps, user, input, idempotencyKey, surface);
  return finishRequest(deps, user, idempotencyKey, intent);
}

export async function qrIntent(
  deps: PaymentDeps,
  user: UserScope,
  input: QrInput,
  idempotencyKey: string | null,
  surface: 'web' | 'api' = 'web',
): Promise<IntentResult> {
  const userId = user.userId;
  const amount = checkAmount('amount', input.amount, QR_BOUNDS.min, QR_BOUNDS.max);
  const ctx = await user.run((db) => repo.loadQrContext(db, userId, input.merchantId));
  if (!ctx) throw notFound('User not found');
  if (!ctx.merchant_id || !ctx.merchant_user_id || !ctx.business_name || !ctx.merchant_account)
    throw notFound('Merchant not found');
  if (ctx.merchant_user_id === userId) {
    throw validationError('You cannot pay your own merchant', [
      { field: 'merchantId', message: 'is your own merchant' },
    ]);
  }
  const account = usableAccount(ctx, new Date());
  if (!account) throw noBankAccount();
  const fee = money(amount.times(QR_FEE_RATE));
  const total = amount.plus(fee);
  if (new D(account.balance!).lt(total)) throw insufficientBalance();
  const id = newId('tx_qr', 8);
  const record: NewTransaction = {
    id,
    type: 'qr_payment',
    bankAccountId: account.account_id,
    recipientId: null,
    merchantId: ctx.merchant_id,
    recipientName: ctx.business_name,
    recipientCountry: 'NO',
    fromAccount: account.bank_name!,
    sendAmount: amount.toFixed(2),
    receiveAmount: amount.toFixed(2),
    receiveCurrency: 'NOK',
    exchangeRate: '1',
    fee: fee.toFixed(2),
    total: total.toFixed(2),
    eta: null,
  };
  const order = orderOf(account, record, ctx.merchant_account, ctx.business_name);
  const hash = requestHash('qr_payment', input);
  return user.transaction(async (trx, end) => {
    if (idempotencyKey) {
      const first = await claimIdempotencyKey(trx, userId, idempotencyKey, hash, new Date());
      if (first) return { replay: first };
    }
    const intent = intentOf(deps, id, order, idempotencyKey, surface);
    const write = () => repo.recordIntent(trx, userId, record, intent);
    // Without a key the intent's statement carries the COMMIT; with one, a refused debit must roll
    // the key back too (a retry after topping up is a new payment).
    const createdAt = idempotencyKey ? await write() : await end.commitWith(write);
    if (!createdAt) throw insufficientBalance();
    return { transactionId: id, call: callOf(intent) };
  });
}

function orderOf(
  account: {
    external_consent_id: string;
    external_account_id: string | null;
    aspsp_name: string | null;
    aspsp_country: string | null;
  },
  record: NewTransaction,
  creditorAccount: string,
  creditorName: string,
): StoredOrder {
  return {
    externalConsentId: account.external_consent_id,
    externalAccountId: account.external_account_id!,
    amount: record.total,
    currency: 'NOK',
    creditorAccount,
    creditorName,
    reference: record.id,
    // The payment goes to the bank the account was linked at.
    ...(account.aspsp_name && account.aspsp_country
      ? { bank: { name: account.aspsp_name, country: account.aspsp_country } }
      : {}),
  };
}

function intentOf(
  deps: PaymentDeps,
  transactionId: string,
  order: StoredOrder,
  idempotencyKey: string | null,
  surface: 'web' | 'api',
): repo.NewIntent {
  return {
    provider: deps.provider.name,
    // ISO 20022 allows 35 characters: "e2e" and 32 hex digits, unique per payment.
    endToEndId: `e2e${randomBytes(16).toString('hex')}`,
    order: { ...order, reference: transactionId },
    idempotencyKey,
    surface,
    callbackState: randomBytes(24).toString('base64url'),
    leaseUntil: new Date(Date.now() + deps.timing.leaseMs),
  };
}

const callOf = (intent: repo.NewIntent): IntentCall => ({
  order: intent.order,
  endToEndId: intent.endToEndId,
  callbackState: intent.callbackState,
});

/** The bank's authorization page, while the payment waits for the user there. */
function authorizationOf(row: PaymentRow): { authorizationUrl?: string } {
  return row.status === 'initiating' && row.authorization_url ? { authorizationUrl: row.authorization_url } : {};
}

/**
 * After the intent: the bank called (unless this is a replay), the answer built from where the
 * payment now stands. The answer is kept under the Idempotency-Key once it is worth replaying
 * (the bank answered); a refusal releases the key, so a retry is a new payment.
 */
async function finishRequest(
  deps: PaymentDeps,
  user: UserScope,
  idempotencyKey: string | null,
  intent: IntentResult,
): Promise<Answer> {
  if ('replay' in intent) {
    if (intent.replay.body !== null) return intent.replay;
    // The key's first request has recorded its intent but not answered yet (it is calling the bank,
    // or it died doing so): wait for its answer, or take the call over once its lease ran out.
    return answerInFlight(deps, user, idempotencyKey!);
  }
  const recorded = await driveIntent(deps, intent.transactionId, { leased: true, call: intent.call });
  return answerFor(deps, user, idempotencyKey, intent.transactionId, recorded);
}

/** `recorded`: the payment as driveIntent left it, when it knows (no read then). */
async function answerFor(
  deps: PaymentDeps,
  user: UserScope,
  idempotencyKey: string | null,
  transactionId: string,
  recorded?: PaymentRow,
): Promise<Answer> {
  const row = recorded ?? (await repo.loadPayment(deps.system, transactionId))!;
  deps.balancesMoved(user.userId);
  if (row.status === 'failed') {
    if (idempotencyKey) await releaseIdempotencyKey(deps.system, user.userId, idempotencyKey);
    throw refusalOf(row);
  }
  const answer = { statusCode: 201, body: { data: viewOf(row) } };
  // Not yet answered by the bank (the call failed or timed out): not kept, so the same key asks again.
  const answered = row.status !== 'initiating' || row.external_payment_id !== null;
  if (idempotencyKey && answered) await storeIdempotentResponse(deps.system, user.userId, idempotencyKey, answer);
  return answer;
}

/** The HTTP refusal of a payment the bank refused at once (it is recorded as failed, with the reason). */
function refusalOf(row: PaymentRow): AppError {
  const reason = row.failure_reason ?? '';
  if (reason.startsWith('insufficient_funds')) return insufficientBalance();
  if (reason.startsWith('consent_invalid'))
    return noBankAccount('The bank refused the consent; renew the open banking consent');
  return new AppError('bank_unavailable', `The bank did not accept the payment: ${reason}`.slice(0, 300));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answerInFlight(deps: PaymentDeps, user: UserScope, key: string): Promise<Answer> {
  const transactionId = await repo.paymentOfKey(deps.system, user.userId, key);
  if (!transactionId) throw new AppError('bank_unavailable', 'The payment is being created; try again shortly');
  const deadline = Date.now() + deps.timing.leaseMs + 1000;
  for (;;) {
    const stored = await deps.system
      .selectFrom('idempotency_keys')
      .select(['status_code', 'response'])
      .where('user_id', '=', user.userId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (stored?.response) return { statusCode: stored.status_code ?? 201, body: stored.response };
    const row = (await repo.loadPayment(deps.system, transactionId))!;
    const leaseOver = !row.lease_until || row.lease_until.getTime() <= Date.now();
    // The first request's call is over without an answer: answer where it stands (the key keeps no
    // answer, so asking again later calls the bank again).
    const noAnswer = row.bank_status === repo.NO_ANSWER;
    if (
      row.status !== 'initiating' ||
      row.external_payment_id !== null ||
      leaseOver ||
      noAnswer ||
      Date.now() > deadline
    ) {
      if (leaseOver) await driveIntent(deps, transactionId, { leased: false });
      return answerFor(deps, user, key, transactionId);
    }
    await sleep(50);
  }
}

/** The payment as the route answers it (RemittanceResponse or QrPaymentResponse), from its row. */
function viewOf(row: PaymentRow): Record<string, unknown> {
  const common = {
    id: row.id,
    type: row.type,
    status: row.status,
    fee: toNumber(row.fee),
    fromAccount: row.from_account,
    createdAt: row.created_at.toISOString(),
    ...authorizationOf(row),
  };
  if (row.type === 'qr_payment')
    return {
      ...common,
      amount: toNumber(row.send_amount),
      currency: 'NOK',
      feePercent: 1,
      merchantName: row.recipient_name,
      merchantId: row.merchant_id,
    };
  return {
    ...common,
    sendAmount: toNumber(row.send_amount),
    sendCurrency: row.send_currency,
    receiveAmount: toNumber(row.receive_amount),
    receiveCurrency: row.receive_currency,
    exchangeRate: Number(row.exchange_rate),
    feePercent: 0.5,
    total: toNumber(row.total),
    recipientName: row.recipient_name,
    recipientCountry: row.recipient_country,
    eta: row.eta,
  };
}

/**
 * Calls the bank for an intent (outside any transaction) and records the answer. `leased`: the
 * caller holds the call's lease (the request that just committed the intent, or the recovery job
 * that claimed it); otherwise it is taken first, and nothing is done when someone else holds it.
 * `call`: the order as the request that committed the intent stored it (that request holds the
 * lease it took at commit, so the intent is still uncalled); without it the intent is read.
 * Returns the payment as recorded when the answer settled where it stands in one statement (a
 * remittance the bank accepted, moved to processing), else undefined.
 */
export async function driveIntent(
  deps: PaymentDeps,
  transactionId: string,
  opts: { leased: boolean; call?: IntentCall },
): Promise<PaymentRow | undefined> {
  const now = new Date();
  if (!opts.leased) {
    const taken = await repo.leaseIntent(
      deps.system,
      transactionId,
      now,
      new Date(now.getTime() + deps.timing.leaseMs),
    );
    if (!taken) return;
  }
  let row: PaymentRow | undefined;
  let call = opts.leased ? opts.call : undefined;
  if (!call) {
    row = await repo.loadPayment(deps.system, transactionId);
    if (row?.status !== 'initiating' || row.external_payment_id !== null) return;
    call = {
      order: row.payment_order as unknown as StoredOrder,
      endToEndId: row.end_to_end_id,
      callbackState: row.callback_state!,
    };
  }
  const { order } = call;
  let created: InitiatedPayment;
  try {
    created = await deps.provider.initiatePayment(
      order.externalConsentId,
      {
        externalAccountId: order.externalAccountId,
        amount: order.amount,
        currency: order.currency,
        creditorAccount: order.creditorAccount,
        creditorName: order.creditorName,
        reference: order.reference,
        endToEndId: call.endToEndId,
        bank: order.bank,
      },
      { redirectUri: deps.callbackUrl, state: call.callbackState },
    );
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    // A refusal or no answer (rare): the payment read now, to record it.
    row ??= await repo.loadPayment(deps.system, transactionId);
    if (!row) return;
    if (err.reason === 'unavailable') {
      // No answer, a timeout, 5xx or a rate limit: the outcome is unknown. The intent stays; the
      // recovery job asks again with the same end-to-end id when the lease runs out, until the
      // attempts are spent.
      if (row.attempts >= deps.timing.maxAttempts) {
        await fail(deps, row, `unavailable: the bank could not be reached (${err.message})`.slice(0, 300));
        return;
      }
      // Backing off: 2, 4, 8 ... seconds (at most 5 minutes) before the next attempt.
      const now = new Date();
      const backoffMs = Math.min(2 ** row.attempts * 1000, 300_000);
      await repo.recordNoAnswer(deps.system, transactionId, now, new Date(now.getTime() + backoffMs));
      return;
    }
    await fail(deps, row, `${err.reason}: ${err.message}`.slice(0, 300));
    // The bank no longer accepts the consent: marked for re-authorization, the user told once.
    if (err.reason === 'consent_invalid') await deps.consentRefused?.(row.user_id, order.externalConsentId);
    return;
  }
  // The answer recorded in one statement; a remittance the bank accepted (not waiting for the
  // user, not final) moves to processing in it too. Anything else goes through applyState.
  const recorded = await repo.recordAnswer(
    deps.system,
    transactionId,
    created,
    new Date(),
    created.status === 'pending',
  );
  if (recorded?.status === 'processing' && recorded.type === 'remittance' && created.status === 'pending')
    return recorded;
  await applyState(deps, transactionId, created, recorded);
}

/**
 * Records where the bank says a payment stands: accepted (remittance: processing; QR payment:
 * completed), completed, or rejected (failed with the bank's reason, the reservation restored).
 * Every move is conditional on the state it leaves, so a callback and a job racing move it once.
 * `known`: the payment as just recorded (driveIntent), instead of reading it.
 */
export async function applyState(
  deps: PaymentDeps,
  transactionId: string,
  state: PaymentState,
  known?: PaymentRow,
): Promise<string> {
  const row = known ?? (await repo.loadPayment(deps.system, transactionId));
  if (!row) return 'unknown';
  const now = new Date();
  if (state.bankStatus && state.bankStatus !== row.bank_status)
    await repo.recordBankStatus(deps.system, transactionId, state.bankStatus, now);
  if (state.status === 'received') {
    if (row.status === 'initiating' && now.getTime() - row.created_at.getTime() > deps.timing.authorizationTtlMs)
      await fail(deps, row, `not_authorized: the payment was not authorized at the bank in time (${state.bankStatus})`);
    return row.status;
  }
  if (state.status === 'rejected') {
    await fail(
      deps,
      row,
      `rejected: ${state.reason ?? `the bank rejected the payment (${state.bankStatus})`}`.slice(0, 300),
    );
    return 'failed';
  }
  const final = state.status === 'completed' || row.type === 'qr_payment';
  if (!final) {
    await repo.moveTransaction(deps.system, transactionId, ['initiating'], 'processing', now);
    return 'processing';
  }
  await complete(deps, row, now);
  return 'completed';
}

async function complete(deps: PaymentDeps, row: PaymentRow, now: Date): Promise<void> {
  await deps.system.transaction().execute(async (trx) => {
    if (!(await repo.moveTransaction(trx, row.id, ['initiating', 'processing'], 'completed', now))) return;
    if (row.type === 'qr_payment') {
      await insertNotification(trx, { userId: row.user_id, ...texts.qrPaid(row.send_amount, row.recipient_name) });
      const payee = row.merchant_id ? await repo.merchantUser(trx, row.merchant_id) : undefined;
      const payer = await repo.payerName(trx, row.user_id);
      if (payee && payer)
        await insertNotification(trx, {
          userId: payee,
          ...texts.qrReceived(row.send_amount, shortName(payer.first_name, payer.last_name)),
        });
    } else {
      await insertNotification(trx, {
        userId: row.user_id,
        ...texts.remittanceCompleted(row.send_amount, row.send_currency, row.recipient_name),
      });
    }
  });
}

/** initiating or processing -> failed, once: the reservation restored, the user told. */
async function fail(deps: PaymentDeps, row: PaymentRow, reason: string): Promise<void> {
  const moved = await deps.system.transaction().execute(async (trx) => {
    if (!(await repo.moveTransaction(trx, row.id, ['initiating', 'processing'], 'failed', new Date(), reason)))
      return false;
    await repo.creditAccount(trx, row.user_id, row.bank_account_id, row.total);
    await insertNotification(trx, {
      userId: row.user_id,
      ...(row.type === 'qr_payment'
        ? texts.qrFailed(row.send_amount, row.recipient_name, row.total)
        : texts.remittanceFailed(row.send_amount, row.send_currency, row.recipient_name, row.total)),
    });
    return true;
  });
  if (moved) deps.balancesMoved(row.user_id);
}

/**
 * The bank's redirect after the user authorized (or declined) a payment: the payment named by
 * its one-time state is asked for at the bank and moved on. Where the browser goes next: the
 * web app's transaction page, or the mobile app (payments created on /v1).
 */
export async function completeAuthorization(
  deps: PaymentDeps,
  params: { state?: string; error?: string },
): Promise<string> {
  const transactionId = params.state ? await repo.paymentOfState(deps.system, params.state) : undefined;
  if (!transactionId) return '/transactions?error=payment_unknown';
  let row = (await repo.loadPayment(deps.system, transactionId))!;
  if (row.status === 'initiating' && row.external_payment_id) {
    try {
      await applyState(deps, transactionId, await deps.provider.paymentStatus(row.external_payment_id));
    } catch (err) {
      // The bank did not answer: the payment stays where it is; the recovery job asks again.
      if (!(err instanceof ProviderError)) throw err;
    }
    row = (await repo.loadPayment(deps.system, transactionId))!;
  }
  const error = row.status === 'failed' ? 'payment_failed' : null;
  if (row.surface === 'api') {
    const back = new URL('app://payments/callback');
    back.searchParams.set('transactionId', row.id);
    back.searchParams.set('status', row.status);
    if (error) back.searchParams.set('error', error);
    return back.toString();
  }
  const q = new URLSearchParams({ status: row.status });
  if (error) q.set('error', error);
  return `/transactions/${encodeURIComponent(row.id)}?${q}`;
}

/**
 * The recovery job (G12, issue 30): resumes intents whose call was never made or whose answer was
 * lost (a crash, a timeout), with the same end-to-end id, and asks the bank about payments
 * waiting for the user's authorization. Each claimed with a lease in one statement, so two
 * workers never call for one payment at once. Returns how many it looked at.
 */
export async function resumePayments(deps: PaymentDeps, batchSize = 50): Promise<{ resumed: number; polled: number }> {
  const due = await repo.claimDue(deps.system, new Date(), batchSize, deps.timing.leaseMs, deps.timing.pollMs);
  const out = { resumed: 0, polled: 0 };
  for (const d of due) {
    if (d.external_payment_id === null) {
      await driveIntent(deps, d.transaction_id, { leased: true });
      out.resumed++;
      continue;
    }
    out.polled++;
    try {
      await applyState(deps, d.transaction_id, await deps.provider.paymentStatus(d.external_payment_id));
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
    }
  }
  return out;
}

/**
 * The settlement job (R9, G12): processing payments whose check is due, claimed with a lease in
 * one statement (SKIP LOCKED), the bank asked outside any transaction, and each answer recorded
 * once: completed (completedAt, transaction_complete notification) or failed (reservation
 * restored, system notification). Returns how many moved.
 */
export async function settle(deps: PaymentDeps, batchSize = 100): Promise<{ completed: number; failed: number }> {
  const out = { completed: 0, failed: 0 };
  const claimed = await repo.claimProcessing(deps.system, new Date(), batchSize, deps.timing.pollMs);
  for (const id of claimed) {
    const row = await repo.loadPayment(deps.system, id);
    if (!row?.external_payment_id || row.status !== 'processing') continue;
    let state: PaymentState;
    try {
      state = await deps.provider.paymentStatus(row.external_payment_id);
    } catch (err) {
      if (err instanceof ProviderError) continue;
      throw err;
    }
    if (state.status !== 'completed' && state.status !== 'rejected') continue;
    const before = row.status;
    await applyState(deps, id, state);
    const after = (await repo.loadPayment(deps.system, id))!.status;
    if (after !== before) out[after === 'completed' ? 'completed' : 'failed']++;
  }
  return out;
}

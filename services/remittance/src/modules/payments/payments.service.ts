import { D, type Dec } from '@app/shared/money';
import { newId } from '@app/shared/secrets';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { AppError, badRequest, notFound, unauthorized, validationError } from '../../errors.js';
import { remittanceEta } from '../../lib/corridors.js';
import { checkAmount, toNumber } from '../../lib/validation.js';
import { isLiveSession, type SessionProof } from '../auth/sessions.repository.js';
import { type NotificationText, texts } from '../notifications/notification-texts.js';
import { insertNotification, newNotificationId } from '../notifications/notifications.repository.js';
import { type OpenBankingProvider, ProviderError } from '../open-banking/providers/provider.js';
import { claimIdempotencyKey, requestHash, type StoredResponse, storeIdempotentResponse } from './idempotency.js';
import type { NewTransaction } from './payments.repository.js';
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
  },
>(row: T, now: Date) {
  if (!row.account_id) return null;
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
 * Payments run in the payer's UserScope. The settlement job works across users as the login role
 * (`system`), which row-level security does not restrict.
 */
/** What a payment's body gets from the transaction around it (PaymentsService.inPaymentTransaction). */
interface PaymentStep {
  /** Runs the payment's final statement; it ends the transaction when no response is stored after it. */
  final<T>(last: () => Promise<T>): Promise<T>;
  /** The session was checked with the Idempotency-Key: the payment's own statements need not. */
  sessionChecked: boolean;
}

export class PaymentsService {
  constructor(
    private readonly system: Kysely<DB>,
    private readonly provider: OpenBankingProvider,
    /** Told a user's balances moved, after the commit (the kept GET /auth/me profile is dropped). */
    private readonly balancesMoved: (userId: string) => void = () => {},
  ) {}

  /** Fee and rate disclosure before paying (not wrapped in data). */
  async disclosure(user: UserScope, input: DisclosureInput) {
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
   * A remittance (spec steps, R9): recipient ownership, KYC, paying account, rate, fee, balance.
   * One transaction: the idempotency key (when given) is taken first, then the checks (one
   * precompiled look-up, riding with BEGIN), the payment order at the bank, and one statement
   * with the conditional debit, the transaction row and its payment initiation (COMMIT in the
   * same round trip). The balance row is locked only by that last statement and its commit.
   * Any refusal rolls all of it back.
   */
  /**
   * With a SessionProof (the route's hook checked the token only), the session row is checked in
   * this transaction: by the look-up's own statement, or, with an Idempotency-Key, before the key
   * can replay a stored response. A dead session answers 401 and leaves nothing behind.
   */
  async remit(
    user: UserScope,
    input: RemittanceInput,
    idempotencyKey: string | null,
    proof: SessionProof | null = null,
  ): Promise<StoredResponse> {
    const userId = user.userId;
    nokOnly(input.currency);
    const amount = checkAmount('amount', input.amount, REMITTANCE_BOUNDS.min, REMITTANCE_BOUNDS.max);
    const fee = money(amount.times(REMITTANCE_FEE_RATE));
    const total = amount.plus(fee);
    const totalText = total.toFixed(2);
    const hash = idempotencyKey ? requestHash('remittance', input) : '';

    return this.inPaymentTransaction(user, idempotencyKey, hash, proof, async (trx, step) => {
      const ctx = await repo.remitContext(
        trx,
        userId,
        input.recipientId,
        input.bankAccountId ?? null,
        step.sessionChecked ? null : proof,
      );
      if (!ctx?.session_live) throw unauthorized('Session revoked or expired');
      if (
        !ctx.recipient_id ||
        !ctx.recipient_name ||
        !ctx.recipient_country ||
        !ctx.recipient_currency ||
        !ctx.recipient_account
      ) {
        throw notFound('Recipient not found');
      }
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
      // The cached balance answers before the bank is asked; the conditional debit decides.
      if (new D(account.balance!).lt(total)) throw insufficientBalance();
      const id = newId('tx_rem', 8);
      const eta = remittanceEta(ctx.recipient_country);
      const paymentId = await this.orderPayment(trx, id, account, totalText, {
        creditorAccount: ctx.recipient_account,
        creditorName: ctx.recipient_name,
      });
      const record: NewTransaction = {
        id,
        type: 'remittance',
        status: 'processing',
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
        total: totalText,
        eta,
        completedAt: null,
      };
      const tx = await step.final(() =>
        repo.debitAndRecord(trx, userId, record, { provider: this.provider.name, externalPaymentId: paymentId }),
      );
      if (!tx) throw insufficientBalance();
      return {
        statusCode: 201,
        body: {
          data: {
            id: tx.id,
            type: 'remittance',
            status: tx.status,
            sendAmount: toNumber(amount),
            sendCurrency: 'NOK',
            receiveAmount: toNumber(tx.receive_amount),
            receiveCurrency: tx.receive_currency,
            exchangeRate: Number(tx.exchange_rate),
            fee: toNumber(fee),
            feePercent: 0.5,
            total: toNumber(total),
            recipientName: tx.recipient_name,
            recipientCountry: tx.recipient_country,
            fromAccount: tx.from_account,
            eta,
            createdAt: tx.created_at,
          },
        },
      };
    });
  }

  /** A QR payment to a merchant (R9, R12): completed at once; the payer pays the 1 % fee. */
  async payQr(user: UserScope, input: QrInput, idempotencyKey: string | null): Promise<StoredResponse> {
    const userId = user.userId;
    const amount = checkAmount('amount', input.amount, QR_BOUNDS.min, QR_BOUNDS.max);
    const now = new Date();
    const ctx = await user.run((db) => repo.loadQrContext(db, userId, input.merchantId));
    if (!ctx) throw notFound('User not found');
    if (!ctx.merchant_id || !ctx.merchant_user_id || !ctx.business_name || !ctx.merchant_account)
      throw notFound('Merchant not found');
    if (ctx.merchant_user_id === userId) {
      throw validationError('You cannot pay your own merchant', [
        { field: 'merchantId', message: 'is your own merchant' },
      ]);
    }
    const account = usableAccount(ctx, now);
    if (!account) throw noBankAccount();
    const fee = money(amount.times(QR_FEE_RATE));
    const total = amount.plus(fee);
    if (new D(account.balance!).lt(total)) throw insufficientBalance();
    const id = newId('tx_qr', 8);

    return this.inPaymentTransaction(user, idempotencyKey, requestHash('qr_payment', input), null, async (trx) => {
      const tx = await repo.debitAndInsertTransaction(trx, userId, {
        id,
        type: 'qr_payment',
        status: 'completed',
        bankAccountId: account.account_id,
        recipientId: null,
        merchantId: ctx.merchant_id!,
        recipientName: ctx.business_name!,
        recipientCountry: 'NO',
        fromAccount: account.bank_name!,
        sendAmount: amount.toFixed(2),
        receiveAmount: amount.toFixed(2),
        receiveCurrency: 'NOK',
        exchangeRate: '1',
        fee: fee.toFixed(2),
        total: total.toFixed(2),
        eta: null,
        completedAt: now,
      });
      if (!tx) throw insufficientBalance();
      await this.initiate(trx, userId, id, account, total.toFixed(2), {
        creditorAccount: ctx.merchant_account!,
        creditorName: ctx.business_name!,
      });
      await this.notify(trx, userId, texts.qrPaid(amount.toFixed(2), ctx.business_name!));
      await repo.notifyQrPayee(
        trx,
        id,
        newNotificationId(),
        texts.qrReceived(amount.toFixed(2), shortName(ctx.first_name, ctx.last_name)),
      );
      return {
        statusCode: 201,
        body: {
          data: {
            id: tx.id,
            type: 'qr_payment',
            status: tx.status,
            amount: toNumber(amount),
            currency: 'NOK',
            fee: toNumber(fee),
            feePercent: 1,
            merchantName: ctx.business_name!,
            merchantId: ctx.merchant_id!,
            fromAccount: tx.from_account,
            createdAt: tx.created_at.toISOString(),
          },
        },
      };
    });
  }

  /**
   * One transaction around the payment, with the Idempotency-Key taken (or replayed) first.
   * The transaction's last statement carries its COMMIT (end.commitWith): without a key, the
   * payment's final statement (`step.final`); with one, storing the response. With a key and a
   * SessionProof, the session is checked before the key (a replay answers nothing to a dead
   * session), and `step.sessionChecked` is true.
   */
  private async inPaymentTransaction(
    user: UserScope,
    key: string | null,
    hash: string,
    proof: SessionProof | null,
    pay: (trx: Kysely<DB>, step: PaymentStep) => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    const response = await user.transaction(async (trx, end) => {
      if (key) {
        if (proof && !(await isLiveSession(trx, user.userId, proof))) throw unauthorized('Session revoked or expired');
        const first = await claimIdempotencyKey(trx, user.userId, key, hash, new Date());
        if (first) return first;
      }
      const response = await pay(trx, {
        final: key ? (last) => last() : end.commitWith,
        sessionChecked: key !== null,
      });
      if (key) await end.commitWith(() => storeIdempotentResponse(trx, user.userId, key, response));
      return response;
    });
    this.balancesMoved(user.userId);
    return response;
  }

  /**
   * The payment order at the bank, inside the caller's transaction (a refusal rolls everything
   * back); the provider's payment id.
   */
  private async orderPayment(
    trx: Kysely<DB>,
    transactionId: string,
    account: { external_consent_id: string; external_account_id: string | null },
    total: string,
    creditor: { creditorAccount: string; creditorName: string },
  ): Promise<string> {
    try {
      const payment = await this.provider.initiatePayment(
        account.external_consent_id,
        {
          externalAccountId: account.external_account_id!,
          amount: total,
          currency: 'NOK',
          reference: transactionId,
          ...creditor,
        },
        { db: trx },
      );
      return payment.paymentId;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      if (err.reason === 'insufficient_funds') throw insufficientBalance();
      if (err.reason === 'consent_invalid')
        throw noBankAccount('The bank refused the consent; renew the open banking consent');
      throw new AppError('bank_unavailable', 'The bank did not accept the payment; try again later');
    }
  }

  /** The payment order at the bank and its initiation row, after the debit (QR payments). */
  private async initiate(
    trx: Kysely<DB>,
    userId: string,
    transactionId: string,
    account: { external_consent_id: string; external_account_id: string | null },
    total: string,
    creditor: { creditorAccount: string; creditorName: string },
  ): Promise<void> {
    const paymentId = await this.orderPayment(trx, transactionId, account, total, creditor);
    await repo.recordInitiation(trx, userId, {
      transactionId,
      provider: this.provider.name,
      externalPaymentId: paymentId,
      amount: total,
    });
  }

  private async notify(db: Kysely<DB>, userId: string, text: NotificationText): Promise<void> {
    await insertNotification(db, { userId, ...text });
  }

  /**
   * The settlement job (R9, G12): claims processing remittances with FOR UPDATE SKIP LOCKED, asks
   * the bank for each payment's status and moves the settled ones to completed (completedAt,
   * transaction_complete notification) or failed (debit restored, system notification), each
   * batch in one transaction. Returns how many moved.
   */
  async settle(batchSize = 100): Promise<{ completed: number; failed: number }> {
    const credited: string[] = [];
    const out = await this.system.transaction().execute(async (trx) => {
      const out = { completed: 0, failed: 0 };
      for (const t of await repo.claimProcessing(trx, batchSize)) {
        const status = await this.provider
          .paymentStatus(t.external_payment_id, { db: trx })
          .catch((err: unknown) => (err instanceof ProviderError ? ('pending' as const) : Promise.reject(err)));
        if (status === 'pending') continue;
        const now = new Date();
        if (status === 'completed') {
          if (!(await repo.finishTransaction(trx, t.user_id, t.id, 'completed', now))) continue;
          await this.notify(
            trx,
            t.user_id,
            texts.remittanceCompleted(t.send_amount, t.send_currency, t.recipient_name),
          );
          out.completed++;
        } else {
          if (!(await repo.finishTransaction(trx, t.user_id, t.id, 'failed', now))) continue;
          await repo.creditAccount(trx, t.user_id, t.bank_account_id, t.total);
          credited.push(t.user_id);
          await this.notify(
            trx,
            t.user_id,
            texts.remittanceFailed(t.send_amount, t.send_currency, t.recipient_name, t.total),
          );
          out.failed++;
        }
      }
      return out;
    });
    for (const userId of credited) this.balancesMoved(userId);
    return out;
  }
}

import { randomInt } from 'node:crypto';
import { D as Decimal } from '@app/shared/money';
import { newId } from '@app/shared/secrets';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/types.js';
import { type OpenBankingProvider, type PaymentState, ProviderError, type ProviderPaymentStatus } from './provider.js';

export const SANDBOX_BANK_NAME = 'Sandbox Bank';

/** Norwegian 11-digit account number: 4-digit bank code, 6 digits, mod-11 check digit. */
function accountNumber(): string {
  for (;;) {
    const ten = `9999${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
    const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((acc, w, i) => acc + w * Number(ten[i]), 0);
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return ten + check;
  }
}

/**
 * A payment at the sandbox bank in one precompiled statement and one round trip (the hot path of
 * every payment, run on its own: a statement is its own transaction): the payment already booked
 * under the end-to-end id, or else the consent check, the conditional debit and the payment row.
 * $1 amount, $2 consent, $3 account, $4 payment id, $5 currency, $6 creditor account, $7 creditor
 * name, $8 reference, $9 settles at, $10 end-to-end id. No row: refused (the reason is looked up
 * only then). A concurrent twin with the same end-to-end id fails on the unique index, its debit
 * rolled back with it.
 */
const BOOK_PAYMENT_SQL = `
  WITH prior AS (
    SELECT id, status FROM sandbox_bank_payments WHERE end_to_end_id = $10
  ), debit AS (
    UPDATE sandbox_bank_accounts a SET balance = a.balance - $1::numeric
    FROM sandbox_bank_consents c
    WHERE c.id = $2 AND c.status = 'valid' AND position('PISP' in c.scope) > 0
      AND a.id = $3 AND a.customer_ref = c.customer_ref AND a.balance >= $1::numeric
      AND NOT EXISTS (SELECT 1 FROM prior)
    RETURNING a.id
  ), booked AS (
    INSERT INTO sandbox_bank_payments (id, account_id, amount, currency, creditor_account, creditor_name, reference, status, settles_at, end_to_end_id)
    SELECT $4, debit.id, $1::numeric, $5, $6, $7, $8, 'pending', $9::timestamptz, $10
    FROM debit
    RETURNING id, status
  )
  SELECT id, status FROM booked UNION ALL SELECT id, status FROM prior`;

/** The sandbox bank's payment status as ISO 20022 names it. */
const BANK_STATUS: Record<ProviderPaymentStatus, string> = {
  received: 'RCVD',
  pending: 'ACSP',
  completed: 'ACSC',
  rejected: 'RJCT',
};
const stateOf = (status: 'pending' | 'completed' | 'rejected'): PaymentState => ({
  status,
  bankStatus: BANK_STATUS[status],
  reason: status === 'rejected' ? 'The receiving bank rejected the payment (sandbox: account ending in 0000)' : null,
});

/**
 * The sandbox bank (R8): its books are tables of this database. Every consenting customer gets a
 * checking account (50000.00 NOK) and a savings account (1500.00 NOK); payments debit at once and
 * settle after SANDBOX_SETTLEMENT_SECONDS, except to creditor accounts ending in 0000, which the
 * bank rejects at settlement (refunding the debit).
 */
export function createSandboxProvider(
  db: Kysely<DB>,
  opts: { publicUrl: string; settlementMs: number },
): OpenBankingProvider & {
  authorize(externalConsentId: string, approve: boolean): Promise<string | null>;
} {
  async function validConsent(externalConsentId: string) {
    const consent = await db
      .selectFrom('sandbox_bank_consents')
      .selectAll()
      .where('id', '=', externalConsentId)
      .where('status', '=', 'valid')
      .executeTakeFirst();
    if (!consent) throw new ProviderError('consent_invalid', 'consent is not valid at the bank');
    return consent;
  }

  const sandboxBank = { name: SANDBOX_BANK_NAME, country: 'NO' };
  return {
    name: 'sandbox',
    defaultBank: sandboxBank,

    /** One bank, in Norway: the sandbox itself. */
    async listBanks(country: string) {
      return country.toUpperCase() === sandboxBank.country
        ? [{ ...sandboxBank, logo: null, bic: null, beta: false }]
        : [];
    },

    async createConsent({ customerRef, scope, redirectUri, state }) {
      const id = newId('sbc');
      await db
        .insertInto('sandbox_bank_consents')
        .values({ id, customer_ref: customerRef, scope, redirect_uri: redirectUri, state, status: 'received' })
        .execute();
      const url = new URL('/api/open-banking/sandbox/authorize', opts.publicUrl);
      url.searchParams.set('consent', id);
      return { externalConsentId: id, redirectUrl: url.toString() };
    },

    /** The bank's authorize page: approves (opening the two accounts once) and gives the redirect back. */
    async authorize(externalConsentId, approve) {
      const consent = await db
        .updateTable('sandbox_bank_consents')
        .set({ status: approve ? 'valid' : 'revoked' })
        .where('id', '=', externalConsentId)
        .where('status', '=', 'received')
        .returningAll()
        .executeTakeFirst();
      if (!consent) return null;
      if (approve) {
        const existing = await db
          .selectFrom('sandbox_bank_accounts')
          .select('id')
          .where('customer_ref', '=', consent.customer_ref)
          .execute();
        if (existing.length === 0) {
          await db
            .insertInto('sandbox_bank_accounts')
            .values([
              {
                id: newId('sba'),
                customer_ref: consent.customer_ref,
                name: 'Brukskonto',
                account_number: accountNumber(),
                balance: '50000.00',
                is_checking: true,
              },
              {
                id: newId('sba'),
                customer_ref: consent.customer_ref,
                name: 'Sparekonto',
                account_number: accountNumber(),
                balance: '1500.00',
                is_checking: false,
              },
            ])
            .execute();
        }
      }
      const back = new URL(consent.redirect_uri);
      back.searchParams.set('state', consent.state);
      if (!approve) back.searchParams.set('error', 'access_denied');
      return back.toString();
    },

    async completeConsent(externalConsentId, params) {
      if (params.error) return false;
      const consent = await db
        .selectFrom('sandbox_bank_consents')
        .select('status')
        .where('id', '=', externalConsentId)
        .executeTakeFirst();
      return consent?.status === 'valid';
    },

    async listAccounts(externalConsentId) {
      const consent = await validConsent(externalConsentId);
      const rows = await db
        .selectFrom('sandbox_bank_accounts')
        .selectAll()
        .where('customer_ref', '=', consent.customer_ref)
        .orderBy('is_checking', 'desc')
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        externalId: r.id,
        bankName: SANDBOX_BANK_NAME,
        name: r.name,
        accountNumber: r.account_number,
        currency: r.currency,
        balance: new Decimal(r.balance).toFixed(2),
        isChecking: r.is_checking,
      }));
    },

    async readBalance(externalConsentId, externalAccountId) {
      const consent = await validConsent(externalConsentId);
      const row = await db
        .selectFrom('sandbox_bank_accounts')
        .select(['balance', 'currency'])
        .where('id', '=', externalAccountId)
        .where('customer_ref', '=', consent.customer_ref)
        .executeTakeFirst();
      if (!row) throw new ProviderError('unknown_account', 'no such account under this consent');
      return { amount: new Decimal(row.balance).toFixed(2), currency: row.currency };
    },

    /**
     * Authorization is instant at the sandbox bank (no redirect): the payment is accepted or refused
     * at once. The same end-to-end id answers the payment already booked under it.
     */
    async initiatePayment(externalConsentId, order) {
      const existing = () =>
        db
          .selectFrom('sandbox_bank_payments')
          .select(['id', 'status'])
          .where('end_to_end_id', '=', order.endToEndId)
          .executeTakeFirst();
      const answer = (p: { id: string; status: 'pending' | 'completed' | 'rejected' }) => ({
        paymentId: p.id,
        authorizationUrl: null,
        ...stateOf(p.status),
      });
      let rows: { id: string; status: 'pending' | 'completed' | 'rejected' }[];
      try {
        ({ rows } = await db.executeQuery<{ id: string; status: 'pending' | 'completed' | 'rejected' }>(
          CompiledQuery.raw(BOOK_PAYMENT_SQL, [
            new Decimal(order.amount).toFixed(2),
            externalConsentId,
            order.externalAccountId,
            newId('sbp'),
            order.currency,
            order.creditorAccount,
            order.creditorName.slice(0, 200),
            order.reference.slice(0, 140),
            new Date(Date.now() + opts.settlementMs),
            order.endToEndId,
          ]),
        ));
      } catch (err) {
        // A twin with the same end-to-end id booked it first: its payment is this one.
        const twin = await existing();
        if (twin) return answer(twin);
        throw err;
      }
      if (rows.length > 0) return answer(rows[0]);
      // Refused: why (after the statement, which wrote nothing).
      const consent = await validConsent(externalConsentId);
      if (!consent.scope.includes('PISP'))
        throw new ProviderError('consent_invalid', 'consent does not cover payment initiation');
      throw new ProviderError('insufficient_funds', 'insufficient funds or unknown account');
    },

    async paymentStatus(paymentId) {
      const payment = await db
        .selectFrom('sandbox_bank_payments')
        .selectAll()
        .where('id', '=', paymentId)
        .executeTakeFirst();
      if (!payment) throw new ProviderError('unknown_account', 'unknown payment');
      if (payment.status !== 'pending' || payment.settles_at.getTime() > Date.now()) return stateOf(payment.status);
      const outcome: 'completed' | 'rejected' = /0000$/.test(payment.creditor_account.replace(/\s/g, ''))
        ? 'rejected'
        : 'completed';
      await db.transaction().execute(async (trx) => {
        const settled = await trx
          .updateTable('sandbox_bank_payments')
          .set({ status: outcome })
          .where('id', '=', paymentId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (outcome === 'rejected' && Number(settled.numUpdatedRows) === 1) {
          await trx
            .updateTable('sandbox_bank_accounts')
            .set({ balance: sql`balance + ${payment.amount}::numeric` })
            .where('id', '=', payment.account_id)
            .execute();
        }
      });
      const now = await db
        .selectFrom('sandbox_bank_payments')
        .select('status')
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return stateOf(now.status);
    },

    async revokeConsent(externalConsentId) {
      await db
        .updateTable('sandbox_bank_consents')
        .set({ status: 'revoked' })
        .where('id', '=', externalConsentId)
        .execute();
    },
  };
}

/**
 * The payments module's hand-written SQL: the statements tuned by hand where Kysely would cost a
 * measured share of the request or job (docs/perf/). Everything else in the module goes through
 * Kysely. test/hot-sql.test.ts runs the remittance statements on a migrated database and holds what comes back to the
 * response schema of the route that serves it.
 */
import { liveSessionCondition } from '../auth/sessions.repository.js';

/**
 * Everything a remittance (and its fee disclosure) checks, in one precompiled statement: the
 * user's KYC status, the recipient (the user's own, not deleted), the rate for its currency and
 * the paying account with its consent ($3, or the primary when null). $1 user, $2 recipient.
 * With a SessionProof ($4 token hash, $5 surface, $6 now) it also says whether the caller's
 * session is live, so the payment route needs no session round trip of its own.
 * One JSON column rather than sixteen: node-postgres's work per column of a result is a measurable
 * part of a request (see the session look-ups); numerics travel as text inside it.
 */
export const REMIT_CONTEXT_SQL = `
  SELECT json_build_object(
    'session_live', CASE WHEN $4::text IS NULL THEN true ELSE ${liveSessionCondition('u.id', '$4', '$5', '$6')} END,
    'kyc_status', u.kyc_status, 'recipient_id', r.id, 'recipient_name', r.name, 'recipient_country', r.country,
    'recipient_currency', r.currency, 'recipient_account', r.bank_account, 'rate', er.rate::text,
    'account_id', a.id, 'bank_name', a.bank_name, 'balance', a.balance::text, 'external_account_id', a.external_account_id,
    'consent_status', c.status, 'consent_scope', c.scope, 'consent_expires_at', c.expires_at, 'external_consent_id', c.external_consent_id,
    'consent_reauthorization', c.reauthorization_required_at IS NOT NULL,
    'aspsp_name', c.aspsp_name, 'aspsp_country', c.aspsp_country) AS context
  FROM users u
  LEFT JOIN recipients r ON r.user_id = u.id AND r.id = $2 AND r.deleted_at IS NULL
  LEFT JOIN exchange_rates er ON er.currency = r.currency
  LEFT JOIN bank_accounts a ON a.user_id = u.id AND (CASE WHEN $3::text IS NULL THEN a.is_primary ELSE a.id = $3::text END)
  LEFT JOIN ob_consents c ON c.id = a.consent_id
  WHERE u.id = $1 AND u.deleted_at IS NULL`;

/**
 * The payment's intent (issue 30) in one precompiled statement: the debit (R9), the transaction
 * row (status 'initiating') and its payment initiation (the end-to-end id, the order the bank will
 * get, the Idempotency-Key, the callback state and the lease of the first call). The conditional
 * update (`balance >= total`) feeds both inserts, so concurrent payments can never take the cached
 * balance below zero, and a refused debit writes nothing. The debit is the reservation: it stays
 * when the bank accepts, and is restored when the payment fails.
 * $1 user, $2 account, $3 total, $4 id (also the reference), $5 type, $6 recipient, $7 merchant,
 * $8 name, $9 country, $10 from account, $11 send amount, $12 receive amount, $13 receive currency,
 * $14 rate, $15 fee, $16 eta, $17 provider, $18 end-to-end id, $19 the order (JSON), $20 the
 * Idempotency-Key, $21 surface, $22 callback state, $23 lease until.
 */
export const DEBIT_RECORD_SQL = `
  WITH debit AS (
    UPDATE bank_accounts SET balance = balance - $3::numeric
    WHERE user_id = $1 AND id = $2 AND balance >= $3::numeric
    RETURNING id
  ), tx AS (
    INSERT INTO transactions (id, user_id, type, status, bank_account_id, recipient_id, merchant_id, recipient_name,
      recipient_country, from_account, send_amount, send_currency, receive_amount, receive_currency, exchange_rate,
      fee, total, reference, eta)
    SELECT $4, $1, $5, 'initiating', debit.id, $6, $7, $8, $9, $10, $11::numeric, 'NOK', $12::numeric, $13, $14::numeric,
      $15::numeric, $3::numeric, $4, $16
    FROM debit
    RETURNING id, created_at
  ), initiation AS (
    INSERT INTO payment_initiations (transaction_id, user_id, provider, amount, end_to_end_id, payment_order,
      idempotency_key, surface, callback_state, attempts, lease_until)
    SELECT tx.id, $1, $17, $3::numeric, $18, $19::jsonb, $20, $21, $22, 1, $23::timestamptz FROM tx
  )
  SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at FROM tx`;

/**
 * The bank's answer to a payment's creation recorded in one statement (issue 11, after issue 30),
 * once: the first recorded answer wins (`external_payment_id IS NULL`). When the bank accepted a
 * remittance without asking the user ($6: the answer is 'pending'), the same statement moves it
 * from 'initiating' to 'processing', conditional on the answer being recorded here and on the
 * state it leaves, as applyState's move is. Returns the payment as loadPayment reads it, with its
 * status after the move (no row when the answer was already recorded). Run on its own, the
 * statement is its own transaction: the bank was called before it, outside any transaction.
 * $1 transaction id, $2 the bank's payment id, $3 its status code, $4 authorization URL, $5 now,
 * $6 move to processing.
 */
export const RECORD_ANSWER_SQL = `
  WITH answer AS (
    UPDATE payment_initiations
    SET external_payment_id = $2, bank_status = $3, authorization_url = $4, lease_until = NULL, updated_at = $5
    WHERE transaction_id = $1 AND external_payment_id IS NULL
    RETURNING transaction_id, external_payment_id, end_to_end_id, payment_order, idempotency_key, surface,
      callback_state, authorization_url, bank_status, attempts, lease_until
  ), moved AS (
    UPDATE transactions t SET status = 'processing'
    FROM answer
    WHERE t.id = answer.transaction_id AND t.status = 'initiating' AND t.type = 'remittance' AND $6::boolean
    RETURNING t.id, t.status
  )
  SELECT t.id, t.user_id, t.type, COALESCE(moved.status, t.status) AS status, t.bank_account_id, t.merchant_id,
    t.send_amount, t.send_currency, t.total, t.recipient_name, t.recipient_country, t.receive_amount,
    t.receive_currency, t.exchange_rate, t.fee, t.from_account, t.eta, t.failure_reason, t.created_at,
    answer.external_payment_id, answer.end_to_end_id, answer.payment_order, answer.idempotency_key, answer.surface,
    answer.callback_state, answer.authorization_url, answer.bank_status, answer.attempts, answer.lease_until
  FROM answer
  JOIN transactions t ON t.id = answer.transaction_id
  LEFT JOIN moved ON moved.id = t.id`;

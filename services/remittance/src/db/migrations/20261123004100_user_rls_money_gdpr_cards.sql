-- Row-level security for the user-owned tables created after 20261123000100_user_rls (issues 11,
-- 13, 15): money movement, GDPR records and cards. Every one already has user_id NOT NULL
-- referencing users (card_spending_limits and payment_initiations carry it next to their parent
-- key), so each gets the `owner` policy. The login role owns the tables and stays outside RLS (no
-- FORCE): migrations and the background jobs (settlement with SKIP LOCKED, idempotency clean-up)
-- work across users as before.
SELECT enable_user_rls('recipients');
SELECT enable_user_rls('transactions');
SELECT enable_user_rls('payment_initiations');
SELECT enable_user_rls('idempotency_keys');
SELECT enable_user_rls('user_settings');
SELECT enable_user_rls('gdpr_consents');
SELECT enable_user_rls('gdpr_consent_events');
SELECT enable_user_rls('complaints');
SELECT enable_user_rls('data_access_requests');
SELECT enable_user_rls('cards');
SELECT enable_user_rls('card_spending_limits');

-- A merchant profile belongs to the user who registered it (one per user, in their data export).
-- Payers reach a merchant only through payable_merchant() below, never by reading the table.
SELECT enable_user_rls('merchants');

-- A merchant sees the QR payments made to it (dashboard, payment list): read only, the payer
-- stays the owner. Policies are permissive, so this adds to `owner` for SELECT.
CREATE POLICY payee ON transactions FOR SELECT
  USING (merchant_id IN (SELECT m.id FROM merchants m WHERE m.user_id = app_user_id()));

-- Three narrow crossings between users, as functions run by their owner (the login role, outside
-- RLS). Each checks the caller's app.user_id itself and returns or writes only what its one use
-- needs.

-- The merchant a QR code names, for a signed-in payer: what the payment needs, while the
-- merchant's owner is not erased (an erased merchant no longer receives payments).
CREATE FUNCTION payable_merchant(merchant text)
RETURNS TABLE (id text, user_id text, business_name text, bank_account text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT m.id, m.user_id, m.business_name, m.bank_account
  FROM merchants m
  JOIN users u ON u.id = m.user_id AND u.deleted_at IS NULL
  WHERE m.id = $1 AND app_user_id() IS NOT NULL
$$;

-- The payer's names of one QR payment, only for the user whose merchant received it.
CREATE FUNCTION qr_payer_name(transaction_id text)
RETURNS TABLE (first_name text, last_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT u.first_name, u.last_name
  FROM transactions t
  JOIN merchants m ON m.id = t.merchant_id
  JOIN users u ON u.id = t.user_id
  WHERE t.id = $1 AND t.type = 'qr_payment' AND m.user_id = app_user_id()
$$;

-- The merchant's "payment received" notification, written by the payer's transaction: only for
-- a QR payment of the caller, only to that payment's merchant. Returns the rows written (0 or 1).
CREATE FUNCTION notify_qr_payee(transaction_id text, notification_id text, title text, body text)
RETURNS integer
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH written AS (
    INSERT INTO notifications (id, user_id, type, title, body)
    SELECT $2, m.user_id, 'qr_payment', $3, $4
    FROM transactions t
    JOIN merchants m ON m.id = t.merchant_id
    WHERE t.id = $1 AND t.type = 'qr_payment' AND t.user_id = app_user_id()
    RETURNING 1
  )
  SELECT count(*)::integer FROM written
$$;

REVOKE EXECUTE ON FUNCTION payable_merchant(text), qr_payer_name(text), notify_qr_payee(text, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION payable_merchant(text), qr_payer_name(text), notify_qr_payee(text, text, text, text) TO remittance_app;

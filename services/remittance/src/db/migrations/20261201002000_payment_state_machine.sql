-- Issue 30: payments as a state machine, the provider called outside any database transaction.
-- A payment is first an intent (status 'initiating', the debit reserved, the order and its
-- end-to-end id recorded) committed before the bank is called; the bank's answer is recorded
-- after. A payment the bank has not yet accepted (the user authorizes it at the bank, or the call
-- timed out) stays 'initiating' until the callback or the recovery job moves it on.
ALTER TABLE transactions DROP CONSTRAINT transactions_status_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_status_check
  CHECK (status IN ('initiating', 'processing', 'completed', 'failed'));
-- The bank's reason for a failed payment (its status reason or error message), shown to the user.
ALTER TABLE transactions ADD COLUMN failure_reason text;
-- The recovery job's queue.
CREATE INDEX transactions_initiating ON transactions (created_at) WHERE status = 'initiating';

-- external_payment_id: null until the provider has answered (an intent whose call has not been
-- made, or whose answer was lost). end_to_end_id: ours, fixed at the intent and sent with every
-- attempt, so a resumed call is the same payment at the bank. payment_order: what was asked of
-- the bank (account, creditor, amount), so a resumed call sends exactly the same order.
-- lease_until: while a call is in flight (or until the next status check) nobody else calls.
ALTER TABLE payment_initiations ALTER COLUMN external_payment_id DROP NOT NULL;
ALTER TABLE payment_initiations ADD COLUMN end_to_end_id text;
ALTER TABLE payment_initiations ADD COLUMN payment_order jsonb;
ALTER TABLE payment_initiations ADD COLUMN idempotency_key text;
ALTER TABLE payment_initiations ADD COLUMN surface text NOT NULL DEFAULT 'web' CHECK (surface IN ('web', 'api'));
ALTER TABLE payment_initiations ADD COLUMN callback_state text;
ALTER TABLE payment_initiations ADD COLUMN authorization_url text;
ALTER TABLE payment_initiations ADD COLUMN bank_status text;
ALTER TABLE payment_initiations ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE payment_initiations ADD COLUMN lease_until timestamptz;
ALTER TABLE payment_initiations ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
UPDATE payment_initiations SET end_to_end_id = transaction_id, attempts = 1;
ALTER TABLE payment_initiations ALTER COLUMN end_to_end_id SET NOT NULL;
CREATE UNIQUE INDEX payment_initiations_end_to_end ON payment_initiations (end_to_end_id);
CREATE UNIQUE INDEX payment_initiations_callback_state ON payment_initiations (callback_state)
  WHERE callback_state IS NOT NULL;
CREATE INDEX payment_initiations_key ON payment_initiations (user_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;

-- The sandbox bank is idempotent on the end-to-end id, as a real bank's duplicate check is: the
-- same order sent twice is one payment.
ALTER TABLE sandbox_bank_payments ADD COLUMN end_to_end_id text;
CREATE UNIQUE INDEX sandbox_bank_payments_end_to_end ON sandbox_bank_payments (end_to_end_id)
  WHERE end_to_end_id IS NOT NULL;

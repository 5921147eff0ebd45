-- A first send is claimed before the e-mail leaves and completed after it, so no transaction (and
-- no database connection) is held while the mail server answers. A claim older than the mailer's
-- longest wait is stale and may be taken over.
ALTER TABLE invoices ADD COLUMN send_claimed_at timestamptz;

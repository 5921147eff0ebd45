-- The history page kept per instance (issue 31, transactions.sql.ts): a user's list is computed again
-- only when one of the user's transactions changed since the kept page was computed. `change_seq` is
-- the version: taken from a sequence when a row is inserted and again whenever the row changes (a
-- payment's status moves initiating -> processing -> completed or failed); the user's highest one,
-- read from the index below in one index probe, is the version of all the user's pages. Sequence
-- values are never reused, so a change always raises it. Rows are deleted only with the whole user
-- (GDPR purge): the version then falls to none, and nobody is signed in to read it.
--
-- Not a NOTIFY (migration 20261127000100: a notifying commit queues behind every other one) and no
-- per-user row bumped by each payment (a second row written and locked by every payment): an index
-- entry per insert and per status change, which status changes already write for every index (the
-- status is in two partial indexes' predicates, so they are never HOT updates).
-- Internal: never in an API answer or the export.
CREATE SEQUENCE transactions_change_seq;
ALTER TABLE transactions ADD COLUMN change_seq bigint NOT NULL DEFAULT nextval('transactions_change_seq');
ALTER SEQUENCE transactions_change_seq OWNED BY transactions.change_seq;
CREATE INDEX transactions_user_change ON transactions (user_id, change_seq);

CREATE FUNCTION transactions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := nextval('transactions_change_seq');
  RETURN NEW;
END $$;

CREATE TRIGGER transactions_changed BEFORE UPDATE ON transactions
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION transactions_changed();

GRANT USAGE, SELECT ON SEQUENCE transactions_change_seq TO remittance_app;

-- Each instance keeps the sessions it has checked (modules/auth/sessions.service.ts, a NotifiedCache
-- keyed by token): the look-up reads sessions and users, and GET /auth/me's profile reads the user's
-- bank accounts, so a committed change to any of their rows tells every instance which entries to
-- drop. The payload is a tag: `s:` and the session id, or `u:` and the user id. NOTIFY is
-- transactional (sent at commit, never for a rolled-back change, one per distinct payload per
-- transaction) and every pooled connection listens, so the instance that commits drops its entries
-- before its COMMIT returns. A new session or user changes nothing a cache holds; a new bank account
-- changes its owner's profile.
--
-- Balance changes are not notified: a NOTIFY makes its transaction take a database-wide lock at
-- commit and hold it through the commit's WAL flush, so every notifying commit waits for the one
-- before it, and a payment (which moves a balance) would queue behind every other payment (measured:
-- POST /v1/transactions/remittance fell from 48 % to 42 % of its baseline). A kept profile is served
-- for at most 5 s instead (sessions.service.ts PROFILE_MAX_AGE_MS), and the payments of this instance
-- drop their payer's profile when they commit; what shows who the user is (session, user, which
-- accounts, their names and numbers, the primary) is notified as above.
CREATE FUNCTION notify_session_cache() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_cache', TG_ARGV[0] || ':' || OLD.id);
  RETURN NULL;
END $$;

CREATE FUNCTION notify_session_cache_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('session_cache', 'u:' || OLD.user_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('session_cache', 'u:' || NEW.user_id); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER session_cache AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION notify_session_cache('s');
CREATE TRIGGER session_cache AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_session_cache('u');
CREATE TRIGGER session_cache AFTER INSERT OR DELETE ON bank_accounts FOR EACH ROW EXECUTE FUNCTION notify_session_cache_owner();
CREATE TRIGGER session_cache_update AFTER UPDATE OF id, user_id, bank_name, account_number, currency, is_primary, created_at ON bank_accounts
  FOR EACH ROW EXECUTE FUNCTION notify_session_cache_owner();

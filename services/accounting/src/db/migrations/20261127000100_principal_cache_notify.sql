-- Each instance keeps the signed-in callers it has read (plugins/auth.ts, a NotifiedCache keyed by
-- session): the principal look-up reads sessions, users and organizations, so a committed change to
-- any of their rows tells every instance which entries to drop. The payload is a tag: `s:` and the
-- session id, `u:` and the user id, `o:` and the organization id. NOTIFY is transactional (sent at
-- commit, never for a rolled-back change, one per distinct payload per transaction) and every pooled
-- connection listens, so the instance that commits drops its entries before its COMMIT returns.
-- An INSERT changes nothing a cache holds: only rows that were found are kept.
CREATE FUNCTION notify_principal_cache() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principal_cache', TG_ARGV[0] || ':' || OLD.id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER principal_cache AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION notify_principal_cache('s');
CREATE TRIGGER principal_cache AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_principal_cache('u');
CREATE TRIGGER principal_cache AFTER UPDATE OR DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION notify_principal_cache('o');

-- Lists answer newest first by created_at, and rows created in the same instant were ordered by
-- their random ids: on the embedded database now() has millisecond resolution, and since sessions
-- are kept in memory (issue 9) a client's consecutive requests can create two rows within one
-- millisecond, so "newest first" came out in random order for them (a complaints test caught it).
-- `seq` records the order rows were inserted in (an identity: a sequence, never reused) and breaks
-- those ties; the user's list indexes carry it. Internal: never in an API answer or the export.
ALTER TABLE complaints ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE notifications ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE transactions ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE recipients ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE ob_consents ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

DROP INDEX complaints_user;
CREATE INDEX complaints_user ON complaints (user_id, created_at DESC, seq DESC);
DROP INDEX notifications_user;
CREATE INDEX notifications_user ON notifications (user_id, created_at DESC, seq DESC);
DROP INDEX transactions_user;
CREATE INDEX transactions_user ON transactions (user_id, created_at DESC, seq DESC);
DROP INDEX transactions_merchant;
CREATE INDEX transactions_merchant ON transactions (merchant_id, created_at DESC, seq DESC) WHERE merchant_id IS NOT NULL;
DROP INDEX recipients_user_live;
CREATE INDEX recipients_user_live ON recipients (user_id, created_at DESC, seq DESC) WHERE deleted_at IS NULL;
DROP INDEX ob_consents_user;
CREATE INDEX ob_consents_user ON ob_consents (user_id, created_at DESC, seq DESC);

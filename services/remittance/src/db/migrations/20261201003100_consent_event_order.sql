-- Issue 29: the consent history is now listed newest first (GET /consents/history). Two actions
-- within one millisecond (the embedded database's now() resolution) had the same created_at; `seq`
-- records the order they were made in, as in 20261127000200_creation_order.sql. Internal: never in an
-- API answer or the export.
ALTER TABLE gdpr_consent_events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX gdpr_consent_events_user;
CREATE INDEX gdpr_consent_events_user ON gdpr_consent_events (user_id, created_at DESC, seq DESC);

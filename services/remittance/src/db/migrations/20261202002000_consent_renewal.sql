-- Issue 30, consents for real: renewal before expiry and re-authorization after the bank revoked a
-- consent. A renewal is a new consent (pending until the bank's callback) that names the one it
-- replaces; at the callback it takes over that consent's bank accounts (matched by account number),
-- and the old one is closed. `reauthorization_required_at`: the bank answered that the consent is no
-- longer valid (expired or revoked at the bank) while ours still said active; set once, which is
-- also when the user is notified. `renewal_notified_for`: the expiry the renewal notification was
-- sent for (once per consent and expiry).
ALTER TABLE ob_consents ADD COLUMN renews_consent_id text REFERENCES ob_consents (id);
ALTER TABLE ob_consents ADD COLUMN reauthorization_required_at timestamptz;
ALTER TABLE ob_consents ADD COLUMN renewal_notified_for timestamptz;

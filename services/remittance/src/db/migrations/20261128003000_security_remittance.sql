-- Issue 33 (remittance): mobile PKCE held by the app, refresh limits and reuse detection, the
-- national id as an HMAC, and anonymisation at erasure with a purge when the retention ends.

-- Item 1 (RFC 8252): a mobile sign-in keeps only the app's code_challenge; the app alone holds
-- the verifier and sends it with the callback. A web sign-in keeps its own verifier (the state
-- cookie binds it to the browser). started_origin: where the sign-in began, so a callback whose
-- state cookie did not come back can say why (issue 25 item 5).
ALTER TABLE eid_auth_requests ALTER COLUMN code_verifier DROP NOT NULL;
ALTER TABLE eid_auth_requests ADD COLUMN code_challenge text;
ALTER TABLE eid_auth_requests ADD COLUMN started_origin text;
-- Mobile sign-ins in flight carry no app challenge: they are dropped (the app starts again).
DELETE FROM eid_auth_requests WHERE platform = 'mobile';
ALTER TABLE eid_auth_requests ADD CONSTRAINT eid_auth_requests_pkce
  CHECK ((platform = 'web' AND code_verifier IS NOT NULL) OR (platform = 'mobile' AND code_challenge IS NOT NULL));

-- Item 11: a login is the chain of sessions one eID sign-in starts and each refresh continues.
-- login_id names the chain, authenticated_at is the sign-in (absolute lifetime, step-up);
-- revoked_reason 'rotated' marks a session replaced by a refresh, so presenting its token again
-- is recognised as reuse and ends the whole chain.
ALTER TABLE sessions ADD COLUMN login_id text;
ALTER TABLE sessions ADD COLUMN authenticated_at timestamptz;
ALTER TABLE sessions ADD COLUMN revoked_reason text
  CHECK (revoked_reason IN ('logout', 'rotated', 'reuse', 'erasure'));
UPDATE sessions SET login_id = id, authenticated_at = created_at;
ALTER TABLE sessions ALTER COLUMN login_id SET NOT NULL;
ALTER TABLE sessions ALTER COLUMN login_id SET DEFAULT gen_random_uuid()::text;
ALTER TABLE sessions ALTER COLUMN authenticated_at SET NOT NULL;
ALTER TABLE sessions ALTER COLUMN authenticated_at SET DEFAULT now();
CREATE INDEX sessions_login_live ON sessions (login_id) WHERE revoked = 0;

-- Item 6: national_id_hash becomes HMAC-SHA256(NATIONAL_ID_PEPPER, SHA-256 hex of the number)
-- (version 2). Existing values are SHA-256 hex (version 1): the application rewraps them at start
-- (HMAC of the stored hash, no national id needed), under the retention job's advisory lock.
ALTER TABLE users ADD COLUMN national_id_hash_version smallint CHECK (national_id_hash_version IN (1, 2));
UPDATE users SET national_id_hash_version = 1 WHERE national_id_hash IS NOT NULL;

-- Item 6: an erased account is anonymised at once; what anti-money-laundering law needs is kept
-- until retain_until, then the purge job deletes it (docs/data-retention.md).
ALTER TABLE users ADD COLUMN retain_until timestamptz;
CREATE INDEX users_retain_until ON users (retain_until) WHERE retain_until IS NOT NULL;

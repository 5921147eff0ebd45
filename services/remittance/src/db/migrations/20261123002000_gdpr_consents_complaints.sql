-- GDPR: consent records, their history, complaints and data access requests (spec Consent,
-- Complaint, Data access request; issue 13). Every row belongs to one user (user_id NOT NULL).

-- One record per user and consent type; POST /consents updates it (a grant and a withdrawal can
-- alternate). ip_address is the client IP of the latest action.
CREATE TABLE gdpr_consents (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  consent_type text NOT NULL CHECK (consent_type IN ('terms', 'privacy', 'marketing', 'cookies_analytics', 'cookies_marketing')),
  granted smallint NOT NULL CHECK (granted IN (0, 1)),
  granted_at timestamptz,
  withdrawn_at timestamptz,
  ip_address text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX gdpr_consents_user_type ON gdpr_consents (user_id, consent_type);

-- Every grant and withdrawal with its IP, append-only: proof of consent (GDPR Art. 7(1)) even
-- after the record above has been changed again.
CREATE TABLE gdpr_consent_events (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  consent_id text NOT NULL REFERENCES gdpr_consents (id),
  consent_type text NOT NULL,
  granted smallint NOT NULL CHECK (granted IN (0, 1)),
  ip_address text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gdpr_consent_events_user ON gdpr_consent_events (user_id, created_at);

CREATE TABLE complaints (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  category text NOT NULL CHECK (category IN ('transaction', 'service', 'fees', 'privacy', 'technical', 'other')),
  subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 200),
  description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 2000),
  status text NOT NULL DEFAULT 'received',
  resolution text,
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE INDEX complaints_user ON complaints (user_id, created_at DESC, id DESC);

-- Written by every data export and erasure (spec Data access request).
CREATE TABLE data_access_requests (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('export', 'erasure')),
  status text NOT NULL DEFAULT 'completed' CHECK (status IN ('completed')),
  ip_address text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX data_access_requests_user ON data_access_requests (user_id, created_at);

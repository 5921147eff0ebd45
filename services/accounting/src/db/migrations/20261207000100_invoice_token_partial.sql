-- Issue 31: the public view link's token (A10) is set when an invoice is sent; a draft has none. The
-- UNIQUE constraint's index held an entry for every draft's NULL all the same: one more index insertion
-- (and 64 bytes of WAL) for every invoice created, read by nothing (the link looks a token up by value,
-- never by NULL). Kept unique, now only over the tokens there are.
ALTER TABLE invoices DROP CONSTRAINT invoices_token_hash_key;
CREATE UNIQUE INDEX invoices_token_hash ON invoices (token_hash) WHERE token_hash IS NOT NULL;

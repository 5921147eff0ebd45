-- Issue 30 follow-up, a bank chooser: the bank (ASPSP) a consent was given at, as the provider's
-- bank list names it (Enable Banking: name and country of GET /aspsps). A payment from one of the
-- consent's accounts and a renewal of the consent go to the same bank. Null on consents given before
-- the chooser: the provider's default bank (ENABLE_BANKING_ASPSP) serves them.
ALTER TABLE ob_consents ADD COLUMN aspsp_name text;
ALTER TABLE ob_consents ADD COLUMN aspsp_country text;
ALTER TABLE ob_consents ADD CONSTRAINT ob_consents_aspsp_whole
  CHECK ((aspsp_name IS NULL) = (aspsp_country IS NULL) AND (aspsp_country IS NULL OR aspsp_country ~ '^[A-Z]{2}$'));

-- Issue 29: a recipient can be edited (PATCH /recipients/:id). A transaction already copied the
-- recipient's name and country and its own amounts and currencies when it was made; the account the
-- money went to was read from the recipient row, so an edited IBAN would have rewritten the receipt of
-- every earlier payment. The account is now copied too, by the database, when the transaction is
-- inserted (whatever code inserts it), and the rows made before this migration get it from their
-- recipient (not yet editable when they were made, so still the account they were paid to).
ALTER TABLE transactions ADD COLUMN recipient_account text;

UPDATE transactions t
   SET recipient_account = r.bank_account
  FROM recipients r
 WHERE r.id = t.recipient_id;

-- Runs as the inserting role (remittance_app with app.user_id set): row-level security lets it
-- read only that user's recipient, which is the one a remittance may name.
CREATE FUNCTION copy_recipient_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.recipient_id IS NOT NULL AND NEW.recipient_account IS NULL THEN
    SELECT bank_account INTO NEW.recipient_account FROM recipients WHERE id = NEW.recipient_id;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER recipient_account BEFORE INSERT ON transactions
  FOR EACH ROW EXECUTE FUNCTION copy_recipient_account();

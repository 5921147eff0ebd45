-- Statement imports (A14) write up to about 80,000 bank lines of one bank account in one transaction.
-- Measured on the bench data (80,000 lines into an account that holds 80,000; CPU time of the
-- database backend for the 16 batches, repeated and interleaved on a busy machine): 2.4-2.6 s as
-- it was; 0.30 s of that was the foreign key to bank_accounts, checked row by row (one SPI look-up
-- and key-share lock of the same bank account per line).
--
-- The foreign key (organization_id, bank_account_id) -> bank_accounts becomes a statement-level
-- check over the inserted rows: each distinct pair is looked up (and key-share locked, as the
-- foreign key does) once per statement instead of once per row. Same guarantees as the foreign
-- key: a line's bank account exists and belongs to the line's organization, checked on insert
-- and on a change of either column, whatever the caller's row-level security (SECURITY
-- DEFINER, like the foreign key's own check); a bank account that has lines cannot be deleted or
-- have its id or organization changed (the foreign key's NO ACTION). The error is the foreign
-- key's SQLSTATE 23503. Unlike the foreign key, the delete-side check reads with the deleting
-- statement's snapshot, so a REPEATABLE READ transaction could delete a bank account whose first
-- lines were committed after its snapshot; the application never deletes a bank account.
ALTER TABLE bank_transactions DROP CONSTRAINT bank_transactions_organization_id_bank_account_id_fkey;

CREATE FUNCTION bank_transactions_check_account() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  missing record;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM 1 FROM bank_accounts b WHERE b.organization_id = NEW.organization_id AND b.id = NEW.bank_account_id FOR KEY SHARE;
    IF NOT FOUND THEN
      RAISE foreign_key_violation USING MESSAGE = format('bank account %s of organization %s does not exist', NEW.bank_account_id, NEW.organization_id),
        TABLE = 'bank_transactions', CONSTRAINT = 'bank_transactions_bank_account';
    END IF;
    RETURN NULL;
  END IF;
  FOR missing IN
    SELECT n.organization_id, n.bank_account_id
    FROM (SELECT DISTINCT organization_id, bank_account_id FROM new_rows) n
    WHERE NOT EXISTS (
      SELECT 1 FROM bank_accounts b WHERE b.organization_id = n.organization_id AND b.id = n.bank_account_id FOR KEY SHARE OF b)
    LIMIT 1
  LOOP
    RAISE foreign_key_violation USING MESSAGE = format('bank account %s of organization %s does not exist', missing.bank_account_id, missing.organization_id),
      TABLE = 'bank_transactions', CONSTRAINT = 'bank_transactions_bank_account';
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER bank_account_insert AFTER INSERT ON bank_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bank_transactions_check_account();
CREATE TRIGGER bank_account_update AFTER UPDATE OF organization_id, bank_account_id ON bank_transactions
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.bank_account_id IS DISTINCT FROM NEW.bank_account_id)
  EXECUTE FUNCTION bank_transactions_check_account();

CREATE FUNCTION bank_accounts_keep_lines() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM bank_transactions t WHERE t.organization_id = OLD.organization_id AND t.bank_account_id = OLD.id) THEN
    RAISE foreign_key_violation USING MESSAGE = format('bank account %s still has bank transactions', OLD.id),
      TABLE = 'bank_accounts', CONSTRAINT = 'bank_transactions_bank_account';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER keep_lines_delete AFTER DELETE ON bank_accounts FOR EACH ROW EXECUTE FUNCTION bank_accounts_keep_lines();
CREATE TRIGGER keep_lines_update AFTER UPDATE OF id, organization_id ON bank_accounts
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION bank_accounts_keep_lines();

"""The ledger's invariants, enforced by PostgreSQL (DESIGN.md, "Money and the ledger").

Plain SQL triggers with no switch a session could flip to skip them: only the owner
of the tables can drop or disable them, and the application's role need not be it.
"""

from django.db import migrations

POSTING_FLAG = "cardroom.ledger_posting"

FORWARD = f"""
-- Entries: currency of the account, and the account's balance moved in the same
-- statement, so the account row's CHECK refuses overdrawing at once.
CREATE FUNCTION ledger_entry_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    acct_currency char(3);
    acct_type varchar(16);
BEGIN
    SELECT currency, type INTO acct_currency, acct_type
      FROM accounting_account WHERE id = NEW.account_id;
    IF acct_currency IS DISTINCT FROM NEW.currency THEN
        RAISE EXCEPTION 'ledger: entry currency % differs from account currency %',
            NEW.currency, acct_currency USING ERRCODE = 'check_violation';
    END IF;
    PERFORM set_config('{POSTING_FLAG}', 'on', true);
    UPDATE accounting_account
       SET balance_cents = balance_cents + CASE
               WHEN acct_type IN ('asset', 'expense') THEN NEW.amount_cents
               ELSE -NEW.amount_cents END
     WHERE id = NEW.account_id;
    PERFORM set_config('{POSTING_FLAG}', 'off', true);
    RETURN NEW;
END $$;

CREATE TRIGGER ledger_entry_apply BEFORE INSERT ON accounting_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_apply();

-- Every transaction balances per currency, with at least two entries, at commit.
CREATE FUNCTION ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    txn_id bigint;
    n integer;
    unbalanced text;
BEGIN
    IF TG_TABLE_NAME = 'accounting_entry' THEN
        txn_id := NEW.transaction_id;
    ELSE
        txn_id := NEW.id;
    END IF;
    SELECT count(*) INTO n FROM accounting_entry WHERE transaction_id = txn_id;
    IF n < 2 THEN
        RAISE EXCEPTION 'ledger: transaction % has % entries; at least two needed',
            txn_id, n USING ERRCODE = 'check_violation';
    END IF;
    SELECT string_agg(currency || ' ' || s, ', ') INTO unbalanced FROM (
        SELECT currency, sum(amount_cents) AS s FROM accounting_entry
         WHERE transaction_id = txn_id GROUP BY currency
        HAVING sum(amount_cents) <> 0) AS t;
    IF unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'ledger: transaction % does not balance: %',
            txn_id, unbalanced USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_transaction_balanced
    AFTER INSERT ON accounting_transaction DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();
CREATE CONSTRAINT TRIGGER ledger_entry_balanced
    AFTER INSERT ON accounting_entry DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();

-- Append-only: posted transactions and entries are never changed or removed (DC2).
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger: % is append-only; post a reversing transaction (DC2)',
        TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER ledger_transaction_append_only BEFORE UPDATE OR DELETE
    ON accounting_transaction FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE
    ON accounting_entry FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Accounts: opened empty, never deleted, identity fixed, balance moved by entries only.
CREATE FUNCTION ledger_account_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'ledger: accounts are never deleted'
            USING ERRCODE = 'restrict_violation';
    ELSIF TG_OP = 'INSERT' THEN
        IF NEW.balance_cents <> 0 THEN
            RAISE EXCEPTION 'ledger: an account is opened with a zero balance'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END IF;
    IF (NEW.code, NEW.type, NEW.currency, NEW.non_negative)
       IS DISTINCT FROM (OLD.code, OLD.type, OLD.currency, OLD.non_negative) THEN
        RAISE EXCEPTION 'ledger: an account''s code, type, currency and flag are fixed'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.balance_cents IS DISTINCT FROM OLD.balance_cents
       AND coalesce(current_setting('{POSTING_FLAG}', true), '') <> 'on' THEN
        RAISE EXCEPTION 'ledger: balances move only by entries'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER ledger_account_guard BEFORE INSERT OR UPDATE OR DELETE
    ON accounting_account FOR EACH ROW EXECUTE FUNCTION ledger_account_guard();
"""

BACKWARD = """
DROP TRIGGER ledger_account_guard ON accounting_account;
DROP TRIGGER ledger_entry_append_only ON accounting_entry;
DROP TRIGGER ledger_transaction_append_only ON accounting_transaction;
DROP TRIGGER ledger_entry_balanced ON accounting_entry;
DROP TRIGGER ledger_transaction_balanced ON accounting_transaction;
DROP TRIGGER ledger_entry_apply ON accounting_entry;
DROP FUNCTION ledger_account_guard();
DROP FUNCTION ledger_append_only();
DROP FUNCTION ledger_transaction_balanced();
DROP FUNCTION ledger_entry_apply();
"""


class Migration(migrations.Migration):
    dependencies = [("accounting", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]

"""The ledger's triggers with nothing a session can switch off (DESIGN.md, "Money
and the ledger").

- No session setting unlocks a cached balance: ``ledger_account_guard`` lets a
  balance move only inside a trigger (``pg_trigger_depth() > 1``), i.e. under
  ``ledger_entry_apply``; the app's role can create neither triggers nor temporary
  tables, so it has no other trigger to run one in.
- A transaction's entries come from the database transaction that wrote it: the row
  is stamped with ``pg_current_xact_id()`` (whatever the client sent) and each entry
  is checked against it. Balanced legs appended later are refused.
- TRUNCATE of accounts, transactions or entries is refused.
- Every trigger of the ledger and of the cage's receipt counter is ``ENABLE
  ALWAYS``: ``session_replication_role = replica`` skips none of them.
"""

from django.db import migrations, models

LEDGER_TRIGGERS = {
    "accounting_transaction": [
        "ledger_transaction_balanced",
        "ledger_transaction_append_only",
        "ledger_transaction_stamp",
        "ledger_transaction_no_truncate",
    ],
    "accounting_entry": [
        "ledger_entry_apply",
        "ledger_entry_balanced",
        "ledger_entry_append_only",
        "ledger_entry_no_truncate",
    ],
    "accounting_account": ["ledger_account_guard", "ledger_account_no_truncate"],
    "accounting_cage": ["cage_receipt_counter_guard", "cage_receipt_number_used"],
    "accounting_receipt": ["cage_receipt_number_taken"],
}


def _enable(mode: str) -> str:
    return "\n".join(
        f"ALTER TABLE {table} "
        + ", ".join(f"{mode} TRIGGER {name}" for name in names)
        + ";"
        for table, names in LEDGER_TRIGGERS.items()
    )


# The two functions, as 0007 writes them and as 0002 wrote them (backward).
ENTRY_APPLY = """
CREATE OR REPLACE FUNCTION ledger_entry_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    acct_currency char(3);
    acct_type varchar(16);
    txn_xact bigint;
BEGIN
    {posted_check}
    SELECT currency, type INTO acct_currency, acct_type
      FROM accounting_account WHERE id = NEW.account_id;
    IF acct_currency IS DISTINCT FROM NEW.currency THEN
        RAISE EXCEPTION 'ledger: entry currency % differs from account currency %',
            NEW.currency, acct_currency USING ERRCODE = 'check_violation';
    END IF;
    {flag_on}
    UPDATE accounting_account
       SET balance_cents = balance_cents + CASE
               WHEN acct_type IN ('asset', 'expense') THEN NEW.amount_cents
               ELSE -NEW.amount_cents END
     WHERE id = NEW.account_id;
    {flag_off}
    RETURN NEW;
END $$;
"""
POSTED_CHECK = """
    SELECT xact_id INTO txn_xact FROM accounting_transaction
     WHERE id = NEW.transaction_id;
    -- A missing transaction is the foreign key's to refuse.
    IF FOUND AND txn_xact <> pg_current_xact_id()::text::bigint THEN
        RAISE EXCEPTION
            'ledger: transaction % is posted; its entries are final (DC2)',
            NEW.transaction_id USING ERRCODE = 'restrict_violation';
    END IF;
"""
FLAG = "cardroom.ledger_posting"

ACCOUNT_GUARD = """
CREATE OR REPLACE FUNCTION ledger_account_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
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
    IF NEW.balance_cents IS DISTINCT FROM OLD.balance_cents AND {outside_entry} THEN
        RAISE EXCEPTION 'ledger: balances move only by entries'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;
"""
# Depth 1 is a statement of the client's; ledger_entry_apply's UPDATE runs at 2.
BY_DEPTH = "pg_trigger_depth() < 2"
BY_FLAG = f"coalesce(current_setting('{FLAG}', true), '') <> 'on'"

FORWARD = (
    """
CREATE FUNCTION ledger_transaction_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.xact_id := pg_current_xact_id()::text::bigint;
    RETURN NEW;
END $$;

CREATE TRIGGER ledger_transaction_stamp BEFORE INSERT ON accounting_transaction
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_stamp();

CREATE FUNCTION ledger_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger: % is never emptied; post a reversing transaction (DC2)',
        TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER ledger_transaction_no_truncate BEFORE TRUNCATE
    ON accounting_transaction FOR EACH STATEMENT
    EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER ledger_entry_no_truncate BEFORE TRUNCATE
    ON accounting_entry FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
CREATE TRIGGER ledger_account_no_truncate BEFORE TRUNCATE
    ON accounting_account FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_truncate();
"""
    + ENTRY_APPLY.format(posted_check=POSTED_CHECK, flag_on="", flag_off="")
    + ACCOUNT_GUARD.format(outside_entry=BY_DEPTH)
    + _enable("ENABLE ALWAYS")
)

BACKWARD = (
    _enable("ENABLE")
    + """
DROP TRIGGER ledger_account_no_truncate ON accounting_account;
DROP TRIGGER ledger_entry_no_truncate ON accounting_entry;
DROP TRIGGER ledger_transaction_no_truncate ON accounting_transaction;
DROP FUNCTION ledger_refuse_truncate();
DROP TRIGGER ledger_transaction_stamp ON accounting_transaction;
DROP FUNCTION ledger_transaction_stamp();
"""
    + ENTRY_APPLY.format(
        posted_check="",
        flag_on=f"PERFORM set_config('{FLAG}', 'on', true);",
        flag_off=f"PERFORM set_config('{FLAG}', 'off', true);",
    )
    + ACCOUNT_GUARD.format(outside_entry=BY_FLAG)
)


class Migration(migrations.Migration):
    dependencies = [("accounting", "0006_strict_triggers")]

    operations = [
        migrations.AddField(
            model_name="transaction",
            name="xact_id",
            field=models.BigIntegerField(
                default=0,
                editable=False,
                help_text=(
                    "Set by PostgreSQL when the row is written: the database "
                    "transaction that posted it, the only one that may add its "
                    "entries."
                ),
                verbose_name="database transaction",
            ),
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
    ]

"""Summed house accounts: no row that every table's hands lock (issue 16).

Every hand moved the cached balances of the same few house accounts (chip float,
rake revenue, jackpot drops), each under its row lock until the commit, so every
table's hands queued on those rows. On a *summed* account:

- an entry that can't break a floor (any entry on an account without one, an entry
  away from the floor on an account with one) leaves the account's row alone; the
  entry says so itself (``summed``, set by ``ledger_entry_apply``, whatever the
  client sent) and carries its fold epoch (``epoch``): the id of the last balance
  fold begun when it was written, read while the writing database transaction
  holds a shared advisory lock until it ends;
- an entry toward the floor of a summed non-negative account still updates the row
  (so concurrent ones queue on its lock, and REPEATABLE READ writers get a
  serialization failure) and is refused unless the row plus the pending entries
  stays at or above zero. Under READ COMMITTED the check's query runs after the lock
  is taken, so it sees every entry committed before: race-free. Pending entries of
  other transactions not yet committed are not counted, which can only refuse, not
  overdraw;
- the balance is the row's plus its summed entries with ``epoch >= summed_through``
  (the partial index ``entry_summed_by_account``);
- ``INSERT INTO accounting_balancefold DEFAULT VALUES`` (:class:`BalanceFold`, id
  ``f``) takes that advisory lock exclusively: it waits for every database
  transaction that wrote summed entries of an epoch below ``f`` to end (and the
  ones that come next wait for the fold, at most ``lock_timeout`` 200 ms, or the
  fold gives up), then adds every summed entry of the epochs below ``f`` to its
  account's row and moves ``summed_through`` to ``f``. READ COMMITTED only, so its
  statements see what the transactions it waited for committed. Folds are
  serialized by the same lock, and a fold whose id is below an account's horizon
  moves nothing of it.

Accounts without a floor become summed; of those with one, ``jackpot:drops`` (every
hand's drop in a room without pools). Players' chips, pools, trays and drawers keep
their cached row and its CHECK, exactly as before. The summed entries already posted
are none: every existing entry moved its row, and stays counted there.
"""



import accounting.models
import django.db.models.functions.datetime
from django.db import migrations, models


ENTRY_APPLY = """
CREATE OR REPLACE FUNCTION ledger_entry_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    acct_currency char(3);
    acct_type varchar(16);
    acct_floor boolean;
    acct_summed boolean;
    txn_xact bigint;
    moved bigint;
    held bigint;
    through bigint;
    pending bigint;
BEGIN
    SELECT xact_id INTO txn_xact FROM accounting_transaction
     WHERE id = NEW.transaction_id;
    -- A missing transaction is the foreign key's to refuse.
    IF FOUND AND txn_xact <> pg_current_xact_id()::text::bigint THEN
        RAISE EXCEPTION
            'ledger: transaction % is posted; its entries are final (DC2)',
            NEW.transaction_id USING ERRCODE = 'restrict_violation';
    END IF;
    SELECT currency, type, non_negative, summed
      INTO acct_currency, acct_type, acct_floor, acct_summed
      FROM accounting_account WHERE id = NEW.account_id;
    IF acct_currency IS DISTINCT FROM NEW.currency THEN
        RAISE EXCEPTION 'ledger: entry currency % differs from account currency %',
            NEW.currency, acct_currency USING ERRCODE = 'check_violation';
    END IF;
    moved := CASE WHEN acct_type IN ('asset', 'expense') THEN NEW.amount_cents
                  ELSE -NEW.amount_cents END;
    NEW.summed := coalesce(acct_summed AND (NOT acct_floor OR moved > 0), false);
    IF NEW.summed THEN
        -- Held until this database transaction ends: a fold waits for it.
        PERFORM pg_advisory_xact_lock_shared(hashtext('accounting_balancefold'));
        SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO NEW.epoch
          FROM accounting_balancefold_id_seq;
        RETURN NEW;
    END IF;
    NEW.epoch := 0;
    UPDATE accounting_account SET balance_cents = balance_cents + moved
     WHERE id = NEW.account_id
    RETURNING balance_cents, summed_through INTO held, through;
    IF acct_summed THEN
        -- Toward the floor of a summed account: its row is locked now, and this
        -- statement sees every entry committed before the lock was granted.
        SELECT coalesce(sum(amount_cents), 0) INTO pending FROM accounting_entry
         WHERE account_id = NEW.account_id AND summed AND epoch >= through;
        IF acct_type NOT IN ('asset', 'expense') THEN
            pending := -pending;
        END IF;
        IF held + pending < 0 THEN
            RAISE EXCEPTION
                'ledger: account % would go below zero (account_non_negative_balance)',
                NEW.account_id
                USING ERRCODE = 'check_violation',
                      CONSTRAINT = 'account_non_negative_balance';
        END IF;
    END IF;
    RETURN NEW;
END $$;
"""

# 0007's, for the way back.
ENTRY_APPLY_0007 = """
CREATE OR REPLACE FUNCTION ledger_entry_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    acct_currency char(3);
    acct_type varchar(16);
    txn_xact bigint;
BEGIN
    SELECT xact_id INTO txn_xact FROM accounting_transaction
     WHERE id = NEW.transaction_id;
    IF FOUND AND txn_xact <> pg_current_xact_id()::text::bigint THEN
        RAISE EXCEPTION
            'ledger: transaction % is posted; its entries are final (DC2)',
            NEW.transaction_id USING ERRCODE = 'restrict_violation';
    END IF;
    SELECT currency, type INTO acct_currency, acct_type
      FROM accounting_account WHERE id = NEW.account_id;
    IF acct_currency IS DISTINCT FROM NEW.currency THEN
        RAISE EXCEPTION 'ledger: entry currency % differs from account currency %',
            NEW.currency, acct_currency USING ERRCODE = 'check_violation';
    END IF;
    UPDATE accounting_account
       SET balance_cents = balance_cents + CASE
               WHEN acct_type IN ('asset', 'expense') THEN NEW.amount_cents
               ELSE -NEW.amount_cents END
     WHERE id = NEW.account_id;
    RETURN NEW;
END $$;
"""

ACCOUNT_GUARD = """
CREATE OR REPLACE FUNCTION ledger_account_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'ledger: accounts are never deleted'
            USING ERRCODE = 'restrict_violation';
    ELSIF TG_OP = 'INSERT' THEN
        IF NEW.balance_cents <> 0 {opened} THEN
            RAISE EXCEPTION 'ledger: an account is opened with a zero balance'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END IF;
    IF (NEW.code, NEW.type, NEW.currency, NEW.non_negative {fixed})
       IS DISTINCT FROM (OLD.code, OLD.type, OLD.currency, OLD.non_negative {fixed_old})
    THEN
        RAISE EXCEPTION 'ledger: an account''s code, type, currency and flag are fixed'
            USING ERRCODE = 'restrict_violation';
    END IF;
    -- Depth 1 is a statement of the client's; the ledger's triggers' UPDATEs run at 2.
    IF (NEW.balance_cents {moved}) IS DISTINCT FROM (OLD.balance_cents {moved_old})
       AND pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'ledger: balances move only by entries'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;
"""

FOLD = """
CREATE FUNCTION ledger_fold_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n integer;
    patience text := current_setting('lock_timeout');
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'ledger: a balance fold runs in READ COMMITTED'
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    -- The fold's id is its epoch: the sequence's, whatever the client sent.
    NEW.id := nextval('accounting_balancefold_id_seq');
    -- Wait for the writers of summed entries (and any fold) to end; the writers
    -- that come next queue behind this lock, so it is given up if not had soon.
    PERFORM set_config('lock_timeout', '200ms', true);
    PERFORM pg_advisory_xact_lock(hashtext('accounting_balancefold'));
    PERFORM set_config('lock_timeout', patience, true);
    WITH pending AS (
        SELECT e.account_id, sum(e.amount_cents) AS raw
          FROM accounting_account a
          JOIN accounting_entry e
            ON e.account_id = a.id AND e.summed
           AND e.epoch >= a.summed_through AND e.epoch < NEW.id
         WHERE a.summed
         GROUP BY e.account_id
    )
    UPDATE accounting_account a
       SET balance_cents = a.balance_cents + CASE
               WHEN a.type IN ('asset', 'expense') THEN p.raw ELSE -p.raw END,
           summed_through = NEW.id
      FROM pending p
     WHERE a.id = p.account_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    NEW.accounts := n;
    NEW.at := statement_timestamp();
    RETURN NEW;
END $$;

CREATE TRIGGER ledger_fold_apply BEFORE INSERT ON accounting_balancefold
    FOR EACH ROW EXECUTE FUNCTION ledger_fold_apply();
CREATE TRIGGER ledger_fold_append_only BEFORE UPDATE OR DELETE
    ON accounting_balancefold FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_fold_no_truncate BEFORE TRUNCATE
    ON accounting_balancefold FOR EACH STATEMENT
    EXECUTE FUNCTION ledger_refuse_truncate();
ALTER TABLE accounting_balancefold ENABLE ALWAYS TRIGGER ledger_fold_apply,
    ENABLE ALWAYS TRIGGER ledger_fold_append_only,
    ENABLE ALWAYS TRIGGER ledger_fold_no_truncate;
"""

FORWARD = (
    # Under 0007's guard, which doesn't know the flag yet.
    "UPDATE accounting_account SET summed = true"
    " WHERE NOT non_negative OR code = 'jackpot:drops';"
    + ENTRY_APPLY
    + ACCOUNT_GUARD.format(
        opened="OR NEW.summed_through <> 0",
        fixed=", NEW.summed",
        fixed_old=", OLD.summed",
        moved=", NEW.summed_through",
        moved_old=", OLD.summed_through",
    )
    + FOLD
)

BACKWARD = (
    """
DROP TRIGGER ledger_fold_no_truncate ON accounting_balancefold;
DROP TRIGGER ledger_fold_append_only ON accounting_balancefold;
DROP TRIGGER ledger_fold_apply ON accounting_balancefold;
DROP FUNCTION ledger_fold_apply();
-- Every summed entry back into its row, as 0007 keeps them.
ALTER TABLE accounting_account DISABLE TRIGGER ledger_account_guard;
UPDATE accounting_account a
   SET balance_cents = a.balance_cents + CASE
           WHEN a.type IN ('asset', 'expense') THEN p.raw ELSE -p.raw END
  FROM (SELECT e.account_id, sum(e.amount_cents) AS raw
          FROM accounting_account a JOIN accounting_entry e
            ON e.account_id = a.id AND e.summed AND e.epoch >= a.summed_through
         GROUP BY e.account_id) AS p
 WHERE a.id = p.account_id;
ALTER TABLE accounting_account ENABLE ALWAYS TRIGGER ledger_account_guard;
"""
    + ENTRY_APPLY_0007
    + ACCOUNT_GUARD.format(opened="", fixed="", fixed_old="", moved="", moved_old="")
)


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0010_receipt_kinds_of_every_app'),
    ]

    operations = [
        migrations.CreateModel(
            name='BalanceFold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('accounts', models.IntegerField(default=0, verbose_name='accounts moved')),
                ('at', models.DateTimeField(db_default=django.db.models.functions.datetime.Now(), verbose_name='at')),
            ],
            options={
                'verbose_name': 'balance fold',
                'ordering': ['-id'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='account',
            name='account_non_negative_balance',
        ),
        migrations.AddField(
            model_name='account',
            name='summed',
            field=models.BooleanField(db_default=False, default=False, editable=False, help_text="A house account every table moves: entries that can't take it below zero don't lock its row; its balance adds them up.", verbose_name='kept as a sum'),
        ),
        migrations.AddField(
            model_name='account',
            name='summed_through',
            field=models.BigIntegerField(db_default=0, default=0, editable=False, help_text="The fold epoch from which this account's summed entries are not yet in its stored balance.", verbose_name='folded through'),
        ),
        migrations.AddField(
            model_name='entry',
            name='epoch',
            field=models.BigIntegerField(db_default=0, default=0, editable=False, help_text='Set by PostgreSQL on a summed entry: the last balance fold begun when it was written; the folds after it add it to the stored balance.', verbose_name='fold epoch'),
        ),
        migrations.AddField(
            model_name='entry',
            name='summed',
            field=models.BooleanField(db_default=False, default=False, editable=False, help_text="Set by PostgreSQL: the entry didn't move its account's stored balance; balance reads add it until a fold does.", verbose_name='summed'),
        ),
        migrations.AlterField(
            model_name='account',
            name='balance_cents',
            field=accounting.models.BalanceField(default=0, editable=False, verbose_name='balance'),
        ),
        migrations.AddIndex(
            model_name='entry',
            index=models.Index(condition=models.Q(('summed', True)), fields=['account', 'epoch'], include=('amount_cents',), name='entry_summed_by_account'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.CheckConstraint(condition=models.Q(('non_negative', False), ('summed', True), ('balance_cents__gte', 0), _connector='OR'), name='account_non_negative_balance', violation_error_message="This account can't go below zero."),
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
    ]

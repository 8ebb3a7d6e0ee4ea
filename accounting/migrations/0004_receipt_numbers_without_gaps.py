"""Receipt numbers without gaps, kept by PostgreSQL (CA2).

The counter ``accounting_cage.next_receipt_no`` starts at 1 and moves one step at a
time; a step must be used by a receipt with that number before the transaction
commits (a deferred constraint trigger); a receipt's number must have been taken from
the counter. With the unique (cage, number) key, a cage's receipts are exactly
1 … next_receipt_no − 1. Plain SQL triggers, like the ledger's, with no switch a
session could flip.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION cage_receipt_counter_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.next_receipt_no <> 1 THEN
            RAISE EXCEPTION 'cage: a new cage numbers its receipts from 1 (CA2)'
                USING ERRCODE = 'check_violation';
        END IF;
    ELSIF NEW.next_receipt_no NOT IN (OLD.next_receipt_no, OLD.next_receipt_no + 1)
    THEN
        RAISE EXCEPTION 'cage: receipt numbers move one at a time (CA2)'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER cage_receipt_counter_guard
    BEFORE INSERT OR UPDATE OF next_receipt_no ON accounting_cage
    FOR EACH ROW EXECUTE FUNCTION cage_receipt_counter_guard();

CREATE FUNCTION cage_receipt_number_used() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.next_receipt_no > OLD.next_receipt_no AND NOT EXISTS (
        SELECT 1 FROM accounting_receipt
         WHERE cage_id = NEW.id AND number = OLD.next_receipt_no)
    THEN
        RAISE EXCEPTION
            'cage: receipt number % of cage % was taken but not issued (CA2)',
            OLD.next_receipt_no, NEW.code USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER cage_receipt_number_used
    AFTER UPDATE OF next_receipt_no ON accounting_cage
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION cage_receipt_number_used();

CREATE FUNCTION cage_receipt_number_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.number >= (SELECT next_receipt_no FROM accounting_cage
                       WHERE id = NEW.cage_id) THEN
        RAISE EXCEPTION 'cage: receipt number % was not taken from the counter (CA2)',
            NEW.number USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER cage_receipt_number_taken BEFORE INSERT ON accounting_receipt
    FOR EACH ROW EXECUTE FUNCTION cage_receipt_number_taken();
"""

BACKWARD = """
DROP TRIGGER cage_receipt_number_taken ON accounting_receipt;
DROP TRIGGER cage_receipt_number_used ON accounting_cage;
DROP TRIGGER cage_receipt_counter_guard ON accounting_cage;
DROP FUNCTION cage_receipt_number_taken();
DROP FUNCTION cage_receipt_number_used();
DROP FUNCTION cage_receipt_counter_guard();
"""


class Migration(migrations.Migration):
    dependencies = [("accounting", "0003_cage")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]

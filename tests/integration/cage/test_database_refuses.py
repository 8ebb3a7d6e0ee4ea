"""PostgreSQL itself keeps the cage's records honest, whatever the Python does.

Raw SQL against the tables, going around every service: the four-eyes rules, the
final states and the append-only records are refused by the database.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from accounting.models import Payable, TableSlip
from accounting.services import cage as services

from .conftest import FLOAT
from .helpers import book_award

pytestmark = pytest.mark.django_db
# django-pgtrigger's triggers raise; Django reports them as a DatabaseError. The app's
# role isn't even granted UPDATE or DELETE where a trigger refuses them every time.
TRIGGER = "pgtrigger|permission denied"


def sql(statement: str, params: list | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params or [])


@pytest.fixture
def receipt(cage, shift, cashier, player):
    return services.chip_purchase(
        cage="MAIN", cashier=cashier, player="P-1001", amount_cents=1_000
    )


def test_receipts_and_cash_transactions_are_append_only(receipt):
    """No UPDATE, no DELETE of a receipt or a cash transaction (DC2)."""
    for statement in [
        "UPDATE accounting_receipt SET amount_cents = 1 WHERE id = %s",
        "DELETE FROM accounting_receipt WHERE id = %s",
    ]:
        with pytest.raises(DatabaseError, match=TRIGGER):
            sql(statement, [receipt.pk])
    for statement in [
        "UPDATE accounting_cashtransaction SET amount_cents = 1",
        "DELETE FROM accounting_cashtransaction",
    ]:
        with pytest.raises(DatabaseError, match=TRIGGER):
            sql(statement)


def test_a_closed_shift_is_final(shift, cashier):
    """A closed shift can't reopen or change; no shift is ever deleted."""
    services.shift_close(
        shift=shift, cashier=cashier, cash_cents=FLOAT, chips_cents=FLOAT
    )
    for statement in [
        "UPDATE accounting_shift SET status = 'open' WHERE id = %s",
        "UPDATE accounting_shift SET counted_cash_cents = 0 WHERE id = %s",
        "DELETE FROM accounting_shift WHERE id = %s",
    ]:
        with pytest.raises(DatabaseError, match=TRIGGER):
            sql(statement, [shift.pk])


def test_an_open_shifts_float_is_fixed(shift):
    """The counted float of an open shift can't be rewritten."""
    with pytest.raises(DatabaseError, match=TRIGGER):
        sql(
            "UPDATE accounting_shift SET opening_cash_cents = 0 WHERE id = %s",
            [shift.pk],
        )


def test_no_one_signs_off_his_own_shift_or_skips_the_sign_off(shift, cashier):
    """CHECKs: the signer isn't the cashier; a needed sign-off can't be skipped."""
    services.shift_close(
        shift=shift, cashier=cashier, cash_cents=FLOAT + 5_000, chips_cents=FLOAT
    )
    with pytest.raises(IntegrityError, match="shift_sign_off_by_another"):
        sql(
            "UPDATE accounting_shift SET status = 'closed', signed_off_by_id = "
            "cashier_id WHERE id = %s",
            [shift.pk],
        )
    with pytest.raises(IntegrityError, match="shift_signed_off_when_needed"):
        sql("UPDATE accounting_shift SET status = 'closed' WHERE id = %s", [shift.pk])


def test_a_slip_is_signed_by_two_people_and_issued_once(
    cage, shift, cashier, floor_person
):
    """CHECK: issuer ≠ requester; an issued slip is final."""
    slip = services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=1_000,
        requested_by=floor_person,
    )
    posting = book_award("P-1", 1_000)
    with pytest.raises(IntegrityError, match="slip_two_signatures"):
        sql(
            "UPDATE accounting_tableslip SET status = 'issued', issued_by_id = "
            "requested_by_id, issued_at = now(), shift_id = %s, transaction_id = %s "
            "WHERE id = %s",
            [shift.pk, posting.pk, slip.pk],
        )
    services.slip_issue(slip=slip, cashier=cashier)
    with pytest.raises(DatabaseError, match=TRIGGER):
        sql(
            "UPDATE accounting_tableslip SET status = 'pending' WHERE id = %s",
            [slip.pk],
        )
    with pytest.raises(DatabaseError, match=TRIGGER):
        sql(
            "UPDATE accounting_tableslip SET amount_cents = 2 WHERE id = %s",
            [slip.pk],
        )


def test_a_payables_terms_are_fixed_and_paid_is_final(player, manager, shift, cashier):
    """An award's amount never changes; a paid award never reopens."""
    book_award(player.code, 5_000)
    award = services.payable_create(
        player=player, amount_cents=5_000, reference="promo", approved_by=manager
    )
    with pytest.raises(DatabaseError, match=TRIGGER):
        sql(
            "UPDATE accounting_payable SET amount_cents = 9000 WHERE id = %s",
            [award.pk],
        )
    services.payable_pay(
        payable=award,
        cage="MAIN",
        cashier=cashier,
        player=player.code,
        player_signed=True,
    )
    assert Payable.objects.get(pk=award.pk).status == Payable.Status.PAID
    with pytest.raises(DatabaseError, match=TRIGGER):
        sql("UPDATE accounting_payable SET status = 'open' WHERE id = %s", [award.pk])


def test_a_box_counts_variance_adds_up(shift, cashier, cage):
    """CHECK: variance = counted − recorded."""
    with pytest.raises(IntegrityError, match="box_count_adds_up"):
        sql(
            'INSERT INTO accounting_boxcount (cage_id, shift_id, "table", box, '
            "gaming_day, recorded_cents, counted_cents, variance_cents, "
            "counted_by_id, counted_at) VALUES (%s, %s, 'T01', 'drop', "
            "'2026-11-29', 100, 90, 0, %s, now())",
            [cage.pk, shift.pk, cashier.pk],
        )


def test_receipt_numbers_are_gap_free_by_the_databases_own_checks(receipt, cage):
    """CA2 in PostgreSQL: the counter moves one step at a time, each step is used
    by a receipt before commit, and no receipt takes a number not yet counted."""
    with pytest.raises(IntegrityError, match="one at a time"):
        sql(
            "UPDATE accounting_cage SET next_receipt_no = next_receipt_no + 5 "
            "WHERE id = %s",
            [cage.pk],
        )
    with pytest.raises(IntegrityError, match="taken but not issued"):
        # The check is deferred to commit; making it immediate fires it now.
        sql(
            "UPDATE accounting_cage SET next_receipt_no = next_receipt_no + 1 "
            "WHERE id = %s; SET CONSTRAINTS cage_receipt_number_used IMMEDIATE",
            [cage.pk],
        )
    with pytest.raises(IntegrityError, match="not taken from the counter"):
        sql(
            "INSERT INTO accounting_receipt (cage_id, number, kind, shift_id, "
            "player_id, amount_cents, transaction_id, player_signed, issued_by_id, "
            "issued_at) SELECT cage_id, 2, kind, shift_id, player_id, amount_cents, "
            "transaction_id, false, issued_by_id, now() FROM accounting_receipt "
            "WHERE id = %s",
            [receipt.pk],
        )
    with pytest.raises(IntegrityError, match="from 1"):
        sql(
            "INSERT INTO accounting_cage (code, name, currency, next_receipt_no, "
            "over_short_signoff_cents, identity_threshold_cents, created_at) "
            "VALUES ('X', 'X', 'EUR', 7, 0, 1, now())"
        )

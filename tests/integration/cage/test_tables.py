"""Fills and credits signed by two people (CA3); drop and rake box counts (CA4)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from accounting import chart
from accounting.models import BoxCount, TableSlip, Transaction
from accounting.selectors import trial_balance
from accounting.services import cage as services
from core.errors import Conflict, Refusal
from core.roles import Role

from .conftest import FLOAT, VAULT
from .helpers import book_table_activity, snapshot

pytestmark = pytest.mark.django_db
NIGHT = date(2026, 11, 29)


def test_a_fill_and_a_credit_move_chips_with_both_signatures(
    cage, shift, cashier, floor_person
):
    """Fill: drawer → tray; credit: tray → drawer; posted by the cashier and
    approved by the floor person."""
    fill = services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=50_000,
        requested_by=floor_person,
    )
    assert fill.status == TableSlip.Status.PENDING
    assert chart.table_tray(table="T01").balance_cents == 0
    fill = services.slip_issue(slip=fill, cashier=cashier)
    assert chart.table_tray(table="T01").balance_cents == 50_000
    drawer = chart.drawer_chips(cage="MAIN", shift=shift.pk)
    assert drawer.balance_cents == FLOAT - 50_000
    posting = Transaction.objects.get(pk=fill.transaction_id)
    assert (posting.posted_by, posting.approved_by) == (cashier, floor_person)
    credit = services.slip_request(
        kind=TableSlip.Kind.CREDIT,
        cage=cage,
        table="T01",
        amount_cents=20_000,
        requested_by=floor_person,
    )
    services.slip_issue(slip=credit, cashier=cashier)
    assert chart.table_tray(table="T01").balance_cents == 30_000
    drawer.refresh_from_db()
    assert drawer.balance_cents == FLOAT - 30_000
    assert trial_balance().balanced


def test_the_same_person_cant_sign_and_issue(cage, shift, make_staff):
    """A cashier who also works the floor can't issue his own request (CA3)."""
    both = make_staff("bea", Role.CASHIER, Role.FLOOR)
    services.shift_open(cage=cage, cashier=both, cash_cents=0, chips_cents=10_000)
    slip = services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=5_000,
        requested_by=both,
    )
    before = snapshot()
    with pytest.raises(Refusal) as refused:
        services.slip_issue(slip=slip, cashier=both)
    assert (refused.value.rule, refused.value.code) == ("CA3", "same_person")
    assert snapshot() == before


def test_a_slip_is_issued_once(cage, shift, cashier, floor_person):
    """Issuing again is a conflict and moves nothing (CA3)."""
    slip = services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=5_000,
        requested_by=floor_person,
    )
    services.slip_issue(slip=slip, cashier=cashier)
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        services.slip_issue(slip=slip, cashier=cashier)
    assert refused.value.rule == "CA3"
    assert snapshot() == before


def test_a_credit_the_tray_doesnt_hold_is_refused(cage, shift, cashier, floor_person):
    """Chips a tray doesn't have can't come back to the cage."""
    slip = services.slip_request(
        kind=TableSlip.Kind.CREDIT,
        cage=cage,
        table="T02",
        amount_cents=5_000,
        requested_by=floor_person,
    )
    with pytest.raises(Refusal) as refused:
        services.slip_issue(slip=slip, cashier=cashier)
    assert refused.value.code == "insufficient_funds"
    slip.refresh_from_db()
    assert slip.status == TableSlip.Status.PENDING


def test_a_drop_box_count_books_recorded_counted_and_the_variance(cage, shift, cashier):
    """Recorded 120,000, counted 119,500: vault +119,500, over/short 500 short."""
    book_table_activity("T01", drop=120_000)
    count = services.box_count_record(
        cage="MAIN",
        cashier=cashier,
        table="T01",
        box=BoxCount.Box.DROP,
        gaming_day=NIGHT,
        counted_cents=119_500,
    )
    assert (count.recorded_cents, count.counted_cents, count.variance_cents) == (
        120_000,
        119_500,
        -500,
    )
    assert count.shift == shift
    assert chart.table_drop_box(table="T01").balance_cents == 0
    assert chart.cage_cash(cage="MAIN").balance_cents == VAULT - FLOAT + 119_500
    assert chart.over_short().balance_cents == 500
    assert trial_balance().balanced


def test_a_rake_box_count_goes_to_the_cage_chips(cage, shift, cashier):
    """Rake chips counted over what was recorded: the over is a credit."""
    book_table_activity("T01", drop=50_000, rake=1_200)
    count = services.box_count_record(
        cage="MAIN",
        cashier=cashier,
        table="T01",
        box=BoxCount.Box.RAKE,
        gaming_day=NIGHT,
        counted_cents=1_300,
    )
    assert count.variance_cents == 100
    assert chart.table_rake_box(table="T01").balance_cents == 0
    assert chart.cage_chips(cage="MAIN").balance_cents == VAULT - FLOAT + 1_300
    assert chart.over_short().balance_cents == -100


def test_a_box_is_counted_once_a_gaming_day(cage, shift, cashier):
    """A second count of the same box and day is a conflict (CA4); the database
    refuses it too."""
    book_table_activity("T01", drop=10_000)
    count = services.box_count_record(
        cage="MAIN",
        cashier=cashier,
        table="T01",
        box=BoxCount.Box.DROP,
        gaming_day=NIGHT,
        counted_cents=10_000,
    )
    assert count.variance_cents == 0
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        services.box_count_record(
            cage="MAIN",
            cashier=cashier,
            table="T01",
            box=BoxCount.Box.DROP,
            gaming_day=NIGHT,
            counted_cents=0,
        )
    assert refused.value.rule == "CA4"
    assert snapshot() == before
    with pytest.raises(IntegrityError), transaction.atomic():
        BoxCount.objects.create(
            cage=cage,
            shift=shift,
            table="T01",
            box="drop",
            gaming_day=NIGHT,
            recorded_cents=0,
            counted_cents=0,
            variance_cents=0,
            counted_by=cashier,
            counted_at=count.counted_at,
        )


def test_a_count_needs_an_open_shift(cage, cashier):
    """The count team works in a shift too (CA1)."""
    with pytest.raises(Refusal) as refused:
        services.box_count_record(
            cage="MAIN",
            cashier=cashier,
            table="T01",
            box=BoxCount.Box.DROP,
            gaming_day=NIGHT,
            counted_cents=0,
        )
    assert refused.value.rule == "CA1"

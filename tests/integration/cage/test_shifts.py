"""Shifts: a counted float in, a count out, over/short and sign-off (CA1)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from accounting import chart
from accounting.models import Shift
from accounting.selectors import shift_report, trial_balance
from accounting.services import cage as services
from core.api.errors import status_of
from core.errors import ApplicationError, Conflict, Refusal
from core.roles import Role

from .conftest import FLOAT, VAULT
from .helpers import snapshot

pytestmark = pytest.mark.django_db


def test_opening_moves_the_counted_float_from_the_vault(cage, cashier):
    """The float goes vault → the shift's drawer accounts."""
    shift = services.shift_open(
        cage=cage, cashier=cashier, cash_cents=300_000, chips_cents=200_000
    )
    assert chart.drawer_cash(cage="MAIN", shift=shift.pk).balance_cents == 300_000
    assert chart.drawer_chips(cage="MAIN", shift=shift.pk).balance_cents == 200_000
    assert chart.cage_cash(cage="MAIN").balance_cents == VAULT - 300_000
    assert chart.cage_chips(cage="MAIN").balance_cents == VAULT - 200_000
    assert shift.status == Shift.Status.OPEN


def test_a_float_the_vault_doesnt_hold_is_refused(cage, cashier):
    """The vault can't go below zero: nothing is opened."""
    before = snapshot()
    with pytest.raises(Refusal) as refused:
        services.shift_open(
            cage=cage, cashier=cashier, cash_cents=VAULT + 1, chips_cents=0
        )
    assert refused.value.code == "insufficient_funds"
    assert snapshot() == before


def test_one_open_shift_per_cashier_and_cage(cage, cashier, shift):
    """A second open shift is refused by the service (CA1) and by the database."""
    with pytest.raises(Refusal) as refused:
        services.shift_open(cage=cage, cashier=cashier, cash_cents=0, chips_cents=0)
    assert refused.value.rule == "CA1"
    assert refused.value.allowed == {"open_shift": shift.pk}
    with pytest.raises(IntegrityError), transaction.atomic():
        Shift.objects.create(
            cage=cage,
            cashier=cashier,
            gaming_day=shift.gaming_day,
            opened_at=shift.opened_at,
            opening_cash_cents=0,
            opening_chips_cents=0,
        )


def test_close_within_the_threshold_returns_the_drawer(cage, cashier, shift, player):
    """A €5 short closes at once: over/short booked, drawer back in the vault."""
    services.chip_purchase(
        cage="MAIN", cashier=cashier, player="P-1001", amount_cents=40_000
    )
    closed = services.shift_close(
        shift=shift,
        cashier=cashier,
        cash_cents=FLOAT + 40_000 - 500,
        chips_cents=FLOAT - 40_000,
    )
    assert closed.status == Shift.Status.CLOSED
    assert (closed.over_short_cash_cents, closed.over_short_chips_cents) == (-500, 0)
    assert chart.over_short().balance_cents == 500  # an expense: the house lost €5
    assert chart.drawer_cash(cage="MAIN", shift=shift.pk).balance_cents == 0
    assert chart.drawer_chips(cage="MAIN", shift=shift.pk).balance_cents == 0
    assert chart.cage_cash(cage="MAIN").balance_cents == VAULT + 40_000 - 500
    assert chart.cage_chips(cage="MAIN").balance_cents == VAULT - 40_000
    assert trial_balance().balanced


def test_above_the_threshold_waits_for_another_persons_sign_off(
    cage, shift, cashier, manager
):
    """€25 over: pending until a manager who isn't the cashier signs it off."""
    closed = services.shift_close(
        shift=shift, cashier=cashier, cash_cents=FLOAT + 2_500, chips_cents=FLOAT
    )
    assert closed.status == Shift.Status.PENDING_SIGN_OFF
    assert closed.needs_sign_off
    # The difference is booked, the drawer stays out of the vault until sign-off.
    assert chart.drawer_cash(cage="MAIN", shift=shift.pk).balance_cents == (
        FLOAT + 2_500
    )
    assert chart.over_short().balance_cents == -2_500
    # The cashier can't sign his own (the API also needs the manager role).
    before = snapshot()
    with pytest.raises(Refusal) as refused:
        services.shift_sign_off(shift=shift, supervisor=cashier)
    assert (refused.value.rule, refused.value.code) == ("CA1", "own_shift")
    assert snapshot() == before
    signed = services.shift_sign_off(shift=shift, supervisor=manager, note="tip box")
    assert signed.status == Shift.Status.CLOSED
    assert signed.signed_off_by == manager
    assert chart.drawer_cash(cage="MAIN", shift=shift.pk).balance_cents == 0
    assert chart.cage_cash(cage="MAIN").balance_cents == VAULT + 2_500
    with pytest.raises(Conflict):
        services.shift_sign_off(shift=shift, supervisor=manager)


def test_the_threshold_adds_cash_and_chip_differences(cage, shift, cashier):
    """€15 cash over and €15 chips short don't cancel out: 30 > 20 needs sign-off."""
    closed = services.shift_close(
        shift=shift,
        cashier=cashier,
        cash_cents=FLOAT + 1_500,
        chips_cents=FLOAT - 1_500,
    )
    assert closed.status == Shift.Status.PENDING_SIGN_OFF
    # Each difference is its own posting on over/short, which nets to zero here.
    assert chart.over_short().balance_cents == 0
    report = shift_report(shift=closed)
    assert (report.cash.over_short, report.chips.over_short) == (1_500, -1_500)


def test_only_the_shifts_cashier_closes_it_once(cage, shift, cashier, make_staff):
    """Another cashier can't close it (403); a closed shift can't close again."""
    other = make_staff("olli", Role.CASHIER)
    with pytest.raises(ApplicationError) as refused:
        services.shift_close(shift=shift, cashier=other, cash_cents=0, chips_cents=0)
    assert (status_of(refused.value), refused.value.rule) == (403, "CA1")
    services.shift_close(
        shift=shift, cashier=cashier, cash_cents=FLOAT, chips_cents=FLOAT
    )
    with pytest.raises(Conflict):
        services.shift_close(
            shift=shift, cashier=cashier, cash_cents=FLOAT, chips_cents=FLOAT
        )


def test_after_close_no_cage_transaction_without_a_new_shift(
    cage, shift, cashier, player
):
    """Every cage transaction belongs to an open shift (CA1)."""
    services.shift_close(
        shift=shift, cashier=cashier, cash_cents=FLOAT, chips_cents=FLOAT
    )
    with pytest.raises(Refusal) as refused:
        services.chip_purchase(
            cage="MAIN", cashier=cashier, player="P-1001", amount_cents=1_000
        )
    assert (refused.value.rule, refused.value.code) == ("CA1", "no_open_shift")
    again = services.shift_open(
        cage=cage, cashier=cashier, cash_cents=0, chips_cents=10_000
    )
    receipt = services.chip_purchase(
        cage="MAIN", cashier=cashier, player="P-1001", amount_cents=1_000
    )
    assert receipt.shift == again


def test_a_purchase_costs_a_fixed_number_of_queries(
    cage, shift, cashier, player, django_assert_max_num_queries
):
    """Locks, CA5, DC3's open receivables, the counter, the accounts, the posting
    and the receipt: 21."""
    buy = {"cage": "MAIN", "cashier": cashier, "player": "P-1001"}
    services.chip_purchase(amount_cents=1_000, **buy)
    with django_assert_max_num_queries(21):
        services.chip_purchase(amount_cents=1_000, **buy)

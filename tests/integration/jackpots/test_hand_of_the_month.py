"""Hand of the month: standings, the month's close, ties, carry-forward (HM1–HM4)."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from django.core.management import CommandError, call_command

from accounting.models import Payable
from accounting.selectors import trial_balance
from cardroom.models import Hand, Table
from core.errors import Conflict, Refusal
from jackpots import selectors, services
from jackpots.models import Award, Month, MonthHand
from tests.api.floor.conftest import HELSINKI

from .conftest import balance

pytestmark = pytest.mark.django_db

MONTH_POOL = "jackpot:main.hand-of-the-month:pool"
OCTOBER, NOVEMBER = date(2026, 10, 1), date(2026, 11, 1)
CLOSE_OCTOBER = datetime(2026, 11, 1, 12, 0, tzinfo=HELSINKI)


@pytest.fixture
def october(clock, pools, dealer):
    """The month pool counts from September; hands are dealt in October, at a
    table open since a September night (a hand's time is within the table's open
    gaming days, BI8)."""
    pools["month"].starts_on = date(2026, 9, 1)
    pools["month"].save(update_fields=["starts_on"])
    Table.objects.filter(code=dealer.table).update(gaming_day=date(2026, 9, 20))
    clock.set("2026-10-10T21:00")
    return dealer


def quads(dealer, board: str) -> Hand:
    """Four tens for seat 2 (a pocket pair) against two pair: no bad beat."""
    return dealer.deal(board, {1: "Kd Kh", 2: "Ts Tc"})


def test_standings_show_each_players_best_hand_while_the_month_runs(
    pools, dealer, clock
):
    """HM4: the leader and the standings; a hand the board plays doesn't count."""
    dealer.ordinary()  # P-1 aces, P-2 kings: a pair each, both tabled
    clock.advance(minutes=5)
    dealer.bad_beat()  # P-1 aces full of tens, P-2 four tens
    clock.advance(minutes=5)
    dealer.deal("9c 9d 9h 9s Kd", {3: "Qs Qd", 4: "Ah 2c"})  # the board plays
    clock.advance(minutes=5)
    dealer.no_showdown()
    for hand in Hand.objects.all():
        services.hand_qualify(hand_id=hand.pk)
    table = selectors.month_standings(pool=pools["month"], month=NOVEMBER)
    assert [(e.player.code, e.description) for e in table] == [
        ("P-2", "four of a kind, tens"),
        ("P-1", "full house, aces full of tens"),
    ]
    assert MonthHand.objects.count() == 4  # both hands of both tabled showdowns


def test_the_month_closes_with_the_tied_best_hands_sharing_earlier_first(
    october, pools, staff, clock
):
    """HM1–HM3: September carries forward; October's two equal best hands share
    the pool at the month's end, the earlier hand getting the odd cent; the next
    month's drops stay for the next month."""
    september = datetime(2026, 9, 20, 21, 0, tzinfo=HELSINKI)
    october.no_showdown(ended_at=september)  # a drop, no showdown in September
    first = quads(october, "Ac Th Td 5s 2c")
    clock.set("2026-10-20T21:00")
    october.deal("Ks 8h 4c 2d 3h", {1: "Kd Kh", 2: "As Ad"})
    clock.set("2026-10-31T23:30")
    second = quads(october, "Ah Th Td 6s 3c")  # four tens, ace kicker again
    clock.set("2026-11-01T00:30")
    october.ordinary()  # November's
    assert balance(MONTH_POOL) == 5 * 25

    clock.set("2026-11-01T11:59")
    [september] = services.months_close_due()
    assert (september.month, september.status) == (
        date(2026, 9, 1),
        Month.Status.CARRIED_FORWARD,
    )
    assert september.pool_cents == 25 and not september.awards.exists()
    clock.set("2026-11-01T12:00")
    [month] = services.months_close_due()
    assert (month.month, month.status) == (OCTOBER, Month.Status.PENDING)
    assert month.best_hand == "four of a kind, tens"
    assert month.pool_cents == 4 * 25  # September's drop carried, not November's
    awards = list(month.awards.order_by("position"))
    assert [(a.hand_id, a.player.code, a.amount_cents) for a in awards] == [
        (first.pk, "P-2", 50),
        (second.pk, "P-2", 50),
    ]
    assert services.months_close_due() == []  # a month closes once

    approved = services.month_approve(month=month, by=staff["manager"])
    assert approved.status == Month.Status.APPROVED and approved.payout_cents == 100
    assert balance(MONTH_POOL) == 25  # November's drop stays
    assert sorted(Payable.objects.values_list("amount_cents", flat=True)) == [50, 50]
    with pytest.raises(Conflict):
        services.month_approve(month=month, by=staff["manager2"])
    ledger = trial_balance()
    assert ledger.balanced and ledger.cached_balances_agree


def test_odd_cents_go_to_the_earlier_hand(october, pools, clock):
    """HM2: three cents between two tied hands: the earlier gets two."""
    quads(october, "Ac Th Td 5s 2c")
    clock.set("2026-10-12T21:00")
    quads(october, "Ah Th Td 6s 3c")
    clock.set("2026-10-13T21:00")
    october.no_showdown()
    services.pool_update(pool=pools["month"], by=None, payout_percent=4)
    for month in (date(2026, 9, 1), OCTOBER):
        closed = services.month_close(
            pool=pools["month"], month=month, now=CLOSE_OCTOBER, source="test"
        )
    assert (closed.pool_cents, closed.payout_cents) == (75, 3)
    assert [a.amount_cents for a in closed.awards.order_by("position")] == [2, 1]


def test_a_month_is_closed_once_after_it_ends_and_after_the_one_before(
    october, pools, clock
):
    """HM3: the close command refuses a month already closed, not over, or after a
    month still open."""
    quads(october, "Ac Th Td 5s 2c")
    clock.set("2026-11-02T09:00")
    with pytest.raises(CommandError, match="close 2026-09 first"):
        call_command("close_month", "2026-10", stdout=None)
    call_command("close_month", "2026-09")
    with pytest.raises(CommandError, match="not over"):
        call_command("close_month", "2026-11")
    call_command("close_month", "2026-10")
    assert Month.objects.get(month=OCTOBER).status == Month.Status.PENDING
    with pytest.raises(CommandError, match="closed already"):
        call_command("close_month", "2026-10")
    with pytest.raises(CommandError, match="YYYY-MM"):
        call_command("close_month", "October")
    assert Month.objects.count() == 2


def test_a_rejected_month_carries_the_pool_forward(october, pools, staff):
    quads(october, "Ac Th Td 5s 2c")
    services.month_close(
        pool=pools["month"], month=date(2026, 9, 1), now=CLOSE_OCTOBER, source="test"
    )
    month = services.month_close(
        pool=pools["month"], month=OCTOBER, now=CLOSE_OCTOBER, source="test"
    )
    with pytest.raises(Refusal):
        services.month_reject(month=month, by=staff["manager"], reason="")
    services.month_reject(month=month, by=staff["manager"], reason="wrong board")
    assert set(Award.objects.values_list("status", flat=True)) == {"rejected"}
    assert balance(MONTH_POOL) == 25
    assert not Payable.objects.exists()


def test_hands_the_month_never_qualified_are_counted_at_the_close(october, pools):
    """The close qualifies first the month's hands whose task was lost."""
    hand = quads(october, "Ac Th Td 5s 2c")
    assert not MonthHand.objects.exists()
    services.month_close(
        pool=pools["month"], month=date(2026, 9, 1), now=CLOSE_OCTOBER, source="t"
    )
    month = services.month_close(
        pool=pools["month"], month=OCTOBER, now=CLOSE_OCTOBER, source="t"
    )
    assert [a.hand_id for a in month.awards.all()] == [hand.pk]


def test_a_hand_after_the_close_does_not_change_a_closed_month(october, pools, clock):
    """A late hand of a closed month is booked but enters no standings."""
    services.month_close(
        pool=pools["month"], month=date(2026, 9, 1), now=CLOSE_OCTOBER, source="t"
    )
    services.month_close(
        pool=pools["month"], month=OCTOBER, now=CLOSE_OCTOBER, source="t"
    )
    late = quads(october, "Ac Th Td 5s 2c")  # ended in October, posted after
    services.hand_qualify(hand_id=late.pk)
    assert not MonthHand.objects.exists()
    assert Month.objects.get(month=OCTOBER).status == Month.Status.CARRIED_FORWARD

"""A simulated night through the real HTTP server keeps every book straight, twice;
its promotions find, decide and pay their prizes (PR1-PR5)."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db.models import Max, Min

from accounting.models import Account, Entry, Payable, Receipt, Shift
from accounting.selectors import trial_balance
from cardroom.models import Hand, HandException, SeatSession, TerminalKey
from jackpots.models import Hit, Promotion, PromotionEntry, PromotionPrize
from simulation.night import NIGHT_CASHIER, Night, NightOptions, Summary
from tournaments import chart, selectors
from tournaments.models import Bust, Event

pytestmark = pytest.mark.django_db(transaction=True)

HELSINKI = ZoneInfo("Europe/Helsinki")
EXPENSE = "expense:promotions"


def books_are_straight() -> None:
    """Every open seat's stack is its ledger account; the trial balance is zero."""
    sessions = SeatSession.objects.filter(ended_at__isnull=True).select_related(
        "player", "table"
    )
    assert sessions.exists()
    for s in sessions:
        account = Account.objects.get(
            code=f"player:{s.player.code}:table:{s.table.code}"
        )
        assert account.balance_cents == s.stack_cents >= 0
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
    # The terminals followed the settlements: no stack was ever reported wrong (HS6).
    assert not HandException.objects.filter(kind="stack_mismatch").exists()


def night_hands(summary: Summary):
    return Hand.objects.filter(
        table__code__in=summary.tables, created_at__gte=summary.started_at
    )


def prize_paid_in_full(prize: PromotionPrize) -> int:
    """PR5, CA6: approved by a manager who didn't verify it, each award paid at
    the cage, the payments adding up to the prize; return what it paid."""
    assert prize.status == PromotionPrize.Status.APPROVED
    assert prize.verified_by is not None and prize.approved_by is not None
    assert prize.verified_by != prize.approved_by
    payables = Payable.objects.filter(pk__in=prize.awards.values("payable"))
    assert set(payables.values_list("status", flat=True)) <= {Payable.Status.PAID}
    total = prize.house_cents + prize.pool_cents
    assert sum(p.amount_cents for p in payables) == total
    return total


@pytest.mark.room_evening
def test_two_simulated_nights_book_every_hand_and_keep_the_books_straight(
    room_clock,
) -> None:
    """A night of 60 hands over HTTP at the demo room's three tables, then another
    an hour later: hands booked as posted and numbered on, stacks equal to the
    ledger, a bad beat verified and approved by two people and paid, pocket aces
    cracked paid by the house, the first night's hour of the high hand closed by
    the second and paid, a shift closed and signed off, players who left cashed
    out."""
    first = Night(NightOptions(tables=3, players=20, hands=60, seed=5)).run()

    assert first.hands_posted == first.hands_booked == 60
    assert night_hands(first).count() == 60
    assert first.replays > 0  # a terminal's retry got the first answer back
    assert first.seated_from_lists > 0 and first.buy_ins > 0
    books_are_straight()
    assert first.trial_balance_zero and first.cached_balances_agree

    [hit] = Hit.objects.filter(hand__in=night_hands(first))
    assert hit.status == Hit.Status.APPROVED
    assert hit.verified_by is not None and hit.approved_by is not None
    assert hit.verified_by != hit.approved_by  # BB5: two people
    payables = Payable.objects.filter(pk__in=hit.awards.values("payable"))
    assert payables.count() == hit.awards.exclude(amount_cents=0).count() >= 3
    assert set(payables.values_list("status", flat=True)) == {Payable.Status.PAID}
    assert sum(p.amount_cents for p in payables) == hit.payout_cents > 0
    assert first.hits[hit.pk].paid_cents == hit.payout_cents

    shift = Shift.objects.get(pk=first.shift)
    assert shift.cashier.username == NIGHT_CASHIER
    assert shift.status == Shift.Status.CLOSED
    assert shift.signed_off_by is not None and shift.signed_off_by != shift.cashier
    assert (shift.over_short_cash_cents or 0) < 0 == (shift.over_short_chips_cents or 0)

    assert first.cashed_out
    for code in first.cashed_out:
        assert Account.objects.get(code=f"player:{code}:chips").balance_cents == 0
        assert Receipt.objects.filter(
            shift=shift, player__code=code, kind=Receipt.Kind.REDEMPTION
        ).exists()
    assert not TerminalKey.objects.filter(revoked=False, name__contains=first.run)

    # The tournament beside the cash games: played to its last payout, with two
    # out in one hand, two sharing a place hand-for-hand, a table broken, a deal;
    # the pool empty, the chips exact; the next event running with its clock.
    t = first.tournament
    assert t is not None
    assert (t.entries, t.rebuys, t.addons) == (12, 1, 2)
    assert t.same_hand == 1 and t.hand_for_hand == 2 and t.broken == ["TT1"]
    assert t.deal_players == 3 and t.chips_balanced
    assert t.paid_cents == t.pool_cents > 0
    event = Event.objects.get(code=t.event)
    assert event.status == Event.Status.FINISHED
    assert chart.prize_pool(event=t.event, currency="EUR").balance_cents == 0
    shared = Bust.objects.filter(event=event, hand_for_hand=True)
    assert {(b.place_high, b.place_low) for b in shared} == {(7, 8)}
    running = Event.objects.get(code=t.running)
    assert running.status == Event.Status.RUNNING
    assert selectors.clock_of(running).state.status == "running"

    # The promotions (PR1-PR5): the room's hourly high hand and aces cracked,
    # qualified by the sweep; the bonus found, decided by two people and paid.
    high_hand = Promotion.objects.get(kind=Promotion.Kind.HIGH_HAND)
    aces = Promotion.objects.get(kind=Promotion.Kind.ACES_CRACKED)
    assert set(first.promotions) == {high_hand.name, aces.name}
    bonuses = PromotionPrize.objects.filter(promotion=aces)
    assert bonuses.exists()
    for prize in bonuses:
        assert prize_paid_in_full(prize) == prize.house_cents > 0
        assert first.prizes[prize.pk].paid_cents == prize.house_cents
    assert Account.objects.get(code=EXPENSE).balance_cents == sum(
        p.house_cents for p in bonuses
    )
    hour = datetime(2026, 11, 29, 21, 0, tzinfo=HELSINKI)
    entries = PromotionEntry.objects.filter(promotion=high_hand, period_start=hour)
    assert entries.filter(hand__in=night_hands(first)).exists()
    [leader] = first.leaders
    assert leader.start == hour and leader.hand and leader.players
    assert not PromotionPrize.objects.filter(promotion=high_hand).exists()

    # An hour later the next night closes the first night's hour: its best hand
    # wins the drop's prize (PR1, PR2), decided by two people and paid.
    room_clock.shift(timedelta(hours=1, minutes=2))
    last = night_hands(first).values("table__code").annotate(n=Max("hand_no"))
    out = io.StringIO()
    call_command(
        "simulate_night", "--hands", "40", "--players", "20", "--seed", "6", stdout=out
    )
    report = out.getvalue()
    assert "40 posted, 40 booked" in report
    assert "trial balance: zero, cached balances agree" in report
    [period] = PromotionPrize.objects.filter(
        promotion=high_hand, kind=PromotionPrize.Kind.PERIOD, period_start=hour
    )
    assert period.closed_source == "simulate_night"
    assert period.details["hands"][0]["hand"] == leader.hand
    assert {a.player.code for a in period.awards.all()} == set(leader.players)
    assert prize_paid_in_full(period) == period.pool_cents > 0
    assert f"promotion: prize #{period.pk} ({high_hand.name}) for 21:00–22:00" in (
        report
    )
    pool = high_hand.pool.account
    pool.refresh_from_db()
    assert pool.balance_cents >= 0
    assert pool.balance_cents == -sum(
        Entry.objects.filter(account=pool).values_list("amount_cents", flat=True)
    )
    for row in last:
        later = Hand.objects.filter(
            table__code=row["table__code"], hand_no__gt=row["n"]
        ).aggregate(first=Min("hand_no"))
        assert later["first"] in (None, row["n"] + 1)  # the numbering goes on
    assert Hand.objects.count() == 100
    shifts = Shift.objects.filter(cashier__username=NIGHT_CASHIER)
    assert shifts.count() == 2
    assert set(shifts.values_list("status", flat=True)) == {Shift.Status.CLOSED}
    books_are_straight()

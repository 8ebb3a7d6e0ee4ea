"""A simulated night through the real HTTP server keeps every book straight, twice."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db.models import Max, Min

from accounting.models import Account, Payable, Receipt, Shift
from accounting.selectors import trial_balance
from cardroom.models import Hand, HandException, SeatSession, TerminalKey
from jackpots.models import Hit
from simulation.night import NIGHT_CASHIER, Night, NightOptions, Summary
from tournaments import chart, selectors
from tournaments.models import Bust, Event

pytestmark = pytest.mark.django_db(transaction=True)


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


def test_two_simulated_nights_book_every_hand_and_keep_the_books_straight() -> None:
    """A night of 60 hands over HTTP at the demo room's three tables, then another:
    hands booked as posted and numbered on, stacks equal to the ledger, a bad beat
    verified and approved by two people and paid, a shift closed and signed off,
    players who left cashed out."""
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

    last = night_hands(first).values("table__code").annotate(n=Max("hand_no"))
    out = io.StringIO()
    call_command(
        "simulate_night", "--hands", "40", "--players", "20", "--seed", "6", stdout=out
    )
    report = out.getvalue()
    assert "40 posted, 40 booked" in report
    assert "trial balance: zero, cached balances agree" in report
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

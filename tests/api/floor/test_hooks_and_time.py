"""Time collection booking (RK6) and the hooks the apps above the floor use."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import Account
from accounting.services import Leg
from cardroom import services
from cardroom.models import SeatSession
from tests.api.floor.conftest import post_hand, seat
from tests.api.floor.test_hands import heads_up, ledger_agrees_with_sessions, t01

pytestmark = pytest.mark.django_db
__all__ = ["t01"]
CALLS: list[int] = []


def to_two_pools(*, room, table, amount_cents, accounts):
    """A test splitter: half to each of two pools."""
    half = amount_cents // 2
    return [
        Leg(chart.jackpot_pool(pool="a"), -half),
        Leg(chart.jackpot_pool(pool="b"), half - amount_cents),
    ]


def remember(hand_id: int) -> None:
    CALLS.append(hand_id)


def test_time_collection_books_to_revenue_once_per_period(t01):
    """RK6: each charged seat pays into time revenue; a retry books nothing."""
    services.seat_time_charge(
        table_code="T01",
        charges={1: 600, 2: 600},
        reference="2026-11-29T21:00",
        source="test",
    )
    services.seat_time_charge(
        table_code="T01",
        charges={1: 600, 2: 600},
        reference="2026-11-29T21:00",
        source="test",
    )
    assert chart.time_revenue().balance_cents == 1_200
    assert dict(SeatSession.objects.values_list("seat", "stack_cents")) == {
        1: 19_400,
        2: 19_400,
    }
    ledger_agrees_with_sessions()


def test_time_beyond_the_stack_is_refused(t01):
    """RK6: a seat can't pay more than it holds."""
    with pytest.raises(Exception) as refused:
        services.seat_time_charge(
            table_code="T01", charges={1: 20_001}, reference="p", source="test"
        )
    assert refused.value.rule == "RK6"


def test_drop_goes_through_the_configured_splitter_and_hooks_run_after_commit(
    clock, open_table, players, settings, django_capture_on_commit_callbacks
):
    """JD4 hook: the drop is split by the configured function; hooks run on commit."""
    settings.CARDROOM_JACKPOT_DROP_LEGS = f"{__name__}.to_two_pools"
    settings.CARDROOM_HAND_BOOKED = [f"{__name__}.remember"]
    t = open_table("T01")
    for n in range(1, 7):
        seat(t, "T01", n, f"P-{n}", 20_000)
    hand = heads_up()
    hand["seats"] += [
        {
            "seat": n,
            "player": f"P-{n}",
            "stack": 20_000,
            "present": True,
            "put_in": 200,
            "folded": True,
        }
        for n in range(3, 7)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        answer = post_hand(t, "T01", hand)
    assert answer.json()["jackpot_drop"] == 100
    assert Account.objects.get(code="jackpot:a:pool").balance_cents == 50
    assert Account.objects.get(code="jackpot:b:pool").balance_cents == 50
    assert CALLS[-1] > 0

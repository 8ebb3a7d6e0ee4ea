"""A closed period's jackpot report holds only that period's hand-of-the-month
hands: those that ended before its last gaming day's cut-off in the room's time
zone (HM1, BI8), though the month's standings run on (HM4)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Max

from accounting.models import Player
from cardroom.models import Hand
from jackpots.models import MonthHand, Pool
from jackpots.selectors import month_standings
from reports.document import rows_of
from reports.services import report_generate
from tests.integration.reports.day import local

from .conftest import DAY

pytestmark = pytest.mark.django_db

ROYAL = ["As", "Ks", "Qs", "Js", "Ts"]


def entry(pool, hand, player, *, key: int, ended_at, seat: int, description: str):
    return MonthHand.objects.create(
        pool=pool,
        month=DAY.replace(day=1),
        hand=hand,
        ended_at=ended_at,
        seat=seat,
        player=player,
        key=key,
        description=description,
        cards=ROYAL,
    )


def test_the_standings_of_a_closed_day_stop_at_its_cut_off(played_day, clock):
    pool = Pool.objects.get(kind=Pool.Kind.HAND_OF_THE_MONTH)
    hand = Hand.objects.filter(status=Hand.Status.BOOKED).order_by("pk").first()
    best = MonthHand.objects.aggregate(k=Max("key"))["k"]
    before = Player.objects.create(code="P-EARLY", name="Early Bird")
    after = Player.objects.create(code="P-LATE", name="Late Comer")
    cut_off = local(DAY + timedelta(days=1), 6)  # 06:00 Helsinki: the day's end
    entry(
        pool,
        hand,
        before,
        key=best + 1,
        ended_at=cut_off - timedelta(minutes=1),  # 05:59: still DAY's gaming day
        seat=98,
        description="royal flush, before the cut-off",
    )
    entry(
        pool,
        hand,
        after,
        key=best + 2,
        ended_at=cut_off,  # 06:00: the next gaming day's first moment
        seat=99,
        description="royal flush, at the cut-off",
    )
    clock.now = local(DAY + timedelta(days=1), 12)
    report = report_generate(
        kind="jackpot", first=DAY, source="command", now=clock.now
    ).report
    standings = rows_of(report.data, "hm_standings")
    assert standings[0]["hand"] == "royal flush, before the cut-off"
    assert standings[0]["player"] == before.code
    assert after.code not in {r["player"] for r in standings}
    assert all(r["ended_at"] < "2026-11-28 06:00:00" for r in standings)
    # The month runs on: its live standings (HM4) have the later hand first.
    live = month_standings(pool=pool, month=DAY.replace(day=1))
    assert live[0].description == "royal flush, at the cut-off"

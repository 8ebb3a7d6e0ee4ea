"""The gaming day computed on the database agrees with the domain's (BI8)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounting.domain.gaming_day import gaming_day
from accounting.models import CashTransaction, Player
from cardroom.models import Room
from reports.selectors import Period

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("cutoff", [0, 3, 4, 6])
@pytest.mark.parametrize(
    "around",
    [
        datetime(2026, 3, 28, 18, tzinfo=UTC),  # clocks go forward on the 29th
        datetime(2026, 10, 24, 18, tzinfo=UTC),  # and back on the 25th
        datetime(2026, 11, 29, 0, tzinfo=UTC),
    ],
)
def test_sql_gaming_day_matches_the_domain_across_clock_changes(cutoff, around):
    """Every 10 minutes for 16 hours, in Helsinki, with cut-offs at 0, 3, 4 and 6."""
    room = Room(time_zone="Europe/Helsinki", gaming_day_cutoff_hour=cutoff)
    moments = [around + timedelta(minutes=10 * n) for n in range(96)]
    player = Player.objects.create(code="P-1", name="Probe")
    CashTransaction.objects.bulk_create(
        CashTransaction(
            player=player,
            gaming_day=date(2026, 1, 1),
            kind="probe",
            amount_cents=1,
            at=m,
        )
        for m in moments
    )
    period = Period.of(room, date(2026, 1, 1))
    got = dict(
        CashTransaction.objects.annotate(day=period.gaming_day_of("at")).values_list(
            "at", "day"
        )
    )
    tz = ZoneInfo("Europe/Helsinki")
    assert {m: gaming_day(m, tz, cutoff) for m in moments} == got

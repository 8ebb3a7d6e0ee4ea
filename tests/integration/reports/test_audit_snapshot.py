"""The daily audit from the balances stored at the day's opening gives what the
audit of the whole history gives, postings made after the snapshot and dated
before it (or into the day, out of order) included."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounting import chart
from accounting.models import BalanceSnapshot
from accounting.services import Leg, snapshot_at, transaction_post
from cardroom.services import room_default
from reports.builders import daily_audit
from reports.document import rows_of
from reports.selectors import Period
from tests.integration.reports.conftest import DAY
from tests.integration.reports.day import local

pytestmark = pytest.mark.django_db
COLUMNS = ("opening", "debits", "credits", "closing", "ledger_closing")


def trial(data) -> dict[str, tuple[int, ...]]:
    return {
        r["account"]: tuple(r[c] for c in COLUMNS)
        for r in rows_of(data, "trial_balance")
    }


def test_audit_from_the_snapshot_equals_the_audit_of_all_entries(played_day, clock):
    period = Period.of(room_default(), DAY)
    snapshot = snapshot_at(period.start)  # the whole day was posted before it
    assert snapshot.at == period.start
    clock.now += timedelta(minutes=10)
    late = [
        # made now, dated before the snapshot's moment: the evening before
        (local(DAY - timedelta(days=1), 23), 700),
        # made now, dated into the day, after postings made before it
        (local(DAY, 23, 30), 250),
    ]
    for posted_at, cents in late:
        transaction_post(
            kind="hand",
            legs=[
                Leg(chart.table_rake_box(table="A1"), cents),
                Leg(chart.rake_revenue(), -cents),
            ],
            source="test",
            posted_at=posted_at,
        )
    assert BalanceSnapshot.objects.get(at=period.start) == snapshot  # not retaken
    now = clock.now
    from_snapshot = daily_audit(period=period, now=now, snapshot=snapshot)
    full = daily_audit(period=period, now=now, full=True)
    assert trial(from_snapshot) == trial(full)
    rake = trial(full)["revenue:rake"]
    assert rake[0] >= 700 and rake[2] >= 250  # the late postings are in
    failed = [c for c in rows_of(from_snapshot, "checks") if not c["agrees"]]
    assert failed == [c for c in rows_of(full, "checks") if not c["agrees"]]
    notes = {s["key"]: s.get("note", "") for s in from_snapshot["sections"]}
    assert period.start.isoformat() in notes["trial_balance"]

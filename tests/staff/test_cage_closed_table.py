"""The cage's queue says which fills wait for a table that has closed, and
refuses to issue them in words (CA3)."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import TableSlip
from cardroom.models import Table

from .test_cage_views import key_of, text

pytestmark = pytest.mark.django_db


def test_a_fill_for_a_table_closed_since_is_flagged_and_refused(
    desk, opened, fill, player
):
    Table.objects.create(code="T01", name="Hold'em 1/2", seats=9)  # closed
    queue = text(desk.get("/cage/queue"))
    assert "table closed" in queue
    assert "CA3: table T01 has closed: a closed table gets no fills." in queue
    assert "Issue the fill" not in queue
    # A form sent anyway (a stale page) is refused in words, and nothing moves.
    page = desk.get(f"/cage/players/{player.code}")
    answer = desk.post(f"/cage/slips/{fill.pk}/issue", {"once": key_of(page)})
    shown = text(desk.get(answer["Location"]))
    assert f"CA3: fill {fill.pk} is for table T01, which has closed" in shown
    fill.refresh_from_db()
    assert fill.status == TableSlip.Status.PENDING
    assert chart.table_tray(table="T01").balance_cents == 0

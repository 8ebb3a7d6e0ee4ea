"""The daily audit's player-protection sections (PP2–PP7), from a day's records."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from accounting.models import DoorRefusal, Player
from accounting.services import cage as services
from accounting.services.cage import Door, door_check, restriction_end, restriction_set
from accounting.services.cage.protection import (
    document_number_show,
    document_record,
    refusals_remember,
    refusals_write,
)
from cardroom.services import room_default
from core.errors import Refusal
from core.roles import Role
from reports.builders import daily_audit
from reports.document import rows_of
from reports.selectors import Period
from tests.integration.cage.helpers import book_award
from tests.integration.reports.day import local

pytestmark = pytest.mark.django_db
DAY = date(2026, 11, 27)


def refused_at(player: Player, door: Door) -> None:
    """A door asked as a request asks it: the refusal kept after it is answered."""
    token = refusals_remember()
    try:
        with pytest.raises(Refusal):
            door_check(player=player, door=door)
    finally:
        refusals_write(token)


@pytest.fixture
def night(clock, make_staff):
    clock.now = local(DAY, 20)
    boss = make_staff("boss", Role.MANAGER)
    other = make_staff("other-boss", Role.MANAGER)
    floor = make_staff("floor-1", Role.FLOOR)
    young = Player.objects.create(
        code="P-17", name="Young", birth_date=date(2010, 1, 1)
    )
    cheat = Player.objects.create(
        code="P-66", name="Cheat", birth_date=date(1970, 1, 1)
    )
    own = Player.objects.create(code="P-77", name="Own", birth_date=date(1980, 1, 1))
    refused_at(young, Door.SEAT)
    refused_at(young, Door.WAITLIST)
    bar = restriction_set(
        player=cheat,
        kind="bar",
        scope="room",
        until=None,
        reason="Chip dumping",
        by=boss,
    )
    clock.advance(minutes=30)
    refused_at(cheat, Door.BUY_IN)
    refused_at(cheat, Door.BUY_IN)
    restriction_set(
        player=own,
        kind="self_exclusion",
        scope="cash",
        until=DAY + timedelta(days=365),
        reason="Asked at the desk",
        by=boss,
    )
    award = services.payable_create(
        player=own,
        amount_cents=40_000,
        reference="bad beat hit 3",
        approved_by=boss,
        created_by=floor,
        booking=book_award(own.code, 40_000),
    )
    document = document_record(
        player=cheat, kind="passport", number="XK1234567", expires=None, by=boss
    )
    document_number_show(document=document, by=other, purpose="police request")
    clock.advance(hours=2)
    restriction_end(restriction=bar, reason="Cleared on review", by=other)
    clock.now = local(DAY + timedelta(days=1), 7)
    return award


def test_the_audit_lists_refusals_restrictions_held_awards_and_lookups(night, clock):
    room = room_default()
    report = daily_audit(period=Period.of(room, DAY), now=clock.now)
    refusals = rows_of(report, "protection_refusals")
    assert [(r["rule"], r["door"], r["refusals"], r["players"]) for r in refusals] == [
        ("PP2", "seat", 1, 1),
        ("PP2", "waitlist", 1, 1),
        ("PP3", "buy_in", 2, 1),
    ]
    assert DoorRefusal.objects.count() == 4
    events = rows_of(report, "protection_restrictions")
    assert [(e["player"], e["event"], e["by"]) for e in events] == [
        ("P-66", "begun", "boss"),
        ("P-77", "begun", "boss"),
        ("P-66", "ended early", "other-boss"),
    ]
    held = rows_of(report, "protection_held_awards")
    assert [
        (h["reference"], h["player"], h["amount"], h["decision"]) for h in held
    ] == [("bad beat hit 3", "P-77", 40_000, "held")]
    lookups = rows_of(report, "protection_document_lookups")
    assert [(x["by"], x["player"], x["purpose"]) for x in lookups] == [
        ("other-boss", "P-66", "police request")
    ]
    # No document number is in the report.
    assert "XK1234567" not in str(report)


def test_a_day_without_any_has_empty_sections(clock):
    clock.now = local(DAY + timedelta(days=1), 7)
    report = daily_audit(period=Period.of(room_default(), DAY), now=clock.now)
    for key in (
        "protection_refusals",
        "protection_restrictions",
        "protection_held_awards",
        "protection_document_lookups",
    ):
        assert rows_of(report, key) == []

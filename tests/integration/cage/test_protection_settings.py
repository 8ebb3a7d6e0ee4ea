"""The protection settings' versions (PP2, PP4): two changes at once."""

from __future__ import annotations

import pytest

from accounting.services.cage import protection
from core.errors import Conflict
from core.roles import Role

pytestmark = pytest.mark.django_db


def change(by, **values):
    return protection.protection_settings_change(
        min_age=values.get("min_age", 18),
        min_self_exclusion_days=180,
        cooling_off_hours=24,
        note="licence",
        by=by,
    )


def test_the_second_of_two_changes_at_once_is_409_and_writes_nothing(
    make_staff, monkeypatch
):
    boss = make_staff("rules-boss", Role.MANAGER)
    first = change(boss, min_age=19)
    assert (first.version, protection.protection_settings().min_age) == (1, 19)
    # The other desk read the settings before the first change was recorded.
    stale = protection.Settings(0, 18, 180, 24)
    monkeypatch.setattr(protection, "protection_settings", lambda: stale)
    with pytest.raises(Conflict) as late:
        change(boss, min_age=21)
    assert late.value.code == "settings_changed"
    monkeypatch.undo()
    assert protection.protection_settings().min_age == 19

"""The player-protection rules (PP2–PP6) as pure functions, by the thousand."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from accounting.domain.protection import (
    OPEN_DOORS,
    Door,
    Kind,
    Restriction,
    Scope,
    active,
    age_on,
    closes,
    held,
    lapse_at,
    refusal,
)

NOW = datetime(2026, 12, 15, 20, 0, tzinfo=UTC)
DAY = date(2026, 12, 15)
COOL = timedelta(hours=24)
days = st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31))


def adult() -> date:
    return date(1980, 5, 17)


@given(birth=days, day=days)
def test_age_is_whole_years_counted_on_the_birthday(birth, day):
    age = age_on(birth, day)
    # The birthday of ``age`` is on or before ``day``, the next after it.
    try:
        last = birth.replace(year=birth.year + age)
    except ValueError:  # 29 February in a year without one: 1 March
        last = date(birth.year + age, 3, 1)
    assert last <= day
    try:
        following = birth.replace(year=birth.year + age + 1)
    except ValueError:
        following = date(birth.year + age + 1, 3, 1)
    assert following > day


def test_a_leap_day_birthday_comes_of_age_on_1_march():
    assert age_on(date(2008, 2, 29), date(2026, 2, 28)) == 17
    assert age_on(date(2008, 2, 29), date(2026, 3, 1)) == 18


@given(day=days, door=st.sampled_from(Door))
def test_pp2_under_age_or_no_birth_date_is_refused_at_every_door_but_redemption(
    day, door
):
    seventeen = date(day.year - 17, 1, 1) if day.year > 1917 else date(1900, 1, 1)
    for birth in (None, seventeen):
        found = refusal(
            door=door,
            birth_date=birth,
            restrictions=[],
            at=NOW,
            day=day,
            min_age=18,
            cooling_off=COOL,
        )
        if door in OPEN_DOORS:
            assert found is None
        elif birth is None or age_on(birth, day) < 18:
            assert found is not None
            assert (found.rule, found.code) == ("PP2", "under_age")


def test_pp2_the_gaming_day_decides():
    birth = date(2008, 12, 15)
    before = refusal(
        door=Door.SEAT,
        birth_date=birth,
        restrictions=[],
        at=NOW,
        day=date(2026, 12, 14),
        min_age=18,
        cooling_off=COOL,
    )
    after = refusal(
        door=Door.SEAT,
        birth_date=birth,
        restrictions=[],
        at=NOW,
        day=date(2026, 12, 15),
        min_age=18,
        cooling_off=COOL,
    )
    assert before is not None and before.params["age"] == 17
    assert after is None


restrictions = st.builds(
    Restriction,
    kind=st.sampled_from(Kind),
    scope=st.sampled_from(Scope),
    starts=st.just(NOW - timedelta(days=3)),
    until=st.one_of(st.none(), st.dates(date(2026, 12, 1), date(2027, 12, 31))),
    id=st.integers(1, 1000),
)


@given(one=restrictions, door=st.sampled_from(Door))
def test_a_restriction_refuses_exactly_the_doors_its_scope_closes(one, door):
    found = refusal(
        door=door,
        birth_date=adult(),
        restrictions=[one],
        at=NOW,
        day=DAY,
        min_age=18,
        cooling_off=COOL,
    )
    holds = active(one, at=NOW, day=DAY, cooling_off=COOL)
    if holds and closes(one.scope, door):
        assert found is not None
        expected = ("PP3", "player_barred")
        if one.kind == Kind.SELF_EXCLUSION:
            expected = ("PP4", "player_self_excluded")
        assert (found.rule, found.code) == expected
        assert found.params["until"] == (one.until.isoformat() if one.until else None)
    else:
        assert found is None


@given(door=st.sampled_from(Door), scope=st.sampled_from(Scope))
def test_pp5_no_restriction_closes_a_redemption(door, scope):
    assert closes(scope, Door.REDEMPTION) is False
    if door not in OPEN_DOORS and scope == Scope.ROOM:
        assert closes(scope, door)


def test_scopes_split_cash_and_tournaments():
    assert closes(Scope.CASH, Door.BUY_IN) and not closes(Scope.CASH, Door.TOURNAMENT)
    assert closes(Scope.TOURNAMENTS, Door.PRIZE)
    assert not closes(Scope.TOURNAMENTS, Door.CHIP_PURCHASE)


def test_pp3_a_bar_ends_at_its_until_or_when_ended_early():
    bar = Restriction(Kind.BAR, Scope.ROOM, NOW - timedelta(days=1), date(2026, 12, 20))
    assert active(bar, at=NOW, day=DAY, cooling_off=COOL)
    assert not active(bar, at=NOW, day=date(2026, 12, 20), cooling_off=COOL)
    ended = Restriction(
        Kind.BAR, Scope.ROOM, bar.starts, None, ended=NOW - timedelta(minutes=1)
    )
    assert not active(ended, at=NOW, day=DAY, cooling_off=COOL)
    assert active(ended, at=NOW - timedelta(hours=1), day=DAY, cooling_off=COOL)


def test_pp4_a_self_exclusion_holds_past_its_end_until_asked_and_cooled_off():
    starts = NOW - timedelta(days=200)
    until = date(2026, 12, 10)
    running = Restriction(Kind.SELF_EXCLUSION, Scope.ROOM, starts, until)
    # Its period is over but nobody asked: it holds.
    assert active(running, at=NOW, day=DAY, cooling_off=COOL)
    assert lapse_at(running, asked=NOW, day=date(2026, 12, 9), cooling_off=COOL) is None
    lapses = lapse_at(running, asked=NOW, day=DAY, cooling_off=COOL)
    assert lapses == NOW + COOL
    asked = Restriction(Kind.SELF_EXCLUSION, Scope.ROOM, starts, until, lapse_asked=NOW)
    assert active(
        asked, at=NOW + COOL - timedelta(seconds=1), day=DAY, cooling_off=COOL
    )
    assert not active(asked, at=NOW + COOL, day=DAY, cooling_off=COOL)
    for_good = Restriction(
        Kind.SELF_EXCLUSION, Scope.ROOM, starts, None, lapse_asked=NOW
    )
    assert active(for_good, at=NOW + timedelta(days=9999), day=DAY, cooling_off=COOL)
    assert lapse_at(for_good, asked=NOW, day=DAY, cooling_off=COOL) is None


def test_a_restriction_recorded_later_does_not_hold_before_it_starts():
    later = Restriction(Kind.BAR, Scope.ROOM, NOW + timedelta(minutes=5), None)
    assert not active(later, at=NOW, day=DAY, cooling_off=COOL)


@given(one=restrictions)
def test_pp6_held_names_the_restriction_and_ignores_age(one):
    found = held(door=Door.AWARD, restrictions=[one], at=NOW, day=DAY, cooling_off=COOL)
    if active(one, at=NOW, day=DAY, cooling_off=COOL) and closes(one.scope, Door.AWARD):
        assert found is not None
        assert (found.rule, found.code) == ("PP6", "award_held")
        assert found.params["because"] in {"PP3", "PP4"}
    else:
        assert found is None


def test_self_exclusion_comes_before_a_bar():
    bar = Restriction(Kind.BAR, Scope.ROOM, NOW - timedelta(days=1), None, id=1)
    own = Restriction(
        Kind.SELF_EXCLUSION, Scope.CASH, NOW - timedelta(days=1), None, id=2
    )
    found = refusal(
        door=Door.BUY_IN,
        birth_date=adult(),
        restrictions=[bar, own],
        at=NOW,
        day=DAY,
        min_age=18,
        cooling_off=COOL,
    )
    assert (
        found is not None and found.rule == "PP4" and found.params["restriction"] == 2
    )

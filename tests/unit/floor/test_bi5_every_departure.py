"""BI5 over every departure of the night, not only the last one (RULES.md BI5, BI8).

The player's night is the list of his departures: the table, its game, the stack he
left with. Per game (structure and stakes) the latest departure is the stack he has
in that game, and each game's stack binds him where he sits down again.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.domain.buyin import (
    BuyInRefused,
    Departure,
    Kind,
    PlayerNight,
    Stakes,
    decide,
    one_night_one_stack,
    seat_allowance,
)

NOW = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)
DAY = date(2026, 11, 29)
NL12 = Stakes("NLHE", 100, 200, 10_000, 40_000)
NL510 = Stakes("NLHE", 500, 1_000, 20_000, 100_000)
NL25 = Stakes("NLHE", 200, 500, 20_000, 40_000)
PLO12 = Stakes("PLO", 100, 200, 10_000, 40_000)


def left(table: str, stakes: Stakes, stack: int, minutes_ago: int, day=DAY):
    return Departure(table, stakes, stack, NOW - timedelta(minutes=minutes_ago), day)


def allowance(table: str, stakes: Stakes, *departures: Departure):
    night = PlayerNight(DAY, None, len(departures), False, tuple(departures))
    return seat_allowance(table=table, stakes=stakes, night=night, now=NOW)


class TestTheIssuesCases:
    def test_back_to_t1_after_a_plo_table_more_than_an_hour_later(self):
        """Left T1 with €350, played PLO, back to T1 over an hour later: €350.

        The last departure is the PLO table's (BI5 d, the minimum); the T1 one
        still binds him at T1 (BI5 a), after BI6's hour is over.
        """
        night = (left("T1", NL12, 35_000, 150), left("P1", PLO12, 12_000, 70))
        a = allowance("T1", NL12, *night)
        assert (a.kind, a.min, a.min_rule) == (Kind.RETURN, 35_000, "BI5")
        with pytest.raises(BuyInRefused) as refused:
            decide(10_000, a)
        assert refused.value.rule == "BI5"
        assert refused.value.allowed == {"min": 35_000, "max": 40_000}
        assert "He left T1 with 35000" in refused.value.detail
        assert decide(35_000, a) is Kind.RETURN

    def test_back_up_to_five_ten_after_moving_down(self):
        """Left 5/10 with €3,000, moved down with €400, back to 5/10: €3,000."""
        night = (left("H1", NL510, 300_000, 180), left("L1", NL25, 40_000, 90))
        a = allowance("H1", NL510, *night)
        assert (a.min, a.min_rule) == (300_000, "BI5")
        with pytest.raises(BuyInRefused) as refused:
            decide(50_000, a)
        assert (refused.value.rule, refused.value.allowed["min"]) == ("BI5", 300_000)
        # Another 5/10 table binds him the same way (BI5 b).
        assert allowance("H2", NL510, *night).min == 300_000


class TestPerGame:
    def test_a_later_departure_from_the_same_game_supersedes(self):
        """He brought his 1/2 stack to another 1/2 table and lost most of it."""
        night = (left("T1", NL12, 35_000, 200), left("T2", NL12, 12_000, 100))
        assert allowance("T1", NL12, *night).min == 12_000
        assert allowance("T3", NL12, *night).min == 12_000

    def test_running_out_in_a_game_ends_that_games_stack(self):
        """He busted at the second 1/2 table: the minimum again in that game."""
        night = (left("T1", NL12, 35_000, 200), left("T2", NL12, 0, 100))
        assert allowance("T1", NL12, *night).min == 10_000

    def test_moving_down_is_capped_by_every_higher_game(self):
        """BI5 c for each higher game of the structure: capped at the maximum."""
        night = (left("H1", NL510, 300_000, 200), left("M1", NL25, 30_000, 100))
        a = allowance("T1", NL12, *night)
        assert (a.min, a.max) == (40_000, 40_000)

    def test_yesterdays_departures_do_not_count(self):
        """BI5 is per gaming day (BI8); yesterday's stack doesn't bind him."""
        old = left("T1", NL12, 35_000, 300, day=DAY - timedelta(days=1))
        assert allowance("T1", NL12, old).min == 10_000


games = st.sampled_from(
    [
        NL12,
        NL25,
        NL510,
        PLO12,
        Stakes("PLO", 500, 1_000, 30_000, 150_000),
        Stakes("LHE", 100, 200, 4_000, None),
    ]
)
departures = st.lists(
    st.builds(
        left,
        st.sampled_from(["T1", "T2", "T3"]),
        games,
        st.integers(0, 400_000),
        st.integers(61, 600),
        st.sampled_from([DAY, DAY, DAY - timedelta(days=1)]),
    ),
    max_size=8,
    # One seat at a time (WL6): no two departures of a player at one moment.
    unique_by=lambda d: d.left_at,
)


def _need(dep: Departure, stakes: Stakes) -> int:
    """What one departure asks at ``stakes``, written from RULES.md BI5 a–e."""
    if dep.stack == 0 or dep.stakes.structure is not stakes.structure:
        return stakes.min_buy_in
    if stakes.big_blind < dep.stakes.big_blind and stakes.max_buy_in is not None:
        return max(min(dep.stack, stakes.max_buy_in), stakes.min_buy_in)
    return max(dep.stack, stakes.min_buy_in)


def _latest_per_game(deps: list[Departure]) -> list[Departure]:
    today = sorted((d for d in deps if d.gaming_day == DAY), key=lambda d: d.left_at)
    return [
        d
        for i, d in enumerate(today)
        if not any(_key(e) == _key(d) for e in today[i + 1 :])
    ]


def _key(dep: Departure) -> tuple[object, int, int]:
    s = dep.stakes
    return (s.structure, s.small_blind, s.big_blind)


def decision(table: str, stakes: Stakes, deps: list[Departure]):
    return one_night_one_stack(
        table=table, stakes=stakes, departures=tuple(deps), gaming_day=DAY
    )


@given(st.sampled_from(["T1", "T2", "T4"]), games, departures)
def test_no_games_stack_is_left_behind(table, stakes, deps):
    """Every game's last stack of the night binds him; the minimum always does."""
    got = decision(table, stakes, deps)
    assert got.min >= stakes.min_buy_in
    for dep in _latest_per_game(deps):
        assert got.min >= _need(dep, stakes)


@given(st.sampled_from(["T1", "T2", "T4"]), games, departures)
def test_the_minimum_is_what_one_departure_asks(table, stakes, deps):
    """Nothing is made up: the minimum is the table's or one departure's."""
    got = decision(table, stakes, deps)
    needs = [_need(d, stakes) for d in _latest_per_game(deps)]
    assert got.min == max([stakes.min_buy_in, *needs])
    if got.rule == "BI5":
        assert got.binding in _latest_per_game(deps)
        assert _need(got.binding, stakes) == got.min


@given(st.sampled_from(["T1", "T2"]), games, departures, departures)
def test_other_days_and_the_order_given_change_nothing(table, stakes, deps, other):
    """Only today's departures count, in the order they happened."""
    yesterday = [
        Departure(d.table, d.stakes, d.stack, d.left_at, DAY - timedelta(days=1))
        for d in other
    ]
    base = decision(table, stakes, deps)
    assert decision(table, stakes, list(reversed(deps)) + yesterday).min == base.min


@given(st.sampled_from(["T1", "T2"]), games, departures, games, st.integers(1, 10**6))
def test_leaving_another_game_with_chips_never_lowers_the_minimum(
    table, stakes, deps, other, stack
):
    """A departure from another game adds a stack; it can't free him of one."""
    if _key(left("X", other, 0, 0)) == _key(left("X", stakes, 0, 0)):
        return
    if any(_key(d) == _key(left("X", other, 0, 0)) for d in deps):
        return
    before = decision(table, stakes, deps)
    after = decision(table, stakes, [*deps, left("T9", other, stack, 60)])
    assert after.min >= before.min


@given(games, departures, st.integers(1, 10**6))
def test_returning_to_the_table_he_left_is_a_return(stakes, deps, stack):
    """BI5 a: the last departure of this game was from this table."""
    got = decision("T7", stakes, [*deps, left("T7", stakes, stack, 60)])
    assert got.kind is Kind.RETURN
    assert got.min >= max(stack, stakes.min_buy_in)


@given(
    st.sampled_from(["T1", "T2", "T4"]),
    games,
    departures,
    st.integers(1, 600_000),
)
def test_a_decision_over_a_whole_night_is_within_what_it_says(
    table, stakes, deps, amount
):
    """Accepted amounts lie in the allowance; a refusal names a rule and bounds."""
    a = allowance(table, stakes, *deps)
    assert a.max is None or a.min <= a.max
    assert a.min >= stakes.min_buy_in
    try:
        kind = decide(amount, a)
    except BuyInRefused as err:
        assert err.rule in {"BI1", "BI4", "BI5", "BI6"}
        assert err.allowed["min"] == a.min
    else:
        assert kind in set(Kind)
        assert a.max is None or amount <= a.max
        assert amount >= (a.short_min if kind is Kind.SHORT_BUY_IN else a.min)

"""Drop splits, award shares, the month calendar and standings (JD4, BB6, HM1–HM4).

Shares are checked as properties over generated amounts: they always add up, they
differ from the exact proportion by less than a cent, ties differ by at most a cent
and the earlier recipient never gets less.
"""

from __future__ import annotations

import doctest
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jackpots.domain.months as months_module
import jackpots.domain.shares as shares_module
from jackpots.domain.months import (
    close_moment,
    month_bounds,
    month_of,
    months_due,
    parse_month,
    standings,
)
from jackpots.domain.rules import DEFAULT_CATEGORIES, CategoryRules, ConfigError
from jackpots.domain.shares import (
    PoolRatio,
    drop_split,
    percent_of,
    role_shares,
    tie_shares,
)

HELSINKI = ZoneInfo("Europe/Helsinki")
SEOUL = ZoneInfo("Asia/Seoul")

amounts = st.integers(min_value=0, max_value=10**10)
pool_ratios = st.lists(
    st.builds(
        PoolRatio,
        ratio=st.integers(min_value=0, max_value=50),
        reserve_percent=st.integers(min_value=0, max_value=100),
    ),
    min_size=1,
    max_size=6,
).filter(lambda pools: any(p.ratio for p in pools))


@given(amount=amounts, pools=pool_ratios)
def test_a_drop_split_adds_up_and_follows_the_ratios(amount, pools):
    """JD4: pools and reserves get the whole drop, each within a cent of its due."""
    parts = drop_split(amount, pools)
    assert len(parts) == len(pools)
    assert sum(a + b for a, b in parts) == amount
    total = sum(p.ratio * 100 for p in pools)
    for pool, (to_pool, to_reserve) in zip(pools, parts, strict=True):
        assert to_pool >= 0 and to_reserve >= 0
        due_pool = Fraction(amount * pool.ratio * (100 - pool.reserve_percent), total)
        due_reserve = Fraction(amount * pool.ratio * pool.reserve_percent, total)
        assert abs(to_pool - due_pool) < 1 and abs(to_reserve - due_reserve) < 1


roles = st.lists(
    st.tuples(st.integers(0, 100), st.integers(0, 9)), min_size=1, max_size=4
)


@given(payout=amounts, table=roles)
def test_award_shares_add_up_and_split_each_role_equally(payout, table):
    """BB6: the payout is paid whole when anyone can be paid; inside a role the
    shares differ by at most a cent, the earlier never less than the later."""
    shares = role_shares(payout, table)
    assert [len(s) for s in shares] == [members for _part, members in table]
    live = [(part, n) for part, n in table if part and n]
    assert sum(map(sum, shares)) == (payout if live else 0)
    parts = sum(part for part, _n in live)
    for (part, members), got in zip(table, shares, strict=True):
        if not part or not members:
            assert set(got) <= {0}
            continue
        assert abs(sum(got) - Fraction(payout * part, parts)) < 1
        assert max(got) - min(got) <= 1
        assert got == sorted(got, reverse=True)


@given(amount=amounts, count=st.integers(1, 12))
def test_ties_share_equally_earlier_first(amount, count):
    """HM2: equal shares; the odd cents go to the earlier hands."""
    shares = tie_shares(amount, count)
    assert sum(shares) == amount
    assert max(shares) - min(shares) <= 1
    assert shares == sorted(shares, reverse=True)


@given(amount=amounts, percent=st.integers(0, 100))
def test_a_percentage_is_rounded_down_and_the_rest_stays(amount, percent):
    """What a payout leaves is never negative and less than a cent off (BB2)."""
    paid = percent_of(amount, percent)
    assert 0 <= paid <= amount
    assert 0 <= Fraction(amount * percent, 100) - paid < 1


def test_bb2_default_payout_table():
    """Category 1 pays 90 %: loser 50, winner 25, three others share 25."""
    payout = percent_of(100_300, 90)
    assert payout == 90_270
    assert role_shares(payout, [(50, 1), (25, 1), (25, 3)]) == [
        [45_135],
        [22_568],
        [7_523, 7_522, 7_522],
    ]


# The calendar (HM1, HM3) --------------------------------------------------------------


def test_the_month_is_the_rooms_calendar_month():
    """Just after midnight in Helsinki on 1 November is still October in UTC."""
    at = datetime(2026, 10, 31, 22, 30, tzinfo=UTC)
    assert month_of(at, HELSINKI) == date(2026, 11, 1)
    assert month_of(at, UTC) == date(2026, 10, 1)
    start, end = month_bounds(date(2026, 10, 1), HELSINKI)
    # October ends at 00:00 on 1 November local time, after the DST change.
    assert start.astimezone(UTC) == datetime(2026, 9, 30, 21, 0, tzinfo=UTC)
    assert end.astimezone(UTC) == datetime(2026, 10, 31, 22, 0, tzinfo=UTC)


def test_a_month_closes_on_the_first_at_noon_local_time():
    """HM3's default, in each room's own time zone."""
    assert close_moment(date(2026, 11, 1), HELSINKI).astimezone(UTC) == datetime(
        2026, 12, 1, 10, 0, tzinfo=UTC
    )
    assert close_moment(date(2026, 11, 1), SEOUL).astimezone(UTC) == datetime(
        2026, 12, 1, 3, 0, tzinfo=UTC
    )
    moment = close_moment(date(2026, 12, 1), HELSINKI, day=2, hour=9)
    assert moment == datetime(2027, 1, 2, 9, 0, tzinfo=HELSINKI)


def test_months_due_catch_up_and_wait_for_the_moment():
    noon = close_moment(date(2026, 11, 1), HELSINKI)
    first = date(2026, 9, 1)
    assert months_due(first, noon - timedelta(seconds=1), HELSINKI) == [
        date(2026, 9, 1),
        date(2026, 10, 1),
    ]
    assert months_due(first, noon, HELSINKI)[-1] == date(2026, 11, 1)
    assert months_due(date(2026, 12, 1), noon, HELSINKI) == []


@pytest.mark.parametrize("text", ["2026-13", "2026-1", "26-11", "november", ""])
def test_a_month_is_written_yyyy_mm(text):
    with pytest.raises(ValueError):
        parse_month(text)


# Standings (HM2, HM4) -----------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    key: int
    ended_at: datetime
    hand_id: int
    seat: int
    player_id: int


T0 = datetime(2026, 11, 1, 20, 0, tzinfo=HELSINKI)


def entry(key: int, minutes: int, player: int, hand: int = 0, seat: int = 1) -> Entry:
    return Entry(key, T0 + timedelta(minutes=minutes), hand or minutes, seat, player)


def test_standings_list_each_players_best_hand_best_first():
    ordered = sorted(
        [
            entry(7000, 5, player=1),
            entry(7400, 9, player=2),
            entry(7300, 1, player=1),
            entry(7400, 3, player=3),
            entry(6000, 2, player=4),
        ],
        key=lambda e: (-e.key, e.ended_at, e.hand_id, e.seat),
    )
    table = standings(ordered, limit=3)
    assert [(e.player_id, e.key) for e in table] == [(3, 7400), (2, 7400), (1, 7300)]


# Category configuration (BB2) ---------------------------------------------------------


def test_the_default_categories_read_back_unchanged():
    for config in DEFAULT_CATEGORIES.values():
        rules = CategoryRules.from_config(config)
        assert CategoryRules.from_config(rules.to_config()) == rules


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"games": ["RAZZ"]}, "games"),
        ({"games": ["SOKO"]}, "games"),
        ({"games": []}, "games"),
        ({"min_losing_hand": ["As", "Ah", "Ad", "Ts"]}, "min_losing_hand"),
        ({"min_losing_hand": ["As", "As", "Ad", "Ts", "Th"]}, "min_losing_hand"),
        ({"min_losing_hand": ["10s", "Ah", "Ad", "Ts", "Th"]}, "min_losing_hand"),
        ({"min_participants": 1}, "min_participants"),
        ({"min_pot": -1}, "min_pot"),
        ({"payout": {"percent": 101, "loser": 1, "winner": 1, "table": 1}}, "payout."),
        ({"payout": {"percent": 90, "loser": 0, "winner": 0, "table": 0}}, "payout"),
        ({"card_use": {"loser": {"hole_cards": 3}}}, "card_use.loser.hole_cards"),
        ({"card_use": {"winner": {"quads_pocket_pair": "yes"}}}, "card_use.winner"),
    ],
)
def test_a_bad_category_names_the_field_at_fault(change, field):
    with pytest.raises(ConfigError) as refused:
        CategoryRules.from_config({**DEFAULT_CATEGORIES["1"], **change})
    assert refused.value.field.startswith(field)


def test_the_modules_examples_hold():
    for module in (shares_module, months_module):
        results = doctest.testmod(module)
        assert results.attempted and results.failed == 0

"""Promotions without a database: periods in room time, prize amounts, the rules
and the hands they pay (PR1–PR4).

The period arithmetic is checked as properties over generated instants, lengths,
anchors and zones, across the nights the clocks change and the gaming day's
cut-off: every instant is in exactly one period, periods follow each other with
no gap or overlap, and a period's boundaries are the wall-clock times the
promotion names.
"""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jackpots.domain.periods as periods_module
import jackpots.domain.promotions as promotions_module
from jackpots.domain.periods import PERIOD_MINUTES, period_of, periods_between
from jackpots.domain.promotions import (
    BOTH,
    DROP,
    EXAMPLES,
    HOUSE,
    Prize,
    PromotionHand,
    PromotionRules,
    bonus_wins,
    hand_miss,
    high_hands,
    prize_amount,
)
from jackpots.domain.qualification import SeatFacts
from jackpots.domain.rules import ConfigError
from jackpots.domain.shares import tie_shares

HELSINKI = ZoneInfo("Europe/Helsinki")
ZONES = [
    HELSINKI,
    ZoneInfo("Asia/Seoul"),
    ZoneInfo("America/New_York"),
    ZoneInfo("Australia/Lord_Howe"),  # a half-hour clock change
    ZoneInfo("Asia/Kathmandu"),  # a quarter-hour offset
    ZoneInfo("UTC"),
]
# The nights the clocks change in Helsinki in 2026: forward on 29 March at 03:00,
# back on 25 October at 04:00 (local).
SPRING = datetime(2026, 3, 29, 0, 0, tzinfo=UTC)
AUTUMN = datetime(2026, 10, 25, 0, 0, tzinfo=UTC)

instants = st.one_of(
    st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31)).map(
        lambda d: d.replace(tzinfo=UTC)
    ),
    # Near the nights the clocks change, where the mistakes are.
    st.integers(min_value=-36 * 3600, max_value=36 * 3600).flatmap(
        lambda s: st.sampled_from([SPRING, AUTUMN]).map(
            lambda night: night + timedelta(seconds=s)
        )
    ),
)


def test_doctests():
    for module in (periods_module, promotions_module):
        assert doctest.testmod(module).failed == 0


@given(
    at=instants,
    minutes=st.sampled_from(PERIOD_MINUTES),
    anchor=st.integers(min_value=0, max_value=24 * 60 - 1),
    tz=st.sampled_from(ZONES),
)
def test_every_instant_is_in_exactly_one_period(at, minutes, anchor, tz):
    """PR2: the period holds the instant; the next period starts where it ends and
    the one before ends where it starts, so no instant is in two or none."""
    start, end = period_of(at, tz, minutes, anchor)
    assert start <= at < end
    assert period_of(end, tz, minutes, anchor)[0] == end
    assert period_of(start - timedelta(microseconds=1), tz, minutes, anchor)[1] == start
    assert period_of(end - timedelta(microseconds=1), tz, minutes, anchor) == (
        start,
        end,
    )


@given(
    at=instants,
    minutes=st.sampled_from(PERIOD_MINUTES),
    anchor=st.integers(min_value=0, max_value=24 * 60 - 1),
    tz=st.sampled_from(ZONES),
)
def test_a_period_starts_at_a_wall_time_the_promotion_names(at, minutes, anchor, tz):
    """PR2, room time: a period starts at a wall-clock time ``anchor + k ×
    minutes`` after local midnight, unless that time didn't happen (the clocks
    went forward): then at the first instant after the gap."""
    start, end = period_of(at, tz, minutes, anchor)
    local = start.astimezone(tz)
    since = (local.hour * 60 + local.minute - anchor) % minutes
    after_gap = (start - timedelta(microseconds=1)).utcoffset() != start.utcoffset()
    assert (
        since == 0
        or after_gap
        or local.utcoffset()
        != (start - timedelta(seconds=1)).astimezone(tz).utcoffset()
    )
    # A period lasts at most its length and the gap the clocks skipped inside it;
    # a boundary that happens twice cuts the repeated stretch off on its own.
    assert timedelta(0) < end - start <= timedelta(minutes=minutes + 60)


def test_an_hourly_promotion_has_25_hours_the_night_the_clocks_go_back():
    """PR2 across DST, Helsinki: 03:00–04:00 happens twice on 25 October and is
    two periods of an hour; 29 March has 23, the hour from 02:00 to 04:00 (03:00
    never happens) lasting one hour."""
    night = periods_between(
        datetime(2026, 10, 24, 21, tzinfo=UTC),  # 00:00 local (EEST)
        datetime(2026, 10, 25, 22, tzinfo=UTC),  # 00:00 local (EET)
        HELSINKI,
        60,
    )
    assert len(night) == 25
    assert all(end - start == timedelta(hours=1) for start, end in night)
    walls = [start.astimezone(HELSINKI).strftime("%H:%M") for start, _ in night]
    assert walls.count("03:00") == 2
    spring = periods_between(
        datetime(2026, 3, 28, 22, tzinfo=UTC),  # 00:00 local (EET)
        datetime(2026, 3, 29, 21, tzinfo=UTC),  # 00:00 local (EEST)
        HELSINKI,
        60,
    )
    assert len(spring) == 23
    assert "03:00" not in [s.astimezone(HELSINKI).strftime("%H:%M") for s, _ in spring]


def test_a_daily_promotion_runs_from_cut_off_to_cut_off():
    """PR2 and the gaming day (BI8): a daily high hand anchored at the room's
    06:00 cut-off: a hand at 05:59 belongs to the day before, at 06:00 to the
    day; the day the clocks go back is 25 hours long."""
    anchor = 6 * 60
    before = datetime(2026, 11, 30, 5, 59, tzinfo=HELSINKI)
    start, end = period_of(before, HELSINKI, 24 * 60, anchor)
    assert start == datetime(2026, 11, 29, 6, 0, tzinfo=HELSINKI)
    assert end == datetime(2026, 11, 30, 6, 0, tzinfo=HELSINKI)
    assert period_of(end, HELSINKI, 24 * 60, anchor)[0] == end
    start, end = period_of(datetime(2026, 10, 25, 0, tzinfo=UTC), HELSINKI, 1440, 360)
    assert end - start == timedelta(hours=25)


def test_a_period_length_that_does_not_divide_a_day_is_refused():
    with pytest.raises(ValueError):
        period_of(datetime(2026, 11, 30, tzinfo=UTC), HELSINKI, 7)
    with pytest.raises(ValueError):
        period_of(datetime(2026, 11, 30), HELSINKI, 60)


@given(
    fixed=st.integers(min_value=0, max_value=10**9),
    percent=st.integers(min_value=0, max_value=100),
    funding=st.sampled_from([DROP, HOUSE, BOTH]),
    free=st.integers(min_value=-(10**6), max_value=10**9),
    carried=st.integers(min_value=0, max_value=10**8),
)
def test_a_prize_never_takes_more_from_the_pool_than_is_free(
    fixed, percent, funding, free, carried
):
    """PR1, JD5: what the pool pays is at most what it holds free plus what was
    carried in (held in it already); the house pays the fixed part it funds."""
    if funding == HOUSE:
        percent = 0
    amount = prize_amount(Prize(fixed, percent, funding), free=free, carried_in=carried)
    assert 0 <= amount.pool - carried <= max(free, 0)
    assert amount.house == (fixed if funding in (HOUSE, BOTH) else 0)
    if funding != DROP:
        assert amount.pool - carried == max(free, 0) * percent // 100


def seat(n: int, cards: str | None, *, folded: bool = False, present: bool = True):
    return SeatFacts(
        n, f"P-{n}", present, folded, tuple(cards.split()) if cards else None
    )


def holdem(board: str, *seats: SeatFacts, pot: int = 5_000, bb: int = 200, **kw):
    more = [seat(n, None, folded=True) for n in range(len(seats) + 1, 5)]
    return PromotionHand(
        game=kw.get("game", "NLHE"),
        big_blind=bb,
        pot=pot,
        bomb_pot=kw.get("bomb_pot", False),
        streets=kw.get("streets", 4),
        board=tuple(board.split()),
        seats=(*seats, *more),
    )


HIGH = PromotionRules.from_config(EXAMPLES["hourly-high-hand"])
ROYAL = PromotionRules.from_config(EXAMPLES["royal-flush"])
ACES = PromotionRules.from_config(EXAMPLES["aces-cracked"])


def test_high_hand_needs_both_hole_cards_and_a_pocket_pair_for_quads():
    """PR2's Hold'em card use: quads with one hole card don't count; quads with a
    pocket pair do; the minimum hand is aces full of kings."""
    one_card = holdem("9c 9d 9h Ks 3c", seat(1, "9s 2h"), seat(2, "As Kd"))
    assert high_hands(HIGH, one_card) == []
    pair = holdem("9c 9d 2h Ks 3c", seat(1, "9s 9h"), seat(2, "As Kd"))
    assert [s.seat for s in high_hands(HIGH, pair)] == [1]
    below = holdem("Ac Kc Qd 7s 3d", seat(1, "As Ad"), seat(2, "Kh 4d"))
    assert high_hands(HIGH, below) == []  # three aces: under aces full


def test_what_leaves_a_hand_out_of_every_promotion():
    """PR2–PR4: the game, the stakes, a bomb pot, players dealt in, the pot in big
    blinds."""
    pair = (seat(1, "9s 9h"), seat(2, "As Kd"))
    stakes = PromotionRules.from_config(
        {**EXAMPLES["hourly-high-hand"], "big_blinds": [500]}
    )
    assert hand_miss(HIGH, holdem("9c 9d 2h Ks 3c", *pair, game="RAZZ")) == (
        "game_not_covered"
    )
    assert hand_miss(stakes, holdem("9c 9d 2h Ks 3c", *pair)) == "stakes_not_covered"
    assert hand_miss(HIGH, holdem("9c 9d 2h Ks 3c", *pair, bomb_pot=True)) == "bomb_pot"
    three = PromotionHand("NLHE", 200, 5_000, False, 4, ("9c",) * 0, pair[:2])
    assert hand_miss(HIGH, three) == "too_few_dealt_in"
    assert hand_miss(HIGH, holdem("9c 9d 2h Ks 3c", *pair, pot=1_999)) == (
        "pot_too_small"
    )
    assert hand_miss(HIGH, holdem("9c 9d 2h Ks 3c", *pair, pot=2_000)) is None


def test_a_bonus_pays_each_seat_once_at_the_best_line_it_reaches():
    """PR3: a royal flush pays the royal line; two seats with bonus hands in one
    hand are each paid; an absent player's hand pays nothing."""
    hand = holdem("Ks Qs Js 9d 9c", seat(1, "As Ts"), seat(2, "9h 9s"))
    wins = bonus_wins(ROYAL, hand)
    assert [(w.shown.seat, w.hand, w.fixed) for w in wins] == [
        (1, "royal_flush", 50_000),
        (2, "four_of_a_kind", 10_000),
    ]
    king_high = holdem("9s Ts Js 2d 3c", seat(1, "Ks Qs"), seat(2, "2c 2h"))
    assert [(w.shown.seat, w.hand) for w in bonus_wins(ROYAL, king_high)] == [
        (1, "straight_flush")
    ]
    away = holdem("Ks Qs Js 9d 9c", seat(1, "As Ts", present=False), seat(2, "2c 3c"))
    assert bonus_wins(ROYAL, away) == []


def test_aces_cracked_pays_every_pair_of_aces_that_loses_the_showdown():
    """PR3: two players with pocket aces both beaten by a flush are both paid;
    aces that tie the best hand are not cracked; a fold is no showdown."""
    hand = holdem(
        "2h 7h 9h Js 3d", seat(1, "As Ad"), seat(2, "Ac Ah"), seat(3, "Kh 4h")
    )
    assert [w.shown.seat for w in bonus_wins(ACES, hand)] == [1, 2]
    tie = holdem("2h 7c 9h Js 3d", seat(1, "As Ad"), seat(2, "Ac Ah"))
    assert bonus_wins(ACES, tie) == []
    fold = holdem("2h 7c 9h Js 3d", seat(1, "As Ad"), seat(2, "Kc Kh", folded=True))
    assert bonus_wins(ACES, fold) == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "jackpot"}, "kind"),
        ({"games": []}, "games"),
        ({"big_blinds": [0]}, "big_blinds"),
        ({"min_hand": ["As", "As", "Ad", "Ks", "Kh"]}, "min_hand"),
        ({"board": "turn"}, "board"),
        ({"first_run_only": False}, "first_run_only"),
        ({"exclude_bomb_pots": "yes"}, "exclude_bomb_pots"),
        ({"carry_over": 1}, "carry_over"),
        ({"period_minutes": 50}, "period_minutes"),
        ({"anchor_minutes": 1440}, "anchor_minutes"),
        ({"time_zone": "Nowhere"}, "time_zone"),
        ({"prize": {"funding": "lottery", "fixed": 1}}, "prize.funding"),
        ({"prize": {"fixed": -1}}, "prize.fixed"),
        ({"prize": {"fixed": 0}}, "prize"),
        ({"prize": {"fixed": 100, "funding": "both"}}, "prize"),
        ({"bonuses": [{"hand": "royal_flush", "fixed": 1}]}, "bonuses"),
        ({"min_dealt_in": 1}, "min_dealt_in"),
        ({"card_use": {"hole_cards": 3}}, "card_use.hole_cards"),
    ],
)
def test_rules_that_cannot_be_used_name_their_field(change, field):
    with pytest.raises(ConfigError) as refused:
        PromotionRules.from_config({**EXAMPLES["hourly-high-hand"], **change})
    assert refused.value.field == field


def test_the_configuration_reads_back_the_same():
    for example in EXAMPLES.values():
        rules = PromotionRules.from_config(example)
        assert PromotionRules.from_config(rules.to_config()) == rules


@given(
    total=st.integers(min_value=0, max_value=10**10),
    tied=st.integers(min_value=1, max_value=12),
)
def test_tied_high_hands_share_to_the_cent_the_earlier_first(total, tied):
    """PR2: tied best hands share the prize equally by largest remainder: the
    shares add up, differ by at most a cent, and an earlier hand never gets less."""
    shares = tie_shares(total, tied)
    assert sum(shares) == total
    assert max(shares) - min(shares) <= 1
    assert shares == sorted(shares, reverse=True)
